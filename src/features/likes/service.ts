import type { Database } from "../../db/client";
import { isOid } from "../../lib/ids";
import { findAccessFacts, findLiveViewLink } from "../presentation/repository";
import { accessTo, VIEW_LINK_PATTERN } from "../presentation/service";
import type { Viewer } from "../viewer";
import { addLike, removeLike } from "./repository";

/** The view-link key type of spec §7 (`key_type`). */
export const VIEW_LINK_KEY_TYPE = "view_link";

/** A like that can't be done, with the HTTP status that says why. */
export class LikeError extends Error {
  override readonly name = "LikeError";
  constructor(
    readonly statusCode: 400 | 401 | 403 | 404,
    message: string,
  ) {
    super(message);
  }
}

export type LikeTarget = { oid: string } | { viewLinkId: string; keyType: string };

const NOT_FOUND = "This presentation doesn't exist.";

/** Likes or unlikes; idempotent (a second like leaves one like). Returns the exact count. */
export async function setLiked(
  db: Database,
  viewer: Viewer,
  target: LikeTarget,
  liked: boolean,
): Promise<{ liked: boolean; likesCount: number }> {
  if (!viewer) throw new LikeError(401, "Sign in to like presentations.");
  // The hot path: a presentation open to everyone is checked and liked in one statement.
  if ("oid" in target && isOid(target.oid)) {
    const count = liked
      ? await addLike(db, viewer.userId, { openOid: target.oid })
      : await removeLike(db, viewer.userId, { openOid: target.oid });
    if (count !== null) return { liked, likesCount: count };
  }
  let oid: string;
  let viaLiveLink = false;
  if ("oid" in target) {
    if (!isOid(target.oid)) throw new LikeError(404, NOT_FOUND);
    oid = target.oid;
  } else {
    if (target.keyType !== VIEW_LINK_KEY_TYPE) throw new LikeError(400, `key_type must be "${VIEW_LINK_KEY_TYPE}".`);
    const link = VIEW_LINK_PATTERN.test(target.viewLinkId) ? await findLiveViewLink(db, target.viewLinkId) : null;
    if (!link) throw new LikeError(404, "This view link doesn't exist or was revoked.");
    oid = link.presentationOid;
    viaLiveLink = true;
  }
  const presentation = await findAccessFacts(db, oid);
  if (!presentation) throw new LikeError(404, NOT_FOUND);
  const access = await accessTo(db, presentation, viewer, { viaLiveLink, needRights: false });
  if (!access.view) throw new LikeError(403, "You don't have access to this presentation.");
  const changed = liked
    ? await addLike(db, viewer.userId, { presentationId: presentation.id })
    : await removeLike(db, viewer.userId, { presentationId: presentation.id });
  if (changed === null) throw new LikeError(404, NOT_FOUND);
  return { liked, likesCount: changed };
}
