import type { Viewer } from "../viewer";
import type { Privacy } from "./repository";

/**
 * Who may do what with a presentation, decided in one place (product brief, "Privacy and
 * links", "Roles"). Every route and page asks here.
 *
 * - public, reusable: anyone may watch; listed and searchable. reusable: signed-in people may copy.
 * - unlisted: anyone with its URL may watch; never listed.
 * - private: the owner and collaborators only, or anyone holding a live view link.
 * - hidden by moderation: only the owner and admins, whatever the privacy.
 */
export interface PresentationAccess {
  view: boolean;
  edit: boolean;
  comment: boolean;
  /** Change privacy, links, collaborators; delete. */
  manage: boolean;
}

export type CollaboratorRight = "edit" | "comment";

export interface AccessFacts {
  ownerId: string;
  privacy: Privacy;
  hidden: boolean;
  /** The viewer's collaborator right on this presentation, if any. */
  collaboratorRight: CollaboratorRight | null;
}

export function accessOf(
  facts: AccessFacts,
  viewer: Viewer,
  options: { viaLiveLink?: boolean } = {},
): PresentationAccess {
  const isOwner = viewer !== null && viewer.userId === facts.ownerId;
  const right = viewer ? facts.collaboratorRight : null;
  const edit = isOwner || right === "edit";
  const comment = edit || right === "comment";
  const openToAll = facts.privacy !== "private" || options.viaLiveLink === true;
  let view = isOwner || right !== null || openToAll;
  if (facts.hidden) view = isOwner || viewer?.isAdmin === true;
  return { view, edit: edit && view, comment: comment && view, manage: isOwner };
}

/** Listed presentations appear in lists, search and the sitemap. */
export function isListed(facts: Pick<AccessFacts, "privacy" | "hidden">): boolean {
  return (facts.privacy === "public" || facts.privacy === "reusable") && !facts.hidden;
}
