import { accountTag, EVERYTHING_TAG, type LiveChanges, sessionTag } from "../content-changes";
import type { Viewer } from "../viewer";

/** Issue 32 item 5: sessions one process keeps at most (the least recently used go first). */
export const KEPT_SESSIONS = 10_000;
/** A kept session is read again after this long even if no change named it (a backstop, as SMALL_CACHE_TTL_MS). */
export const SESSION_KEPT_MS = 60_000;

const SESSION_PREFIX = sessionTag("");
const ACCOUNT_PREFIX = accountTag("");

interface KeptSession {
  viewer: NonNullable<Viewer>;
  /** When the session ends (sessions.expires_at), in ms. */
  expiresAt: number;
  keptAt: number;
}

/**
 * The sessions a process has looked up, by stored id (the hash of the cookie's token), so a
 * signed-in request costs no statement (issue 32 item 5). The change feed drops them on commit in
 * every process: a session that ended (`session:{id}`: sign-out, a password change, a deleted
 * account), a person whose row changed (`account:{oid}`: email, names, language, roles), and all
 * of them on `*` (a lost feed). While the feed isn't live nothing kept is used, and a lookup
 * that was on its way when a change came is answered but not kept. An expired session is never
 * taken from here (its end is kept with it).
 */
export class KeptSessions {
  readonly #entries = new Map<string, KeptSession>();
  readonly #byPerson = new Map<string, Set<string>>();
  #generation = 0;

  constructor(
    private readonly changes: LiveChanges,
    private readonly now: () => number = () => Date.now(),
    private readonly maxEntries = KEPT_SESSIONS,
  ) {
    changes.subscribe((tags) => this.#heard(tags));
  }

  /** Moves on every drop: a lookup started before it must not be kept. */
  get generation(): number {
    return this.#generation;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The viewer of a kept, live session, or null (look it up). */
  get(id: string): NonNullable<Viewer> | null {
    if (!this.changes.live) return null;
    const kept = this.#entries.get(id);
    if (!kept) return null;
    const at = this.now();
    if (at >= kept.expiresAt || at - kept.keptAt >= SESSION_KEPT_MS) {
      this.#delete(id);
      return null;
    }
    // Most recently used last.
    this.#entries.delete(id);
    this.#entries.set(id, kept);
    return kept.viewer;
  }

  /** Keeps what a lookup that started at `generation` found, unless a change came meanwhile. */
  keep(id: string, viewer: NonNullable<Viewer>, expiresAt: number, generation: number): void {
    if (generation !== this.#generation || !this.changes.live) return;
    this.#delete(id);
    this.#entries.set(id, { viewer, expiresAt, keptAt: this.now() });
    let ids = this.#byPerson.get(viewer.oid);
    if (!ids) {
      ids = new Set();
      this.#byPerson.set(viewer.oid, ids);
    }
    ids.add(id);
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.maxEntries) break;
      this.#delete(oldest);
    }
  }

  #delete(id: string): void {
    const kept = this.#entries.get(id);
    if (!kept) return;
    this.#entries.delete(id);
    const ids = this.#byPerson.get(kept.viewer.oid);
    ids?.delete(id);
    if (ids?.size === 0) this.#byPerson.delete(kept.viewer.oid);
  }

  #heard(tags: readonly string[]): void {
    for (const tag of tags) {
      if (tag === EVERYTHING_TAG) {
        this.#generation += 1;
        this.#entries.clear();
        this.#byPerson.clear();
        return;
      }
      if (tag.startsWith(SESSION_PREFIX)) {
        this.#generation += 1;
        this.#delete(tag.slice(SESSION_PREFIX.length));
      } else if (tag.startsWith(ACCOUNT_PREFIX)) {
        this.#generation += 1;
        for (const id of [...(this.#byPerson.get(tag.slice(ACCOUNT_PREFIX.length)) ?? [])]) this.#delete(id);
      }
    }
  }
}
