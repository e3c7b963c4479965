import type { Queryable } from "../../db/client";
import { audienceDocument } from "../../document/notes";
import { posterTopicOf } from "../../document/page-shape";
import type { Card } from "../../lib/card";
import { isOid, slugify } from "../../lib/ids";
import { avatarColor, avatarInitials, ownerDisplayName } from "../../lib/owner";
import type { Viewer } from "../viewer";
import { type LinkState, linkStateOf } from "./link-gate";
import type { OwnerData } from "./page-data";
import { accessOf, type PresentationAccess } from "./policy";
import {
  findCollaboratorRight,
  findPresentationByOid,
  findViewLink,
  type OwnerRow,
  type PresentationRow,
  type PresentationSummary,
  type RowOptions,
  type ViewLinkRow,
} from "./repository";
import { stepTopic } from "./step-titles";
import { renderThumbnailSvg } from "./thumbnail";
import { thumbnailImages } from "./thumbnail-images";

export function canonicalPathOf(p: { oid: string; title: string }): string {
  return `/p/${p.oid}/${slugOf(p.title)}/`;
}

/** Titles whose slug is kept: a view page needs its own on every request (issue 32 item 5). */
const SLUGS_KEPT = 10_000;
const slugs = new Map<string, string>();
function slugOf(title: string): string {
  let slug = slugs.get(title);
  if (slug === undefined) {
    slug = slugify(title);
    if (slugs.size >= SLUGS_KEPT) slugs.clear();
    slugs.set(title, slug);
  }
  return slug;
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

/** Issue 12: a presentation's card in a list, with its views, likes and date. */
export function presentationListCard(p: PresentationSummary): Card {
  return {
    ...presentationCard(p),
    stats: { views: p.viewCount, likes: p.likesCount, lastModified: p.lastModified.toISOString() },
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

/** View links are long random ids (a capability: whoever holds one may watch). */
export const VIEW_LINK_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * Issue 33: a view link's gate. Null for an unknown link (or one whose deck is gone or hidden);
 * else its state for this browser (link-gate.ts), with the deck only when the link is open.
 */
export async function viewLinkGate(
  db: Queryable,
  route: LinkRoute,
  viewer: Viewer,
  options: RowOptions = {},
): Promise<
  | { state: "open"; link: ViewLinkRow; row: PresentationRow; access: PresentationAccess }
  | { state: Exclude<LinkState, "open">; link: ViewLinkRow }
  | null
> {
  if (!VIEW_LINK_PATTERN.test(route.linkId)) return null;
  const link = await findViewLink(db, route.linkId);
  if (!link) return null;
  const state = linkStateOf(link, route.grant);
  if (state !== "open") return { state, link };
  const row = await findPresentationByOid(db, link.presentationOid, options);
  if (!row) return null;
  const access = await accessTo(db, row, viewer, { viaLiveLink: true });
  return access.view ? { state, link, row, access } : null;
}

/** Resolves an open view link to its presentation, or null (unknown, closed, or hidden). */
export async function presentationByLink(db: Queryable, route: LinkRoute, viewer: Viewer, options: RowOptions = {}) {
  const gate = await viewLinkGate(db, route, viewer, options);
  return gate?.state === "open" ? gate : null;
}

/** Issue 33: a route through a view link: its id and the browser's passcode grant, if any. */
export interface LinkRoute {
  linkId: string;
  grant?: string | undefined;
}

/** How a document or thumbnail is asked for: by the public route, or through a view link. */
export type PresentationRoute = { oid: string } | LinkRoute;

/** The presentation behind a route when this viewer may see it (the view page's rules), or null. */
export async function accessibleRow(db: Queryable, access: PresentationRoute, viewer: Viewer) {
  if ("linkId" in access) return (await presentationByLink(db, access, viewer))?.row ?? null;
  if (!isOid(access.oid)) return null;
  const row = await findPresentationByOid(db, access.oid);
  return row && (await accessTo(db, row, viewer)).view ? row : null;
}

/**
 * Issue 28: the presentation behind a route with its speaker notes, when this viewer may see it,
 * and whether they may present it: the edit right (owner, editor), or a view link made for
 * presenting. Null when they may not see it at all.
 */
export async function presenterAccess(
  db: Queryable,
  route: PresentationRoute,
  viewer: Viewer,
): Promise<{ row: PresentationRow; mayPresent: boolean } | null> {
  if ("linkId" in route) {
    const found = await presentationByLink(db, route, viewer, { withPrivateNotes: true });
    return found ? { row: found.row, mayPresent: found.access.edit || found.link.forPresenting } : null;
  }
  if (!isOid(route.oid)) return null;
  const row = await findPresentationByOid(db, route.oid, { withPrivateNotes: true });
  if (!row) return null;
  const access = await accessTo(db, row, viewer);
  return access.view ? { row, mayPresent: access.edit } : null;
}

/**
 * The native document (the player's source, JSON export), or null when the viewer may not see it.
 * Issue 28: its speaker notes go only to those who may present it, or to everyone once published.
 */
export async function getDocument(db: Queryable, access: PresentationRoute, viewer: Viewer) {
  const found = await presenterAccess(db, access, viewer);
  if (!found) return null;
  const { row, mayPresent } = found;
  return {
    document: mayPresent ? row.document : audienceDocument(row.document, row.notesPublic),
    privacy: row.privacy,
    /** The answer carries notes the public doesn't see: it is this person's alone. */
    personal: mayPresent && !row.notesPublic,
  };
}

/** Issue 34 item 5: a step's own thumbnail (its link preview's og:image), 1-based. */
export function stepThumbnailPathOf(oid: string, step: number): string {
  return `/p/${oid}/steps/${step}/thumbnail.svg`;
}

/**
 * The generated SVG thumbnail, or null when the viewer may not see it (or, for a step's, when
 * the deck has no such step). Issue 34: a step's is drawn by the same renderer from its slide.
 */
export async function getThumbnailSvg(
  db: Queryable,
  access: PresentationRoute,
  viewer: Viewer,
  /** R4.1: the fallback preview is drawn without the slide's images. */
  options: { images: boolean; step?: number } = { images: true },
): Promise<string | null> {
  const row = await accessibleRow(db, access, viewer);
  if (!row) return null;
  let topic = posterTopicOf(row.document);
  if (options.step !== undefined) {
    const stepTopicFound = stepTopic(row.document, options.step);
    if (!stepTopicFound) return null;
    // A step with nothing on it (an overview frame) shows the deck's poster rather than nothing.
    if (stepTopicFound.texts.length > 0 || stepTopicFound.images.length > 0) topic = stepTopicFound;
  }
  return renderThumbnailSvg({
    title: row.title,
    theme: row.document.theme,
    topic,
    images: options.images ? await thumbnailImages(db, topic) : new Map(),
  });
}
