import { FormattedDate, FormattedMessage, useIntl } from "react-intl";
import { ownerDisplayName } from "../../../lib/owner";
import { AVATAR_SIZE, Avatar } from "../../../ui/Avatar";
import { SiteLayout } from "../../../ui/SiteLayout";
import { useSession } from "../../../ui/session";
import { LikeButton } from "../../likes/components/LikeButton";
import { sendLike } from "../../likes/like-client";
import type { PresentationPageData } from "../page-data";
import { Player } from "./player/Player";
import { playerPropsOf } from "./player/player-props";
import { TranscriptText } from "./TranscriptText";
import "./presentation.css";

/** Spec §5: views show only when > 0 and the presentation is public or reusable. */
export function showsViewCount(data: Pick<PresentationPageData, "viewCount" | "privacy">): boolean {
  return data.viewCount > 0 && (data.privacy === "public" || data.privacy === "reusable");
}

/** The public view page (spec §2): the viewer, the toolbar card and the transcript. */
export function PresentationPage({ data }: { data: PresentationPageData }) {
  const intl = useIntl();
  const session = useSession();
  const ownerName = ownerDisplayName(data.owner);
  const tags = data.tags ? data.tags.split(",") : [];
  return (
    <SiteLayout>
      <div className="view-page">
        <section className="stage" aria-label={intl.formatMessage({ id: "player.region" }, { title: data.title })}>
          <Player {...playerPropsOf(data, { titleIsHeading: false, viewOnPodium: false })} />
        </section>

        <section className="toolbar-card" aria-labelledby="presentation-title">
          <h1 id="presentation-title" className="toolbar-card__title">
            {data.title}
          </h1>
          <div className="toolbar-card__meta">
            <OwnerBadge data={data} name={ownerName} />
            <span className="toolbar-card__date">
              <FormattedMessage
                id="presentation.lastModified"
                values={{
                  date: (
                    <time dateTime={data.lastModifiedDateString}>
                      <FormattedDate value={data.lastModifiedDateString} dateStyle="long" timeZone="UTC" />
                    </time>
                  ),
                }}
              />
            </span>
            {showsViewCount(data) ? (
              <span className="toolbar-card__views">
                <FormattedMessage id="presentation.views" values={{ count: data.viewCount }} />
              </span>
            ) : null}
            <span className="toolbar-card__steps">
              <FormattedMessage id="presentation.slideCount" values={{ count: data.stepCount }} />
            </span>
            <LikeButton
              oid={data.oid}
              likesCount={data.likesCount}
              hasLiked={data.hasLikedPrezi}
              isAuthenticated={data.isAuthenticated}
              onLoggedOutLike={goToSignup}
              sendLike={(liked) =>
                sendLike({ oid: data.oid }, liked, { preproduction: session.environment === "preproduction" })
              }
            />
          </div>
          {data.description ? (
            <div
              className="toolbar-card__description"
              // Sanitised with DOMPurify when it was saved (spec §2: the description is HTML).
              // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on save
              dangerouslySetInnerHTML={{ __html: data.description }}
            />
          ) : null}
          {tags.length > 0 ? (
            <ul className="tag-list" aria-label={intl.formatMessage({ id: "presentation.tags" })}>
              {tags.map((tag) => (
                <li key={tag} className="tag-list__tag">
                  {tag}
                </li>
              ))}
            </ul>
          ) : null}
        </section>

        <section className="transcript" aria-labelledby="transcript-heading">
          <h2 id="transcript-heading">
            <FormattedMessage id="transcript.heading" />
          </h2>
          <TranscriptText transcript={data.transcriptData} />
        </section>
      </div>
    </SiteLayout>
  );
}

/** Spec §4, §6: a logged-out like on the view page sends the visitor to sign up, then back (R2.7). */
export function signupPathFor(currentPath: string): string {
  return `/signup/?next=${encodeURIComponent(currentPath)}`;
}

function goToSignup(): void {
  window.location.assign(signupPathFor(window.location.pathname));
}

/** Spec §2: the owner links to /user/{oid}/ only when the oid is non-empty. */
function OwnerBadge({ data, name }: { data: PresentationPageData; name: string }) {
  const content = (
    <>
      <Avatar initials={data.owner.avatarInitials} color={data.owner.avatarColor} size={AVATAR_SIZE.detail} />
      <span className="owner__name">{name}</span>
    </>
  );
  return data.owner.oid ? (
    <a className="owner" href={`/user/${encodeURIComponent(data.owner.oid)}/`}>
      {content}
    </a>
  ) : (
    <span className="owner">{content}</span>
  );
}
