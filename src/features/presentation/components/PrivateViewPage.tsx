import type { MouseEvent, ReactNode } from "react";
import { FormattedMessage } from "../../../i18n/intl";
import { followAfterLog } from "../../../lib/redirect";
import { trackEvent } from "../../events/client";
import { VIEWER_EVENTS } from "../../events/usage-event";
import { commentUrl, editorUrl, privateHeaderAction, privateHeaderVisible } from "../editor-links";
import type { PresentationPageData } from "../page-data";
import { Player } from "./player/Player";
import { playerPropsOf } from "./player/player-props";
import "../../../ui/styles/base.css";
import "./fullscreen-page.css";

/** Spec §4: open editor / open for commenting log first, then navigate once the log call settles. */
function loggedNavigation(event: MouseEvent<HTMLAnchorElement>, eventName: string, oid: string): void {
  followAfterLog(event, trackEvent(eventName, { oid }));
}

/**
 * The private view page (spec §2): a full-screen player, with a header bar holding the title
 * and Edit or Comment only for pitch presentations, to viewers with those rights (§6).
 */
export function PrivateViewPage({
  data,
  actions,
}: {
  data: PresentationPageData;
  /** R7.2: what the visitor can do here (the like button), composed by the view-page feature. */
  actions?: ReactNode;
}) {
  const showHeader = privateHeaderVisible(data);
  const action = privateHeaderAction(data.viewerRights);
  return (
    <div className="fullscreen-page">
      {showHeader ? (
        <header className="private-header">
          <h1 className="private-header__title">{data.title}</h1>
          {action === "edit" ? (
            <a
              className="button button--primary"
              href={editorUrl(data.oid, data.schemaVersion)}
              onClick={(event) => loggedNavigation(event, VIEWER_EVENTS.openEditor, data.oid)}
            >
              <FormattedMessage id="private.edit" />
            </a>
          ) : null}
          {action === "comment" ? (
            <a
              className="button button--primary"
              href={commentUrl(data.oid)}
              onClick={(event) => loggedNavigation(event, VIEWER_EVENTS.openForCommenting, data.oid)}
            >
              <FormattedMessage id="private.comment" />
            </a>
          ) : null}
          {actions ? <div className="private-header__actions">{actions}</div> : null}
        </header>
      ) : null}
      <main className="fullscreen-page__player">
        <Player {...playerPropsOf(data, { titleIsHeading: !showHeader, viewOnPodium: false, reading: true })} />
      </main>
      {/* Issue 33: a landmark (contentinfo), so its Like and downloads are in one like the player. */}
      {!showHeader && actions ? <footer className="private-actions">{actions}</footer> : null}
    </div>
  );
}
