import type { PresentationPageData } from "../../presentation/page-data";

export type Rights = Pick<PresentationPageData, "oid" | "title" | "schemaVersion" | "viewerRights" | "isOwner">;

/**
 * Issue 12, "the owner's way around": what the view page offers the people who work on the deck
 * (product brief, Roles). The owner gets Edit, Share settings and Analytics instead of Report and
 * Like; a collaborator who may edit gets Edit, one who may comment gets Comment (spec §6's rule for
 * the private header, here on the public page for both schema versions). Nobody else gets any.
 */
export function workActionOf(rights: Pick<Rights, "viewerRights">): "edit" | "comment" | null {
  if (rights.viewerRights.edit) return "edit";
  if (rights.viewerRights.comment) return "comment";
  return null;
}
