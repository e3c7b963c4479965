/**
 * What a write changed, named by tags (issue 11). Database triggers (migration 0010) send the tags
 * of every committed write with NOTIFY, so every process on the same database hears every write;
 * the page cache and the small in-process caches (header, sidebar, staff picks) drop what a tag
 * names. Counts (likes, views) send nothing: they may lag by the page cache's time to live.
 */

/** A presentation's own pages changed (anything but its counts; also its deletion). */
export const presentationTag = (oid: string) => `presentation:${oid}`;
/** A person's public fields (names) changed, or the account went. */
export const userTag = (oid: string) => `user:${oid}`;
/** A presentation that is or was listed (public or reusable, not hidden) changed: lists, search, profiles, sitemap. */
export const LISTS_TAG = "lists";
/** A staff pick or a template changed, or the number of listed presentations did: view pages' picks, sidebar, header. */
export const SHOWCASE_TAG = "showcase";
/** The video cards changed. */
export const VIDEOS_TAG = "videos";
/** Issue 32 item 5 (migration 0030): a session ended; `id` is the stored id (a hash of the cookie's token). */
export const sessionTag = (id: string) => `session:${id}`;
/** Anything of a person's own row changed (email, names, language, roles), or the account went. */
export const accountTag = (oid: string) => `account:${oid}`;
/** A like or a collaborator of a presentation changed. */
export const viewerFactsTag = (oid: string) => `viewer-facts:${oid}`;
/** Anything may have changed (the change feed was interrupted): drop everything. */
export const EVERYTHING_TAG = "*";

export interface ContentChanges {
  /** Calls listener with the tags of each change heard; returns the unsubscribe function. */
  subscribe(listener: (tags: readonly string[]) => void): () => void;
}

/** A change feed that also says whether it hears every write right now (the caches of people's own state use it only then). */
export interface LiveChanges extends ContentChanges {
  readonly live: boolean;
  /**
   * Tells this process's listeners at once, for a write that doesn't wait for the feed's barrier
   * (a like): its own next request sees it; the other processes hear the trigger's NOTIFY.
   */
  publish(tags: readonly string[]): void;
}

/** True when a change with these tags touches something tagged `tag`. */
export function touches(changed: readonly string[], tag: string): boolean {
  return changed.includes(tag) || changed.includes(EVERYTHING_TAG);
}
