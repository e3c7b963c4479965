import { randomBytes } from "node:crypto";
import type { Database } from "../../db/client";
import { type ContentChanges, EVERYTHING_TAG } from "../../features/content-changes";

/** Migration 0010's triggers NOTIFY here with the tags of each committed write. */
export const CHANGES_CHANNEL = "podium_changes";
/** A barrier's own notification: never a change. */
const SYNC_PREFIX = "sync:";
/** A barrier that doesn't come back within this long counts as a lost feed: everything is dropped. */
const SYNC_TIMEOUT_MS = 1_000;

/**
 * The change feed (issue 11): the tags of every committed write on the database, heard through
 * LISTEN/NOTIFY from every process, fanned out to the page cache and the small caches.
 */
export class ChangeFeed implements ContentChanges {
  readonly #listeners = new Set<(tags: readonly string[]) => void>();
  readonly #barriers = new Map<string, () => void>();
  #db: Database | null = null;
  #live = false;
  #stop: (() => Promise<void>) | null = null;

  /**
   * True while the feed hears every write. Before start(), and while a lost connection comes back,
   * caches that depend on it must not serve what they hold.
   */
  get live(): boolean {
    return this.#live;
  }

  subscribe(listener: (tags: readonly string[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Tells every listener; one listener's failure doesn't stop the others. */
  publish(tags: readonly string[]): void {
    for (const listener of this.#listeners) {
      try {
        listener(tags);
      } catch {
        // A cache that can't drop an entry must not break the others.
      }
    }
  }

  /** Starts hearing the database's changes. */
  async start(db: Database): Promise<void> {
    this.#db = db;
    this.#stop = await db.listen(
      CHANGES_CHANNEL,
      (payload) => this.#heard(payload),
      (state) => {
        // Writes made while the feed was down were missed: everything may have changed.
        this.publish([EVERYTHING_TAG]);
        this.#live = state === "up";
      },
    );
  }

  async stop(): Promise<void> {
    this.#live = false;
    const stop = this.#stop;
    this.#stop = null;
    for (const release of this.#barriers.values()) release();
    await stop?.();
  }

  /**
   * Resolves once this process has heard every change committed before the call: a request that
   * wrote answers after this, so the next request in this process never meets the old page.
   * PGlite delivers a notification before the statement that sent it returns; PostgreSQL delivers
   * notifications in commit order, so hearing our own barrier means hearing everything before it.
   */
  async sync(): Promise<void> {
    const db = this.#db;
    if (!db || db.kind === "pglite" || !this.#live) return;
    const id = randomBytes(9).toString("base64url");
    let timer: NodeJS.Timeout | undefined;
    const heard = new Promise<void>((resolve) => {
      this.#barriers.set(id, resolve);
      timer = setTimeout(() => {
        this.publish([EVERYTHING_TAG]);
        resolve();
      }, SYNC_TIMEOUT_MS);
    });
    try {
      await db.query("select pg_notify($1, $2)", [CHANGES_CHANNEL, `${SYNC_PREFIX}${id}`]);
      await heard;
    } catch {
      this.publish([EVERYTHING_TAG]);
    } finally {
      clearTimeout(timer);
      this.#barriers.delete(id);
    }
  }

  #heard(payload: string): void {
    if (payload.startsWith(SYNC_PREFIX)) {
      this.#barriers.get(payload.slice(SYNC_PREFIX.length))?.();
      return;
    }
    const tags = payload.split(" ").filter(Boolean);
    if (tags.length > 0) this.publish(tags);
  }
}
