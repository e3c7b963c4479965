import type { Queryable } from "../../db/client";
import type { Card } from "../../lib/card";
import type { FeatureFlags } from "../../lib/features";
import { isOid, slugify } from "../../lib/ids";
import { avatarColor, avatarInitials, ownerDisplayName } from "../../lib/owner";
import { randomSubset } from "../../lib/random-subset";
import { headerAppData } from "../explore/service";
import { getSidebar } from "../sidebar/service";
import type { Viewer } from "../viewer";
import { deriveTranscript } from "./document/transcript";
import type { OwnerData, PresentationPageData } from "./page-data";
import { accessOf, type PresentationAccess } from "./policy";
import {
  findCollaboratorRight,
  findLiveViewLink,
  findPresentationByOid,
  hasLiked,
  listStaffPicks,
  type OwnerRow,
  type PresentationRow,
  type PresentationSummary,
} from "./repository";
import { posterTopicOf, renderThumbnailSvg } from "./thumbnail";
import { thumbnailImages } from "./thumbnail-images";

/** How many staff picks the view page's sidebar carries (spec §2 topPicks). */
export const TOP_PICKS_COUNT = 6;
/** How many staff picks the sidebar's handful is drawn from. */
const STAFF_PICK_POOL = 40;

export function canonicalPathOf(p: { oid: string; title: string }): string {
  return `/p/${p.oid}/${slugify(p.title)}/`;
}

export function thumbnailPathOf(oid: string): string {
  return `/p/${oid}/thumbnail.svg`;
}

/** What this viewer may do with this presentation (the policy decides; this gathers its facts). */
export async function accessTo(
  db: Queryable,
  row: Pick<PresentationRow, "id" | "ownerId" | "privacy" | "hidden">,
  viewer: Viewer,
  options: { viaLiveLink?: boolean; needRights?: boolean } = {},
): Promise<PresentationAccess> {
  // A collaborator right adds nothing but edit/comment unless the presentation is private or
  // hidden; the lookup is skipped where only seeing is asked.
  const needsRight = viewer !== null && (options.needRights !== false || row.privacy === "private" || row.hidden);
  const collaboratorRight = needsRight && viewer ? await findCollaboratorRight(db, row.id, viewer.userId) : null;
  return accessOf(
    { ownerId: row.ownerId, privacy: row.privacy, hidden: row.hidden, collaboratorRight },
    viewer,
    options,
  );
}

export function ownerDataOf(row: OwnerRow): OwnerData {
  return {
    oid: row.ownerOid,
    username: row.ownerUsername,
    firstName: row.ownerFirstName,
    lastName: row.ownerLastName,
    publicDisplayName: row.ownerPublicDisplayName,
    email: null,
    avatarColor: avatarColor({ email: row.ownerEmail, username: row.ownerUsername }),
    avatarInitials: avatarInitials({
      firstName: row.ownerFirstName,
      lastName: row.ownerLastName,
      email: row.ownerEmail,
    }),
  };
}

export function presentationCard(p: PresentationSummary): Card {
  return {
    title: p.title,
    subTitle: ownerDisplayName({
      firstName: p.ownerFirstName,
      lastName: p.ownerLastName,
      publicDisplayName: p.ownerPublicDisplayName,
    }),
    path: canonicalPathOf(p),
    thumbnail: thumbnailPathOf(p.oid),
    type: "PRESENTATION",
    previewAnimation: null,
    titleLines: 2,
    subTitleLines: 1,
  };
}

export interface ViewRequest {
  viewer: Viewer;
  isMobile: boolean;
  features: FeatureFlags;
  nativeApp?: PresentationPageData["nativeApp"];
}

/** View links are long random ids (a capability: whoever holds one may watch). */
export const VIEW_LINK_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

interface PageVariant {
  access: PresentationAccess;
  isPublicView: boolean;
  embedMode: boolean;
  viewLink: { link_id: string; key_type: string } | null;
  /** Where this variant serves the document and the thumbnail from. */
  basePath: string;
  shouldAutoplay: boolean;
}

async function buildPageData(
  db: Queryable,
  row: PresentationRow,
  request: ViewRequest,
  variant: PageVariant,
): Promise<PresentationPageData> {
  const picks = variant.isPublicView ? await listStaffPicks(db, STAFF_PICK_POOL) : [];
  const otherPicks = picks.filter((pick) => pick.oid !== row.oid);
  const [appData, sidebar] = variant.isPublicView
    ? await Promise.all([
        headerAppData(
          db,
          request.viewer,
          { oid: row.oid, schemaVersion: row.schemaVersion },
          request.nativeApp ?? null,
        ),
        getSidebar(db),
      ])
    : [null, null];
  const reusable = row.privacy === "reusable" || variant.access.manage;
  const liked = request.viewer ? await hasLiked(db, request.viewer.userId, row.id) : false;
  return {
    oid: row.oid,
    title: row.title,
    description: row.descriptionHtml,
    owner: ownerDataOf(row),
    lastModifiedDateString: row.lastModified.toISOString(),
    privacy: row.privacy,
    isAuthenticated: request.viewer !== null,
    isMobile: request.isMobile,
    isPublicView: variant.isPublicView,
    viewCount: row.viewCount,
    likesCount: row.likesCount,
    hasLikedPrezi: liked,
    viewLink: variant.viewLink,
    // Spec §2, §6: the copy action's address comes from page data; desktop only, when offered.
    makeACopyRedirectUrl: `/p/${row.oid}/copy/`,
    showMakeACopyButton: request.viewer !== null && reusable && !request.isMobile,
    tags: row.tags.join(","),
    schemaVersion: row.schemaVersion,
    embedMode: variant.embedMode,
    viewerRights: { edit: variant.access.edit, comment: variant.access.comment },
    transcriptData: deriveTranscript(row.document),
    nativeApp: null,
    // A different handful of staff picks on each view (spec §5's random-subset helper).
    topPicks: randomSubset(otherPicks, Math.min(TOP_PICKS_COUNT, otherPicks.length)).map(presentationCard),
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
    documentUrl: `${variant.basePath}document.json`,
    previewUrl: `${variant.basePath}thumbnail.svg`,
    fallbackPreviewUrl: null,
    appData,
    sidebar,
    canCurate: request.viewer?.isCurator === true && request.features["allow-content-curation"] === true,
  };
}

/** The public view page's data (spec §3 "Page data for a presentation"), or null for a 404. */
export async function getPublicViewPage(
  db: Queryable,
  request: ViewRequest & { oid: string },
): Promise<PresentationPageData | null> {
  const row = await findPresentationByOid(db, request.oid);
  if (!row) return null;
  const access = await accessTo(db, row, request.viewer);
  if (!access.view) return null;
  return buildPageData(db, row, request, {
    access,
    isPublicView: true,
    embedMode: false,
    viewLink: null,
    basePath: `/p/${row.oid}/`,
    shouldAutoplay: false,
  });
}

/** The embed page's data: the same presentation, in embed mode. */
export async function getEmbedPage(
  db: Queryable,
  request: ViewRequest & { oid: string; autoplay: boolean },
): Promise<PresentationPageData | null> {
  const row = await findPresentationByOid(db, request.oid);
  if (!row) return null;
  const access = await accessTo(db, row, request.viewer);
  if (!access.view) return null;
  return buildPageData(db, row, request, {
    access,
    isPublicView: false,
    embedMode: true,
    viewLink: null,
    basePath: `/p/${row.oid}/`,
    shouldAutoplay: request.autoplay,
  });
}

/** Resolves a live view link to its presentation, or null (unknown, revoked, or hidden). */
async function presentationByLink(db: Queryable, linkId: string, viewer: Viewer) {
  if (!VIEW_LINK_PATTERN.test(linkId)) return null;
  const link = await findLiveViewLink(db, linkId);
  if (!link) return null;
  const row = await findPresentationByOid(db, link.presentationOid);
  if (!row) return null;
  const access = await accessTo(db, row, viewer, { viaLiveLink: true });
  return access.view ? { link, row, access } : null;
}

/** The private full-screen view page (spec §2) opened through a view link, or null for a 404. */
export async function getPrivateViewPage(
  db: Queryable,
  request: ViewRequest & { linkId: string },
): Promise<PresentationPageData | null> {
  const found = await presentationByLink(db, request.linkId, request.viewer);
  if (!found) return null;
  return buildPageData(db, found.row, request, {
    access: found.access,
    isPublicView: false,
    embedMode: false,
    viewLink: { link_id: found.link.linkId, key_type: found.link.keyType },
    basePath: `/view/${found.link.linkId}/`,
    shouldAutoplay: false,
  });
}

/** How a document or thumbnail is asked for: by the public route, or through a view link. */
export type PresentationRoute = { oid: string } | { linkId: string };

/** The presentation behind a route when this viewer may see it (the view page's rules), or null. */
export async function accessibleRow(db: Queryable, access: PresentationRoute, viewer: Viewer) {
  if ("linkId" in access) return (await presentationByLink(db, access.linkId, viewer))?.row ?? null;
  if (!isOid(access.oid)) return null;
  const row = await findPresentationByOid(db, access.oid);
  return row && (await accessTo(db, row, viewer)).view ? row : null;
}

/** The native document (JSON export), or null when the viewer may not see it. */
export async function getDocument(db: Queryable, access: PresentationRoute, viewer: Viewer) {
  const row = await accessibleRow(db, access, viewer);
  return row ? { document: row.document, privacy: row.privacy } : null;
}

/** The generated SVG thumbnail, or null when the viewer may not see it. */
export async function getThumbnailSvg(
  db: Queryable,
  access: PresentationRoute,
  viewer: Viewer,
): Promise<string | null> {
  const row = await accessibleRow(db, access, viewer);
  if (!row) return null;
  const topic = posterTopicOf(row.document);
  return renderThumbnailSvg({
    title: row.title,
    theme: row.document.theme,
    topic,
    images: await thumbnailImages(db, topic),
  });
}
