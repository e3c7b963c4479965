import type { MouseEvent } from "react";
import { FormattedMessage, useIntl } from "../../../i18n/intl";
import { followAfterLog } from "../../../lib/redirect";
import { managePath } from "../../dashboard/paths";
import { trackEvent } from "../../events/client";
import { VIEWER_EVENTS } from "../../events/usage-event";
import { commentUrl, editorUrl } from "../../presentation/editor-links";
import { ToolbarActionLabel } from "./ToolbarIcons";
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
          <a
            className="button toolbar__action"
            href={managePath(data.oid, "sharing")}
            aria-label={intl.formatMessage({ id: "owner.shareSettingsLabel" }, { title: data.title })}
            title={intl.formatMessage({ id: "owner.shareSettings" })}
          >
            <ToolbarActionLabel icon="sharing">
              <FormattedMessage id="owner.shareSettings" />
            </ToolbarActionLabel>
          </a>
          <a
            className="button toolbar__action"
            href={managePath(data.oid, "activity")}
            aria-label={intl.formatMessage({ id: "owner.analyticsLabel" }, { title: data.title })}
            title={intl.formatMessage({ id: "owner.analytics" })}
          >
            <ToolbarActionLabel icon="analytics">
              <FormattedMessage id="owner.analytics" />
            </ToolbarActionLabel>
          </a>
        </>
      ) : null}
      {action === "edit" ? (
        <a
          className="button button--primary toolbar__action"
          href={editorUrl(data.oid, data.schemaVersion)}
          title={intl.formatMessage({ id: "private.edit" })}
          onClick={(event) => logged(event, VIEWER_EVENTS.openEditor, data.oid)}
        >
          <ToolbarActionLabel icon="edit">
            <FormattedMessage id="private.edit" />
          </ToolbarActionLabel>
        </a>
      ) : null}
      {action === "comment" ? (
        <a
          className="button button--primary toolbar__action"
          href={data.schemaVersion === "2" ? commentUrl(data.oid) : `${editorUrl(data.oid, "0")}#present`}
          title={intl.formatMessage({ id: "private.comment" })}
          onClick={(event) => logged(event, VIEWER_EVENTS.openForCommenting, data.oid)}
        >
          <ToolbarActionLabel icon="comment">
            <FormattedMessage id="private.comment" />
          </ToolbarActionLabel>
        </a>
      ) : null}
    </>
  );
}
