import type { PresentationPageData } from "../../page-data";
import { readingPathOf } from "../../reading-path";
import type { PlayerProps } from "./Player";

/**
 * Spec §2 restart overlay, R2.29: the flag that swaps the learn-more link for the promotional
 * variant (here, not in RestartPromo.tsx, which loads with the viewer: issue 30).
 */
export const RESTART_PROMO_FLAG = "restart-promo-video";

/** Spec §2 routes: where the get-the-product call to action goes (the product page). */
const RESTART_PROMO_CTA_URL = "/product/";

/** The player's props from a page's data (the view, embed and private pages all play the same way). */
export function playerPropsOf(
  data: PresentationPageData,
  options: { titleIsHeading: boolean; viewOnPodium: boolean; posterMeta?: boolean; reading?: boolean },
): PlayerProps {
  return {
    oid: data.oid,
    title: data.title,
    owner: data.owner,
    lastModified: data.lastModifiedDateString,
    schemaVersion: data.schemaVersion,
    documentUrl: data.documentUrl,
    previewUrl: data.previewUrl,
    fallbackPreviewUrl: data.fallbackPreviewUrl,
    stepCount: data.stepCount,
    pageAspect: data.pageAspect,
    posterAspect: data.posterAspect,
    autoplay: data.shouldAutoplay || data.forceAutoplay,
    // Issue 12: the reading mode, where the page offers it (not inside another site's frame).
    readingUrl: options.reading && !data.embedMode ? readingPathOf(data) : null,
    viewOnPodiumUrl: options.viewOnPodium ? data.canonicalPath : null,
    learnMoreUrl: data.embedMode ? "/product/" : null,
    // R2.29: behind its flag, the restart overlay promotes Podium with a video ad and a get-the-product link.
    restartPromo: data.evaluatedFeatures[RESTART_PROMO_FLAG] === true ? { ctaUrl: RESTART_PROMO_CTA_URL } : null,
    titleIsHeading: options.titleIsHeading,
    // Issue 12: the poster shows title, owner and date unless the page shows them right below.
    posterMeta: options.posterMeta ?? true,
    // Issue 10: embedded players have none (another site's frame doesn't share the channel).
    // Issue 28: only those who may present it get one (the presenter view shows the speaker notes).
    presenterUrl:
      !data.canPresent || data.embedMode
        ? null
        : data.viewLink
          ? `/view/${data.viewLink.link_id}/presenter/`
          : `/p/presenter/${data.oid}/`,
    canEdit: data.viewerRights.edit,
    // Issue 34 item 5: a `?step=N` link starts there (the server also sets shouldAutoplay).
    startStep: data.linkedStep,
    // Issue 34: the embed page's options, and its API for the page that frames it.
    ...(data.embedOptions
      ? {
          startStep: data.embedOptions.start,
          loop: data.embedOptions.loop,
          controls: data.embedOptions.controls,
          posterMeta: data.embedOptions.title && (options.posterMeta ?? true),
          embedApi: { allowedHosts: data.embedHosts ?? [] },
        }
      : {}),
    // Issue 33: step reports say which view link the deck was watched through.
    viewLinkId: data.viewLink?.link_id ?? null,
  };
}
