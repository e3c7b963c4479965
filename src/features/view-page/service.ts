import type { Database, Queryable } from "../../db/client";
import { pageShapeOf } from "../../document/page-shape";
import { deriveTranscript } from "../../document/transcript";
import type { Card } from "../../lib/card";
import type { FeatureFlags } from "../../lib/features";
import { ownerDisplayName } from "../../lib/owner";
import { randomSubset } from "../../lib/random-subset";
import { LISTS_TAG, type LiveChanges, presentationTag, SHOWCASE_TAG, userTag } from "../content-changes";
import { downloadOfferOf } from "../downloads/service";
import { ADDRESS_VIEWS_PER_HOUR, VIEW_WINDOW_MINUTES } from "../events/store-batch";
import type { HeaderAppData } from "../explore/header-data";
import { cachedSearchableCount, headerAppData } from "../explore/service";
import { clampStep, parseEmbedOptions } from "../presentation/embed-options";
import type { LinkState } from "../presentation/link-gate";
import type { PresentationPageData } from "../presentation/page-data";
import { accessOf, type PresentationAccess } from "../presentation/policy";
import {
  countViewLinkVisit,
  findPresentationByOid,
  hasLiked,
  type LinkVisit,
  listListedPresentationsOf,
  listRelatedPresentations,
  listStaffPicks,
  type PresentationRow,
} from "../presentation/repository";
import {
  accessTo,
  canonicalPathOf,
  type LinkRoute,
  ownerDataOf,
  presentationByLink,
  presentationCard,
  viewLinkGate,
} from "../presentation/service";
import { stepTitles } from "../presentation/step-titles";
import { FALLBACK_THUMBNAIL } from "../presentation/thumbnail";
import { cachedSidebar, type SidebarData } from "../sidebar/service";
import type { SidebarRows } from "../sidebar/sidebar-rows";
import { cachedByKey, cachedUntilChange } from "../small-caches";
import type { Viewer } from "../viewer";
import { keptPresentationFacts, type PresentationFacts } from "./kept-facts";
import { MORE_FROM_AUTHOR_COUNT, type MoreDecksData, RELATED_COUNT } from "./more-decks";
import type { ReadingPageData } from "./reading-data";

/**
 * The view, embed and private (view-link) pages, composed from the features they show: the
 * presentation, the header (explore) and the sidebar (issue 11, item 5). Imports point one way:
 * those features never import this one.
 */

/** How many staff picks the view page's sidebar carries (spec §2 topPicks). */
export const TOP_PICKS_COUNT = 6;
/** How many staff picks the sidebar's handful is drawn from. */
const STAFF_PICK_POOL = 40;

export interface ViewRequest {
  viewer: Viewer;
  isMobile: boolean;
  features: FeatureFlags;
  nativeApp?: PresentationPageData["nativeApp"];
  /** R2.26: the header's store badges. */
  nativeApps?: HeaderAppData["nativeApps"];
}

/** A staff pick, ready to be shown: its card, and its oid so a page can leave itself out. */
interface StaffPick {
  oid: string;
  card: Card;
}

/**
 * What every public view page shows beside its presentation, read once per app and kept until a
 * write touches it (issue 11, item 3: "a cheap miss"). Made where the routes are registered.
 */
export interface ViewPageSources {
  /** How many presentations search covers (the header's placeholder). */
  searchableCount(): Promise<number>;
  /** The sidebar's video and template cards. */
  sidebar(): Promise<SidebarData>;
  /** The pool the view page draws its handful of staff picks from. */
  staffPicks(): Promise<readonly StaffPick[]>;
  /**
   * A presentation's row with its document, kept until it or its owner's names change; its counts
   * come from `facts`.
   */
  presentation(oid: string): Promise<PresentationRow | null>;
  /** Issue 12: more from a presentation's author and related ones, kept until a listed deck or a name changes. */
  moreDecks(row: PresentationRow): Promise<{ data: MoreDecksData; owners: string[] }>;
  /** What changes between requests (counts) and the viewer's right and like (kept-facts.ts). */
  facts(presentation: { id: string; oid: string }, userId: string | null): Promise<PresentationFacts | null>;
}

/** A kept row's document is the same object on every render: its transcript is derived once. */
const transcripts = new WeakMap<PresentationRow["document"], ReturnType<typeof deriveTranscript>>();
function transcriptOf(document: PresentationRow["document"]) {
  let transcript = transcripts.get(document);
  if (!transcript) {
    transcript = deriveTranscript(document);
    transcripts.set(document, transcript);
  }
  return transcript;
}

/** Presentations whose rows a process keeps for its view pages (the busiest ones stay). */
const KEPT_PRESENTATIONS = 256;

export function createViewPageSources(db: Queryable, changes: LiveChanges): ViewPageSources {
  return {
    facts: keptPresentationFacts(db, changes),
    searchableCount: cachedSearchableCount(db, changes),
    sidebar: cachedSidebar(db, changes),
    staffPicks: cachedUntilChange(changes, [SHOWCASE_TAG], async () =>
      (await listStaffPicks(db, STAFF_PICK_POOL)).map((pick) => ({ oid: pick.oid, card: presentationCard(pick) })),
    ),
    presentation: cachedByKey(
      changes,
      KEPT_PRESENTATIONS,
      (oid) => findPresentationByOid(db, oid),
      (oid, row) => (row ? [presentationTag(oid), userTag(row.ownerOid)] : [presentationTag(oid)]),
    ),
    moreDecks: (() => {
      const kept = cachedByKey<{ data: MoreDecksData; owners: string[] }>(
        changes,
        KEPT_PRESENTATIONS,
        async (oid) => {
          const row = await findPresentationByOid(db, oid);
          if (!row) return { data: { byAuthor: [], related: [] }, owners: [] };
          const [byAuthor, related] = await Promise.all([
            listListedPresentationsOf(db, row.ownerId, MORE_FROM_AUTHOR_COUNT + 1),
            listRelatedPresentations(db, { tags: row.tags, excludeOwnerId: row.ownerId, limit: RELATED_COUNT }),
          ]);
          return {
            data: {
              byAuthor: byAuthor
                .filter((p) => p.oid !== oid)
                .slice(0, MORE_FROM_AUTHOR_COUNT)
                .map(presentationCard),
              related: related.map(presentationCard),
            },
            owners: [row.ownerOid, ...related.map((p) => p.ownerOid)],
          };
        },
        // Any listed deck's change (a new one, a title, privacy, hiding) and the names on the cards.
        (oid, value) => [LISTS_TAG, presentationTag(oid), ...(value?.owners ?? []).map(userTag)],
      );
      return (row: PresentationRow) => kept(row.oid);
    })(),
  };
}

interface PageVariant {
  access: PresentationAccess;
  /** The public view page's header comes from these; the embed and private pages show none. */
  surroundings: ViewPageSources | null;
  embedMode: boolean;
  viewLink: { link_id: string; key_type: string } | null;
  /** Where this variant serves the document and the thumbnail from. */
  basePath: string;
  shouldAutoplay: boolean;
  /** Issue 28: the viewer may open the presenter view (edit right, or a view link made for presenting). */
  canPresent: boolean;
  /** Issue 33 item 4: the deck may be downloaded here (the deck's setting, or the view link's). */
  downloadAllowed: boolean;
}

/**
 * What the public view page shows around its presentation: the header. Its sidebar and staff picks
 * come after the page (issue 11: getSidebarRows).
 */
async function surroundingsOf(sources: ViewPageSources, row: PresentationRow, request: ViewRequest) {
  // Issue 28: the lists' sizes from the kept lists more.json serves (one query set, shared), so the
  // page holds their room before they come.
  const [count, more] = await Promise.all([sources.searchableCount(), sources.moreDecks(row)]);
  return {
    moreDecksCounts: { byAuthor: more.data.byAuthor.length, related: more.data.related.length },
    appData: headerAppData(
      count,
      request.viewer,
      { oid: row.oid, schemaVersion: row.schemaVersion },
      request.nativeApps ?? [],
    ),
  };
}

async function buildPageData(
  db: Queryable,
  row: PresentationRow,
  request: ViewRequest,
  variant: PageVariant,
  /** Whether the viewer liked it, when already read. */
  known: { liked?: boolean } = {},
): Promise<PresentationPageData> {
  const [surroundings, liked] = await Promise.all([
    variant.surroundings ? surroundingsOf(variant.surroundings, row, request) : null,
    known.liked ?? (request.viewer ? hasLiked(db, request.viewer.userId, row.id) : false),
  ]);
  const reusable = row.privacy === "reusable" || variant.access.manage;
  return {
    oid: row.oid,
    title: row.title,
    description: row.descriptionHtml,
    owner: ownerDataOf(row),
    lastModifiedDateString: row.lastModified.toISOString(),
    privacy: row.privacy,
    isAuthenticated: request.viewer !== null,
    isMobile: request.isMobile,
    isPublicView: variant.surroundings !== null,
    viewCount: row.viewCount,
    likesCount: row.likesCount,
    hasLikedPrezi: liked,
    viewLink: variant.viewLink,
    // Spec §2, §6: the copy action's address comes from page data, offered to a signed-in viewer of
    // a reusable deck; desktop only, decided by the viewport (issue 12: CSS below 768 px hides it).
    makeACopyRedirectUrl: `/p/${row.oid}/copy/`,
    showMakeACopyButton: request.viewer !== null && reusable,
    tags: row.tags.join(","),
    schemaVersion: row.schemaVersion,
    embedMode: variant.embedMode,
    viewerRights: { edit: variant.access.edit, comment: variant.access.comment },
    transcriptData: transcriptOf(row.document),
    // Spec §2, §3: page data carries the native app for signed-in viewers (their prompt and badges).
    nativeApp: request.viewer ? (request.nativeApp ?? null) : null,
    // Issue 11: the picks come with the sidebar's rows (getSidebarRows), not in the page.
    topPicks: [],
    evaluatedFeatures: request.features,
    shouldAutoplay: variant.shouldAutoplay,
    forceAutoplay: false,
    showWatermark: false,
    teaseContent: false,
    viewerEmail: request.viewer?.email ?? null,
    viewerName: request.viewer ? ownerDisplayName(request.viewer) : null,
    canonicalPath: canonicalPathOf(row),
    thumbnailUrl: `${variant.basePath}thumbnail.svg`,
    stepCount: row.document.path.length,
    // Issue 28: the stage takes the deck's page shape (portrait, square, 4:3, 16:9) from the first paint.
    ...pageShapeOf(row.document),
    documentUrl: `${variant.basePath}document.json`,
    previewUrl: `${variant.basePath}thumbnail.svg`,
    // R4.1: when the preview fails, the generated thumbnail drawn without its images (nothing to read but the document).
    fallbackPreviewUrl: `${variant.basePath}${FALLBACK_THUMBNAIL}`,
    appData: surroundings?.appData ?? null,
    moreDecksCounts: surroundings?.moreDecksCounts ?? null,
    canCurate: request.viewer?.isCurator === true && request.features["allow-content-curation"] === true,
    isOwner: variant.access.manage,
    canPresent: variant.canPresent && !variant.embedMode,
    downloads: variant.downloadAllowed && !variant.embedMode ? downloadOfferOf(variant.basePath, row) : null,
  };
}

/** The public view page's data (spec §3 "Page data for a presentation"), or null for a 404. */
export async function getPublicViewPage(
  db: Queryable,
  sources: ViewPageSources,
  request: ViewRequest & { oid: string },
): Promise<PresentationPageData | null> {
  const kept = await sources.presentation(request.oid);
  // What changes between requests, and the viewer's right and like, in one round trip.
  const facts = kept ? await sources.facts(kept, request.viewer?.userId ?? null) : null;
  if (!kept || !facts) return null;
  const row = { ...kept, viewCount: facts.viewCount, likesCount: facts.likesCount };
  const access = accessOf(
    { ownerId: row.ownerId, privacy: row.privacy, hidden: row.hidden, collaboratorRight: facts.collaboratorRight },
    request.viewer,
  );
  if (!access.view) return null;
  return buildPageData(
    db,
    row,
    request,
    {
      access,
      surroundings: sources,
      embedMode: false,
      viewLink: null,
      basePath: `/p/${row.oid}/`,
      shouldAutoplay: false,
      canPresent: access.edit,
      downloadAllowed: row.allowDownload,
    },
    { liked: facts.liked },
  );
}

/** The embed page's data: the same presentation, in embed mode. */
export async function getEmbedPage(
  db: Queryable,
  request: ViewRequest & { oid: string; query: Readonly<Record<string, string | undefined>> },
): Promise<PresentationPageData | null> {
  const row = await findPresentationByOid(db, request.oid);
  if (!row) return null;
  const access = await accessTo(db, row, request.viewer);
  if (!access.view) return null;
  const embedOptions = parseEmbedOptions(request.query, row.document.path.length);
  const data = await buildPageData(db, row, request, {
    access,
    surroundings: null,
    embedMode: true,
    viewLink: null,
    basePath: `/p/${row.oid}/`,
    shouldAutoplay: embedOptions.autoplay,
    canPresent: false,
    downloadAllowed: false,
  });
  return { ...data, embedOptions, embedHosts: row.embedHosts };
}

/**
 * Issue 34 item 5: what a `?step=N` link's preview names: the step (clamped to the deck's; null
 * for a value that isn't a step number) and its slide's title. Only for a deck the viewer may see.
 */
export async function getStepPreview(
  db: Queryable,
  request: { oid: string; viewer: Viewer; step: string | undefined },
): Promise<{ step: number; total: number; title: string } | null> {
  if (request.step === undefined || !/^\d{1,9}$/.test(request.step) || Number(request.step) < 1) return null;
  const row = await findPresentationByOid(db, request.oid);
  if (!row || !(await accessTo(db, row, request.viewer)).view) return null;
  const total = row.document.path.length;
  const step = clampStep(request.step, total);
  return { step, total, title: stepTitles(row.document)[step - 1] ?? "" };
}

/**
 * The private full-screen view page (spec §2) opened through a view link, or null for a 404.
 * Issue 33: a closed link (turned off, expired, or asking for its passcode) gives its state
 * alone, nothing of the deck; an open one counts a view of the link (not the owner's or an
 * editor's own), like public views: the same visitor once in 30 minutes, an address at most 40
 * times an hour (`visit`: the visit's keys, made by the route).
 */
export async function getPrivateViewPage(
  db: Database,
  request: ViewRequest & LinkRoute & { visit?: (linkId: string) => LinkVisit },
): Promise<{ state: "open"; data: PresentationPageData } | { state: Exclude<LinkState, "open"> } | null> {
  const found = await viewLinkGate(db, request, request.viewer);
  if (!found) return null;
  if (found.state !== "open") return { state: found.state };
  if (!found.access.edit && request.visit) {
    await countViewLinkVisit(db, found.link.linkId, request.visit(found.link.linkId), {
      windowMinutes: VIEW_WINDOW_MINUTES,
      perAddressHour: ADDRESS_VIEWS_PER_HOUR,
    });
  }
  const data = await buildPageData(db, found.row, request, {
    access: found.access,
    surroundings: null,
    embedMode: false,
    viewLink: { link_id: found.link.linkId, key_type: found.link.keyType },
    basePath: `/view/${found.link.linkId}/`,
    shouldAutoplay: false,
    canPresent: found.access.edit || found.link.forPresenting,
    downloadAllowed: found.link.allowDownload,
  });
  return { state: "open", data };
}

/** Issue 12: the reading mode's first guess of a slide's width (CSS px) per device class, before its script measures it. */
export const READING_FRAME_GUESS = { mobile: 343, desktop: 848 } as const;

function readingPageOf(row: PresentationRow, request: ViewRequest, playerPath: string): ReadingPageData {
  return {
    oid: row.oid,
    title: row.title,
    owner: ownerDataOf(row),
    lastModified: row.lastModified.toISOString(),
    playerPath,
    stepCount: row.document.path.length,
    theme: row.document.theme ?? null,
    frameWidth: request.isMobile ? READING_FRAME_GUESS.mobile : READING_FRAME_GUESS.desktop,
    document: row.document,
  };
}

/** Issue 12: the public reading mode, by the view page's rules (a deck it may not see is a 404). */
export async function getPublicReadingPage(
  db: Queryable,
  sources: ViewPageSources,
  request: ViewRequest & { oid: string },
): Promise<ReadingPageData | null> {
  const row = await sources.presentation(request.oid);
  if (!row || !(await accessTo(db, row, request.viewer)).view) return null;
  return readingPageOf(row, request, canonicalPathOf(row));
}

/** Issue 12: the reading mode through a view link, by the view link's rules. */
export async function getLinkReadingPage(
  db: Queryable,
  request: ViewRequest & LinkRoute,
): Promise<ReadingPageData | null> {
  const found = await presentationByLink(db, request, request.viewer);
  if (!found) return null;
  return readingPageOf(found.row, request, `/view/${found.link.linkId}/`);
}

/** Issue 12: the view page's "More from this author" and related lists, by the view page's rules (null for a 404). */
export async function getMoreDecks(
  db: Queryable,
  sources: ViewPageSources,
  request: { viewer: Viewer; oid: string },
): Promise<{ data: MoreDecksData; owners: string[] } | null> {
  const row = await sources.presentation(request.oid);
  if (!row || !(await accessTo(db, row, request.viewer)).view) return null;
  return sources.moreDecks(row);
}

/**
 * Issue 11: the view page's promotional rows (spec §2 sidebar: 10 videos, 15 templates, and a handful
 * of staff picks without this deck), by the view page's rules (null for a 404).
 */
export async function getSidebarRows(
  db: Queryable,
  sources: ViewPageSources,
  request: { viewer: Viewer; oid: string },
): Promise<SidebarRows | null> {
  const row = await sources.presentation(request.oid);
  if (!row || !(await accessTo(db, row, request.viewer)).view) return null;
  const [sidebar, picks] = await Promise.all([sources.sidebar(), sources.staffPicks()]);
  const otherPicks = picks.filter((pick) => pick.oid !== row.oid);
  return {
    sidebar,
    // A different handful of staff picks on each view (spec §5's random-subset helper), from the kept pool.
    topPicks: randomSubset(otherPicks, Math.min(TOP_PICKS_COUNT, otherPicks.length)).map((pick) => pick.card),
  };
}
