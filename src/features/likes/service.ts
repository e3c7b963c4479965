import type { Database } from "../../db/client";
import { type BatchOptions, createBatcher } from "../../lib/batch";
import { isOid } from "../../lib/ids";
import { findAccessFacts } from "../presentation/repository";
import { accessTo, presentationByLink } from "../presentation/service";
import type { Viewer } from "../viewer";
import { applyLikeChanges, type LikeChange } from "./repository";

/** The view-link key type of spec §7 (`key_type`). */
export const VIEW_LINK_KEY_TYPE = "view_link";

/** A like that can't be done, with the HTTP status that says why. */
export class LikeError extends Error {
  override readonly name = "LikeError";
  constructor(
    readonly statusCode: 400 | 401 | 404,
    message: string,
  ) {
    super(message);
  }
}

/** Issue 33: `grant` is the browser's passcode grant for the link (presentation/link-gate.ts), if any. */
export type LikeTarget = { oid: string } | { viewLinkId: string; keyType: string; grant?: string | undefined };

const NOT_FOUND = "This presentation doesn't exist.";

/**
 * Like changes that arrive together are written together, one statement and one commit per
 * batch (lib/batch.ts): a lone like still goes at once; under load, one round trip serves many.
 */
export const LIKE_BATCH: BatchOptions = { maxBatch: 200, maxInFlight: 2 };

export interface LikeService {
  /** Likes or unlikes; idempotent (a second like leaves one like). Returns the exact count. */
  /** The presentation's oid comes back too (its view pages' kept facts are dropped by it). */
  setLiked(
    viewer: Viewer,
    target: LikeTarget,
    liked: boolean,
  ): Promise<{ liked: boolean; likesCount: number; oid: string }>;
}

export function createLikeService(db: Database, batch: BatchOptions = LIKE_BATCH): LikeService {
  const apply = createBatcher((changes: LikeChange[]) => applyLikeChanges(db, changes), batch);
  return { setLiked: (viewer, target, liked) => setLiked(db, apply, viewer, target, liked) };
}

async function setLiked(
  db: Database,
  apply: (change: LikeChange) => Promise<number | null>,
  viewer: Viewer,
  target: LikeTarget,
  liked: boolean,
): Promise<{ liked: boolean; likesCount: number; oid: string }> {
  if (!viewer) throw new LikeError(401, "Sign in to like presentations.");
  // The hot path: a presentation open to everyone is checked and liked in one statement.
  if ("oid" in target && isOid(target.oid)) {
    const count = await apply({ userId: viewer.userId, target: { openOid: target.oid }, liked });
    if (count !== null) return { liked, likesCount: count, oid: target.oid };
  }
  let oid: string;
  let viaLiveLink = false;
  if ("oid" in target) {
    if (!isOid(target.oid)) throw new LikeError(404, NOT_FOUND);
    oid = target.oid;
  } else {
    if (target.keyType !== VIEW_LINK_KEY_TYPE) throw new LikeError(400, `key_type must be "${VIEW_LINK_KEY_TYPE}".`);
    // Issue 33: a link turned off, expired or behind a passcode not given is one that doesn't exist.
    const found = await presentationByLink(db, { linkId: target.viewLinkId, grant: target.grant }, viewer);
    if (!found) throw new LikeError(404, "This view link doesn't exist or was revoked.");
    oid = found.link.presentationOid;
    viaLiveLink = true;
  }
  const presentation = await findAccessFacts(db, oid);
  if (!presentation) throw new LikeError(404, NOT_FOUND);
  const access = await accessTo(db, presentation, viewer, { viaLiveLink, needRights: false });
  // Without the right to view, a private presentation is one that doesn't exist (no 403 that
  // would tell a stranger it does).
  if (!access.view) throw new LikeError(404, NOT_FOUND);
  const changed = await apply({ userId: viewer.userId, target: { presentationId: presentation.id }, liked });
  if (changed === null) throw new LikeError(404, NOT_FOUND);
  return { liked, likesCount: changed, oid };
}
