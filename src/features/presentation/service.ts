import type { Queryable } from "../../db/client";
import type { Card } from "../../lib/card";
import type { FeatureFlags } from "../../lib/features";
import { slugify } from "../../lib/ids";
import { avatarColor, avatarInitials, ownerDisplayName } from "../../lib/owner";
import { deriveTranscript } from "./document/transcript";
import type { OwnerData, PresentationPageData } from "./page-data";
import {
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
  oid: string;
  viewer: Viewer;
  isMobile: boolean;
  features: FeatureFlags;
}

/** The public view page's data (spec §3 "Page data for a presentation"), or null for a 404. */
export async function getPublicViewPage(db: Queryable, request: ViewRequest): Promise<PresentationPageData | null> {
  const row = await findPresentationByOid(db, request.oid);
  if (!row || !canViewPublicly(row, request.viewer)) return null;
  const picks = await listStaffPicks(db, TOP_PICKS_COUNT + 1);
  return {
    oid: row.oid,
    title: row.title,
    description: row.descriptionHtml,
    owner: ownerDataOf(row),
    lastModifiedDateString: row.lastModified.toISOString(),
    privacy: row.privacy,
    isAuthenticated: request.viewer !== null,
    isMobile: request.isMobile,
    isPublicView: true,
    viewCount: row.viewCount,
    likesCount: row.likesCount,
    hasLikedPrezi: false,
    viewLink: null,
    makeACopyRedirectUrl: null,
    showMakeACopyButton: false,
    tags: row.tags.join(","),
    schemaVersion: row.schemaVersion,
    embedMode: false,
    viewerRights: { edit: false, comment: false },
    transcriptData: deriveTranscript(row.document),
    nativeApp: null,
    topPicks: picks
      .filter((pick) => pick.oid !== row.oid)
      .slice(0, TOP_PICKS_COUNT)
      .map(presentationCard),
    evaluatedFeatures: request.features,
    shouldAutoplay: false,
    forceAutoplay: false,
    showWatermark: false,
    teaseContent: false,
    viewerEmail: null,
    viewerName: null,
    canonicalPath: canonicalPathOf(row),
    thumbnailUrl: thumbnailPathOf(row.oid),
    stepCount: row.document.path.length,
    posterTopic: posterTopicOf(row.document),
  };
}

/** The generated SVG thumbnail of a publicly viewable presentation, or null. */
export async function getThumbnailSvg(db: Queryable, oid: string, viewer: Viewer): Promise<string | null> {
  const row = await findPresentationByOid(db, oid);
  if (!row || !canViewPublicly(row, viewer)) return null;
  const headline = headlineOf(posterTopicOf(row.document), row.title);
  return renderThumbnailSvg({ key: row.oid, ...headline });
}
