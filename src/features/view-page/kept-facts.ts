import type { Queryable } from "../../db/client";
import { EVERYTHING_TAG, type LiveChanges, viewerFactsTag } from "../content-changes";
import { findPresentationFacts } from "../presentation/repository";

/**
 * Issue 32 item 5: a presentation's counts are read at most once in this long per process. They
 * lag anyway (the anonymous page's may be up to 9 s old: PAGE_CACHE_STALE_MS); one second keeps a
 * busy deck to one statement a second and its signed-in pages to none.
 */
export const COUNTS_KEPT_MS = 1_000;
/** Presentations, and viewers of a presentation, whose facts a process keeps at most (least recently used go first). */
export const KEPT_FACTS = 10_000;

export type PresentationFacts = NonNullable<Awaited<ReturnType<typeof findPresentationFacts>>>;
type ViewerFacts = Pick<PresentationFacts, "collaboratorRight" | "liked">;
type Counts = Pick<PresentationFacts, "likesCount" | "viewCount">;

const FACTS_PREFIX = viewerFactsTag("");
const NO_VIEWER: ViewerFacts = { collaboratorRight: null, liked: false };

/**
 * What a view page reads per request (findPresentationFacts: counts, the viewer's collaborator right
 * and like), kept in the process so a busy page runs no statement (issue 32 item 5):
 *  - the counts for COUNTS_KEPT_MS (they lag, as on every cached page), and until a like changes;
 *  - a signed-in viewer's right and like until the change feed says a like or a collaborator of
 *    that presentation changed (`viewer-facts:{oid}`, migration 0030) or `*` (a lost feed). A like
 *    tells this process at once (likes/routes.ts publishes the tag): the liker's next page shows it.
 * While the feed isn't live every request reads the database; a read that was on its way when a
 * change came is answered but not kept.
 */
export function keptPresentationFacts(
  db: Queryable,
  changes: LiveChanges,
  now: () => number = () => Date.now(),
): (presentation: { id: string; oid: string }, userId: string | null) => Promise<PresentationFacts | null> {
  // By presentation oid (what the feed's tags name).
  const counts = new Map<string, Counts & { readAt: number }>();
  const viewers = new Map<string, ViewerFacts>();
  /** The viewers' keys kept per presentation, so a change drops them without a scan. */
  const viewersOf = new Map<string, Set<string>>();
  let generation = 0;

  const dropPresentation = (oid: string) => {
    counts.delete(oid);
    for (const key of viewersOf.get(oid) ?? []) viewers.delete(key);
    viewersOf.delete(oid);
  };
  changes.subscribe((tags) => {
    for (const tag of tags) {
      if (tag === EVERYTHING_TAG) {
        generation += 1;
        counts.clear();
        viewers.clear();
        viewersOf.clear();
        return;
      }
      if (tag.startsWith(FACTS_PREFIX)) {
        generation += 1;
        dropPresentation(tag.slice(FACTS_PREFIX.length));
      }
    }
  });

  const keep = (oid: string, userId: string | null, facts: PresentationFacts, readAt: number) => {
    counts.delete(oid);
    counts.set(oid, { likesCount: facts.likesCount, viewCount: facts.viewCount, readAt });
    if (counts.size > KEPT_FACTS) {
      const oldest = counts.keys().next().value;
      if (oldest !== undefined) counts.delete(oldest);
    }
    if (userId === null) return;
    const key = `${oid} ${userId}`;
    viewers.delete(key);
    viewers.set(key, { collaboratorRight: facts.collaboratorRight, liked: facts.liked });
    let keys = viewersOf.get(oid);
    if (!keys) {
      keys = new Set();
      viewersOf.set(oid, keys);
    }
    keys.add(key);
    if (viewers.size > KEPT_FACTS) {
      const oldest = viewers.keys().next().value;
      if (oldest !== undefined) {
        viewers.delete(oldest);
        const of = oldest.slice(0, oldest.indexOf(" "));
        viewersOf.get(of)?.delete(oldest);
        if (viewersOf.get(of)?.size === 0) viewersOf.delete(of);
      }
    }
  };

  return async ({ id, oid }, userId) => {
    if (changes.live) {
      const kept = counts.get(oid);
      const key = userId === null ? null : `${oid} ${userId}`;
      const viewer = key === null ? NO_VIEWER : viewers.get(key);
      if (kept && viewer && now() - kept.readAt < COUNTS_KEPT_MS) {
        if (key !== null) {
          // Most recently used last.
          viewers.delete(key);
          viewers.set(key, viewer);
        }
        return { likesCount: kept.likesCount, viewCount: kept.viewCount, ...viewer };
      }
    }
    const startedAt = now();
    const at = generation;
    const facts = await findPresentationFacts(db, id, userId);
    if (facts && at === generation && changes.live) keep(oid, userId, facts, startedAt);
    return facts;
  };
}
