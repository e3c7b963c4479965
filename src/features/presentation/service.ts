import type { Queryable } from "../../db/client";
import type { Card } from "../../lib/card";
import type { FeatureFlags } from "../../lib/features";
import { isOid, slugify } from "../../lib/ids";
import { avatarColor, avatarInitials, ownerDisplayName } from "../../lib/owner";
import { deriveTranscript } from "./document/transcript";
import type { OwnerData, PresentationPageData } from "./page-data";
import {
  findLiveViewLink,
  findPresentationByOid,
  listStaffPicks,
  type OwnerRow,
  type PresentationRow,
  type PresentationSummary,
} from "./repository";
import { headlineOf, posterTopicOf, renderThumbnailSvg } from "./thumbnail";

/** How many staff picks the view page's sidebar carries (spec §2 topPicks). */
export const TOP_PICKS_COUNT = 6;

/** Who is looking. Accounts (issue 4) fill this in; until then every visitor is anonymous. */
export type Viewer = { userId: string; isAdmin: boolean } | null;

export function canonicalPathOf(p: { oid: string; title: string }): string {
  return `/p/${p.oid}/${slugify(p.title)}/`;
}

export function thumbnailPathOf(oid: string): string {
  return `/p/${oid}/thumbnail.svg`;
}

/** May this viewer open the presentation's public view page? Hidden and private ones are 404 to others. */
export function canViewPublicly(presentation: Pick<PresentationRow, "privacy" | "hidden">, viewer: Viewer): boolean {
  if (presentation.hidden) return viewer?.isAdmin === true;
  return presentation.privacy !== "private";
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
}

/** View links are long random ids (a capability: whoever holds one may watch). */
export const VIEW_LINK_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

/** §6 rights of a viewer on a presentation. Accounts (issue 4) add owners and collaborators. */
export function viewerRightsOf(_row: PresentationRow, viewer: Viewer): { edit: boolean; comment: boolean } {
  if (!viewer) return { edit: false, comment: false };
  return { edit: false, comment: false };
}

interface PageVariant {
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
  const picks = variant.isPublicView ? await listStaffPicks(db, TOP_PICKS_COUNT + 1) : [];
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
    hasLikedPrezi: false,
    viewLink: variant.viewLink,
    makeACopyRedirectUrl: null,
    showMakeACopyButton: false,
    tags: row.tags.join(","),
    schemaVersion: row.schemaVersion,
    embedMode: variant.embedMode,
    viewerRights: viewerRightsOf(row, request.viewer),
    transcriptData: deriveTranscript(row.document),
    nativeApp: null,
    topPicks: picks
      .filter((pick) => pick.oid !== row.oid)
      .slice(0, TOP_PICKS_COUNT)
      .map(presentationCard),
    evaluatedFeatures: request.features,
    shouldAutoplay: variant.shouldAutoplay,
    forceAutoplay: false,
    showWatermark: false,
    teaseContent: false,
    viewerEmail: null,
    viewerName: null,
    canonicalPath: canonicalPathOf(row),
    thumbnailUrl: `${variant.basePath}thumbnail.svg`,
    stepCount: row.document.path.length,
    documentUrl: `${variant.basePath}document.json`,
    previewUrl: `${variant.basePath}thumbnail.svg`,
    fallbackPreviewUrl: null,
  };
}

/** The public view page's data (spec §3 "Page data for a presentation"), or null for a 404. */
export async function getPublicViewPage(
  db: Queryable,
  request: ViewRequest & { oid: string },
): Promise<PresentationPageData | null> {
  const row = await findPresentationByOid(db, request.oid);
  if (!row || !canViewPublicly(row, request.viewer)) return null;
  return buildPageData(db, row, request, {
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
  if (!row || !canViewPublicly(row, request.viewer)) return null;
  return buildPageData(db, row, request, {
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
  if (!row || (row.hidden && viewer?.isAdmin !== true)) return null;
  return { link, row };
}

/** The private full-screen view page (spec §2) opened through a view link, or null for a 404. */
export async function getPrivateViewPage(
  db: Queryable,
  request: ViewRequest & { linkId: string },
): Promise<PresentationPageData | null> {
  const found = await presentationByLink(db, request.linkId, request.viewer);
  if (!found) return null;
  return buildPageData(db, found.row, request, {
    isPublicView: false,
    embedMode: false,
    viewLink: { link_id: found.link.linkId, key_type: found.link.keyType },
    basePath: `/view/${found.link.linkId}/`,
    shouldAutoplay: false,
  });
}

/** Who is asking for a document or thumbnail: the public route, or a view link. */
export type PresentationAccess = { oid: string } | { linkId: string };

async function accessibleRow(db: Queryable, access: PresentationAccess, viewer: Viewer) {
  if ("linkId" in access) return (await presentationByLink(db, access.linkId, viewer))?.row ?? null;
  if (!isOid(access.oid)) return null;
  const row = await findPresentationByOid(db, access.oid);
  return row && canViewPublicly(row, viewer) ? row : null;
}

/** The native document (JSON export), or null when the viewer may not see it. */
export async function getDocument(db: Queryable, access: PresentationAccess, viewer: Viewer) {
  const row = await accessibleRow(db, access, viewer);
  return row ? { document: row.document, privacy: row.privacy } : null;
}

/** The generated SVG thumbnail, or null when the viewer may not see it. */
export async function getThumbnailSvg(
  db: Queryable,
  access: PresentationAccess,
  viewer: Viewer,
): Promise<string | null> {
  const row = await accessibleRow(db, access, viewer);
  if (!row) return null;
  const headline = headlineOf(posterTopicOf(row.document), row.title);
  return renderThumbnailSvg({ key: row.oid, ...headline });
}
