import type { MouseEvent } from "react";
import { FormattedMessage, useIntl } from "../../../i18n/intl";
import { followAfterLog } from "../../../lib/redirect";
import { managePath } from "../../dashboard/paths";
import { trackEvent } from "../../events/client";
import { VIEWER_EVENTS } from "../../events/usage-event";
import { commentUrl, editorUrl } from "../../presentation/editor-links";
import type { PresentationPageData } from "../../presentation/page-data";
import { ToolbarActionLabel } from "./ToolbarIcons";

type Rights = Pick<PresentationPageData, "oid" | "title" | "schemaVersion" | "viewerRights" | "isOwner">;

/**
 * Issue 12, "the owner's way around": what the view page offers the people who work on the deck
 * (product brief, Roles). The owner gets Edit, Share settings and Analytics instead of Report and
 * Like; a collaborator who may edit gets Edit, one who may comment gets Comment (spec §6's rule for
 * the private header, here on the public page for both schema versions). Nobody else gets any.
 */
export function workActionOf(rights: Pick<Rights, "viewerRights">): "edit" | "comment" | null {
  if (rights.viewerRights.edit) return "edit";
  if (rights.viewerRights.comment) return "comment";
  return null;
}

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

/** The owner's likes, shown as a figure: nobody likes their own deck (issue 12). */
export function OwnLikes({ count }: { count: number }) {
  return (
    <span className="toolbar__likes">
      <svg className="toolbar__likes-icon" width="18" height="18" viewBox="0 0 24 24" aria-hidden="true">
        <path
          d="M12 21.35 10.55 20.03C5.4 15.36 2 12.28 2 8.5 2 5.42 4.42 3 7.5 3c1.74 0 3.41.81 4.5 2.09C13.09 3.81 14.76 3 16.5 3 19.58 3 22 5.42 22 8.5c0 3.78-3.4 6.86-8.55 11.54z"
          fill="currentColor"
        />
      </svg>
      <FormattedMessage id="presentation.likes" values={{ count }} />
    </span>
  );
}
