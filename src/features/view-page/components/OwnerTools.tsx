import type { MouseEvent } from "react";
import { useIntl } from "../../../i18n/intl";
import { followAfterLog } from "../../../lib/redirect";
import { managePath } from "../../dashboard/paths";
import { trackEvent } from "../../events/client";
import { VIEWER_EVENTS } from "../../events/usage-event";
import { commentUrl, editorUrl } from "../../presentation/editor-links";
import { ToolbarLink } from "./ToolbarIcons";
import { type Rights, workActionOf } from "./work-action";

/** Spec §4: opening the editor or commenting is logged first, then the page navigates. */
function logged(event: MouseEvent<HTMLAnchorElement>, eventName: string, oid: string): void {
  followAfterLog(event, trackEvent(eventName, { oid }));
}

/** The owner's and collaborators' buttons on the toolbar's right (nothing for anyone else). */
export function OwnerTools({ data }: { data: Rights }) {
  const intl = useIntl();
  const action = workActionOf(data);
  return (
    <>
      {data.isOwner ? (
        <>
          <ToolbarLink
            icon="sharing"
            label="owner.shareSettings"
            href={managePath(data.oid, "sharing")}
            aria-label={intl.formatMessage({ id: "owner.shareSettingsLabel" }, { title: data.title })}
          />
          <ToolbarLink
            icon="analytics"
            label="owner.analytics"
            href={managePath(data.oid, "activity")}
            aria-label={intl.formatMessage({ id: "owner.analyticsLabel" }, { title: data.title })}
          />
        </>
      ) : null}
      {action === "edit" ? (
        <ToolbarLink
          icon="edit"
          label="private.edit"
          primary
          href={editorUrl(data.oid, data.schemaVersion)}
          onClick={(event) => logged(event, VIEWER_EVENTS.openEditor, data.oid)}
        />
      ) : null}
      {action === "comment" ? (
        <ToolbarLink
          icon="comment"
          label="private.comment"
          primary
          href={data.schemaVersion === "2" ? commentUrl(data.oid) : `${editorUrl(data.oid, "0")}#present`}
          onClick={(event) => logged(event, VIEWER_EVENTS.openForCommenting, data.oid)}
        />
      ) : null}
    </>
  );
}
