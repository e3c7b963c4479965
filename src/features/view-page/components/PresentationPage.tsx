import { type FormEvent, type MouseEvent, useCallback, useEffect, useState } from "react";
import { FormattedMessage, FormattedNumber, useIntl } from "../../../i18n/intl";
import type { Card } from "../../../lib/card";
import { readFeature } from "../../../lib/features";
import { ownerDisplayName } from "../../../lib/owner";
import { followAfterLog, redirectAfter } from "../../../lib/redirect";
import { accountPath } from "../../../lib/sign-in-reason";
import { AVATAR_SIZE, Avatar } from "../../../ui/Avatar";
import { loadedWhenNear, loadedWhereShown } from "../../../ui/LoadedWhereShown";
import { SiteLayout } from "../../../ui/SiteLayout";
import { useSession } from "../../../ui/session";
import { isMobileViewport } from "../../../ui/viewport";
import { embedProductType } from "../../embed/embed-product-type";
import { trackEvent, trackViewPageLoaded } from "../../events/client";
import { COPY_SOURCE_VIEW_PAGE, NATIVE_LOG_EVENTS } from "../../events/log-calls";
import { VIEWER_EVENTS } from "../../events/usage-event";
import { ViewerHeader } from "../../explore/components/ViewerHeader";
import { LikeButton } from "../../likes/components/LikeButton";
import { sendLike } from "../../likes/like-client";
import { DownloadLinks } from "../../presentation/components/DownloadLinks";
import { BottomBand, VideoBanner } from "../../presentation/components/Promotions";
import { Player } from "../../presentation/components/player/Player";
import { playerPropsOf } from "../../presentation/components/player/player-props";
import { Transcript } from "../../presentation/components/Transcript";
import type { PresentationPageData } from "../../presentation/page-data";
import { readingPathOf } from "../../presentation/reading-path";
import { SIDEBAR_LOAD_AHEAD_PX } from "../../sidebar/sidebar-rows";
import { OwnLikes } from "./OwnLikes";
import { ToolbarActionLabel, ToolbarButton, ToolbarLink } from "./ToolbarIcons";
import { workActionOf } from "./work-action";
import "./more-decks.css";
// The side lists' code loads when near (SideLists), their look with the page: their room is held from the first paint.
import "../../sidebar/components/sidebar.css";
import "../../presentation/components/presentation.css";
import { LastModified } from "../../../ui/LastModified";

/** Issue 30: the owner's and collaborators' tools reach only their browsers. */
export const OwnerTools = loadedWhereShown(import.meta.env.SSR ? (await import("./OwnerTools")).OwnerTools : null, () =>
  import("./OwnerTools").then((module) => module.OwnerTools),
);

/** Issue 30: the author's, related and promoted decks load their code as they near the screen. */
export const SideLists = loadedWhenNear(
  import.meta.env.SSR ? (await import("./SideLists")).SideLists : null,
  () => import("./SideLists").then((module) => module.SideLists),
  SIDEBAR_LOAD_AHEAD_PX,
);

/** Spec §5: views show only when > 0 and the presentation is public or reusable. */
export function showsViewCount(data: Pick<PresentationPageData, "viewCount" | "privacy">): boolean {
  return data.viewCount > 0 && (data.privacy === "public" || data.privacy === "reusable");
}

/**
 * Spec §4, §6: a logged-out like on the view page sends the visitor to sign up, then back (R2.7);
 * issue 12: the sign-up page says why ("Sign up to like this presentation").
 */
export function signupPathFor(currentPath: string): string {
  return accountPath("/signup/", currentPath, "like");
}

function goToSignup(): void {
  window.location.assign(signupPathFor(window.location.pathname));
}

/** Spec §5: when on, the embed modal offers responsive dimensions only. */
export const EMBED_RESPONSIVE_ONLY_FLAG = "embed-responsive-only";

/** Spec §4: the page-level dialog is none or embed; the share modal is handled separately. */
type PageDialog = "none" | "embed";

type Modals = typeof import("./view-page-modals");
let modalsLoading: Promise<Modals> | null = null;

/**
 * Issue 30 item 1: the share and embed dialogs are not part of the page's first JavaScript: they
 * load on intent (pointer over or focus on their button) or on the click itself; a failed load
 * is tried again on the next intent.
 */
function loadModals(): Promise<Modals> {
  modalsLoading ??= import("./view-page-modals").catch((error: unknown) => {
    modalsLoading = null;
    throw error;
  });
  return modalsLoading;
}

/**
 * The public view page (spec §2): header, closable video banner, the player, the toolbar card
 * (title, owner, last modified, description, views, like, embed, share, report…), the
 * transcript, the sidebar and the bottom band.
 */
export function PresentationPage({ data }: { data: PresentationPageData }) {
  const intl = useIntl();
  const session = useSession();
  const [dialog, setDialog] = useState<PageDialog>("none");
  const [shareOpen, setShareOpen] = useState(false);
  const [modals, setModals] = useState<Modals | null>(null);
  /** Loads the dialogs (once); `then` runs when they are there. */
  const withModals = (then?: () => void) =>
    loadModals().then(
      (loaded) => {
        setModals(loaded);
        then?.();
      },
      (error: unknown) => console.error("Podium: the dialogs did not load", error),
    );
  const modalIntent = { onPointerEnter: () => void withModals(), onFocus: () => void withModals() };
  const [origin, setOrigin] = useState("");
  // Issue 12: the topic on screen while playing (its first step), marked in the transcript.
  const [topicStep, setTopicStep] = useState<number | null>(null);
  const ownerName = ownerDisplayName(data.owner);
  const tags = data.tags ? data.tags.split(",") : [];
  const viewUrl = `${origin}${data.canonicalPath}`;

  useEffect(() => {
    setOrigin(window.location.origin);
    // Issue 28 item 4: with the visitor id the server signs for this page load.
    void trackViewPageLoaded(data.oid);
  }, [data.oid]);

  const openEmbed = () =>
    void withModals(() => {
      setDialog("embed");
      void trackEvent(VIEWER_EVENTS.showModal, { oid: data.oid, modal: "embed" });
    });
  const closeEmbed = () => {
    setDialog("none");
    void trackEvent(VIEWER_EVENTS.closeModal, { oid: data.oid, modal: "embed" });
  };
  const openShare = async () => {
    // Spec §7: on mobile (issue 12: a viewport narrower than 768 px) with native share, share
    // natively with title and URL.
    if (isMobileViewport(data.isMobile) && typeof navigator.share === "function") {
      try {
        await navigator.share({ title: data.title, url: viewUrl });
        void trackEvent(NATIVE_LOG_EVENTS.sharePresentation, { oid: data.oid, type: "MOBILE" });
        return;
      } catch {
        // Cancelled or refused: fall back to the modal.
      }
    }
    await withModals(() => {
      setShareOpen(true);
      void trackEvent(NATIVE_LOG_EVENTS.openSocialShare, { oid: data.oid });
      void trackEvent(VIEWER_EVENTS.showModal, { oid: data.oid, modal: "share" });
    });
  };
  const like = async (liked: boolean) => {
    await sendLike({ oid: data.oid }, liked, { preproduction: session.environment === "preproduction" });
    void trackEvent(liked ? NATIVE_LOG_EVENTS.like : NATIVE_LOG_EVENTS.unlike, { oid: data.oid });
  };
  /** Spec §7: copy presentation is logged (source VIEW_PAGE) before the form goes (§4: after the log settles). */
  const makeCopy = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const log = trackEvent(NATIVE_LOG_EVENTS.copyPresentation, { oid: data.oid, source: COPY_SOURCE_VIEW_PAGE });
    void redirectAfter(() => form.submit(), form.action, log);
  };
  const openCard = (card: Card, event: MouseEvent<HTMLAnchorElement>) =>
    followAfterLog(
      event,
      trackEvent(VIEWER_EVENTS.presentationCardOpened, { oid: data.oid, card_type: card.type, target_url: card.path }),
    );
  const onPagedShown = useCallback(
    () => void trackEvent(VIEWER_EVENTS.pagedTranscriptShown, { oid: data.oid }),
    [data.oid],
  );
  const onTranscriptOpened = useCallback(
    () => void trackEvent(VIEWER_EVENTS.transcriptOpened, { oid: data.oid }),
    [data.oid],
  );

  const header = data.appData ? <ViewerHeader appData={data.appData} /> : undefined;
  const banner = <VideoBanner features={data.evaluatedFeatures} oid={data.oid} />;
  return (
    <SiteLayout
      header={
        <>
          {banner}
          {header}
        </>
      }
      footer={<BottomBand isAuthenticated={data.isAuthenticated} oid={data.oid} />}
    >
      <div className="view-page">
        <div className="view-page__main">
          <section className="stage" aria-label={intl.formatMessage({ id: "player.region" }, { title: data.title })}>
            <Player
              {...playerPropsOf(data, { titleIsHeading: false, viewOnPodium: false, posterMeta: false, reading: true })}
              onTopicStep={setTopicStep}
            />
          </section>

          <section className="toolbar-card" aria-labelledby="presentation-title">
            <h1 id="presentation-title" className="toolbar-card__title">
              {data.title}
            </h1>
            <div className="toolbar-card__meta">
              <OwnerBadge data={data} name={ownerName} />
              <span className="toolbar-card__date">
                <LastModified date={data.lastModifiedDateString} />
              </span>
              {data.privacy === "unlisted" ? (
                <span className="privacy privacy--unlisted">
                  <FormattedMessage id="presentation.unlisted" />
                </span>
              ) : null}
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

            <div className="toolbar" role="toolbar" aria-label={intl.formatMessage({ id: "toolbar.label" })}>
              <div className="toolbar__group toolbar__group--left">
                {showsViewCount(data) ? (
                  <span className="toolbar__views">
                    <FormattedMessage
                      id="presentation.viewsCount"
                      values={{ count: data.viewCount, formatted: <FormattedNumber value={data.viewCount} /> }}
                    />
                  </span>
                ) : null}
                {data.isOwner ? (
                  // Issue 12: the owner sees their likes, not a button to like their own deck.
                  <OwnLikes count={data.likesCount} />
                ) : (
                  <LikeButton
                    oid={data.oid}
                    likesCount={data.likesCount}
                    hasLiked={data.hasLikedPrezi}
                    isAuthenticated={data.isAuthenticated}
                    onLoggedOutLike={goToSignup}
                    sendLike={like}
                  />
                )}
              </div>
              {/* Issue 12: what shows follows the viewport (CSS at 768 px, spec §9), never the user
                  agent: a phone logged out sees one call to action (spec §2), every action is
                  an icon with its name on a phone, and Make a copy is desktop only (§6). */}
              <div
                className={`toolbar__group toolbar__group--right${data.isAuthenticated ? "" : " toolbar__group--guest"}`}
              >
                {data.isAuthenticated ? null : (
                  <a className="button button--primary toolbar__phone-cta" href="/signup/">
                    <FormattedMessage id="nav.getStarted" />
                  </a>
                )}
                <ToolbarButton icon="embed" label="toolbar.embed" onClick={openEmbed} {...modalIntent} />
                <ToolbarButton icon="share" label="toolbar.share" onClick={() => void openShare()} {...modalIntent} />
                {data.showMakeACopyButton && data.makeACopyRedirectUrl ? (
                  <form
                    method="post"
                    action={data.makeACopyRedirectUrl}
                    className="inline-form toolbar__desktop-only"
                    onSubmit={makeCopy}
                  >
                    <input type="hidden" name="_csrf" value={session.csrfToken ?? ""} />
                    <button type="submit" className="button toolbar__action">
                      <ToolbarActionLabel icon="copy">
                        <FormattedMessage id="toolbar.makeCopy" />
                      </ToolbarActionLabel>
                    </button>
                  </form>
                ) : null}
                {data.isOwner ? null : (
                  // Issue 12: nobody reports their own deck.
                  <ToolbarLink
                    icon="report"
                    label="toolbar.report"
                    href={`/contact/abuse/${data.oid}/`}
                    target="_blank"
                    rel="noopener"
                  >
                    <span className="visually-hidden">
                      {" "}
                      <FormattedMessage id="toolbar.newTab" />
                    </span>
                  </ToolbarLink>
                )}
                {data.canCurate ? (
                  <ToolbarLink icon="curate" label="toolbar.curate" href={`/curation/${data.oid}/`} />
                ) : null}
                {data.isOwner || workActionOf(data) !== null ? <OwnerTools data={data} /> : null}
                {data.isAuthenticated && workActionOf(data) === null ? (
                  <ToolbarLink icon="create" label="toolbar.createYourOwn" primary href="/dashboard/next/" />
                ) : null}
              </div>
            </div>
            <DownloadLinks downloads={data.downloads} />
          </section>

          <section className="transcript" aria-labelledby="transcript-heading">
            <div className="transcript__header">
              <h2 id="transcript-heading">
                <FormattedMessage id="transcript.heading" />
              </h2>
              {/* Issue 12: the reading mode, the transcript with its slides. */}
              <a className="transcript__read" href={readingPathOf(data)}>
                <FormattedMessage id="reading.open" />
              </a>
            </div>
            <Transcript
              transcript={data.transcriptData}
              onPagedShown={onPagedShown}
              onOpened={onTranscriptOpened}
              currentStep={topicStep}
            />
          </section>
        </div>
        {/* Issue 12: the author's and related decks first, then the promotional cards (compact rows);
            issue 11: both load after the page, as they near the screen. */}
        <div className="view-page__side">
          {data.isPublicView ? (
            <SideLists oid={data.oid} ownerName={ownerName} expected={data.moreDecksCounts} onCardClick={openCard} />
          ) : null}
        </div>
      </div>

      {/* Mounted once loaded (closed until asked for): nothing of theirs is in the server's markup. */}
      {modals ? (
        <>
          <modals.ShareModal
            open={shareOpen}
            onClose={() => {
              setShareOpen(false);
              void trackEvent(VIEWER_EVENTS.closeModal, { oid: data.oid, modal: "share" });
            }}
            target={{ url: viewUrl, title: data.title, tags: data.tags }}
            onShare={(network) =>
              void trackEvent(NATIVE_LOG_EVENTS.sharePresentation, { oid: data.oid, type: network })
            }
            onCopyLink={() => void trackEvent(NATIVE_LOG_EVENTS.copyViewLink, { oid: data.oid })}
          />
          <modals.EmbedModal
            open={dialog === "embed"}
            onClose={closeEmbed}
            oid={data.oid}
            title={data.title}
            origin={origin}
            responsiveOnly={readFeature(data.evaluatedFeatures, EMBED_RESPONSIVE_ONLY_FLAG)}
            learnMoreUrl="/product/"
            pageAspect={data.pageAspect}
            stepCount={data.stepCount}
            onCopy={() =>
              void trackEvent(VIEWER_EVENTS.embedCodeCopied, {
                oid: data.oid,
                product_type: embedProductType(data.schemaVersion),
              })
            }
          />
        </>
      ) : null}
    </SiteLayout>
  );
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
