import { EVERYTHING_TAG } from "../../features/content-changes";

/** One cached response: what the first anonymous visitor got, in every encoding, with its tags. */
export interface CachedPage {
  status: number;
  /** Response headers replayed as they were (no length, encoding or cookies). */
  headers: Readonly<Record<string, string>>;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
  /** Weak validator of the identity body (the same for every encoding). */
  etag: string;
  tags: readonly string[];
  storedAt: number;
  /** Every header of a 200 in each encoding, ready for Node's writeHead (the raw hit path). */
  wire: Readonly<Record<"br" | "gzip" | "identity", Record<string, string | number>>>;
  /** Called with the visitor's address each time a hit serves this page (PageCache.onServe). */
  onServe?: (address: string) => void;
  /** Hits since the body was first rendered (kept across refreshes that render the same bytes). */
  hits: number;
  /** `br` is the best brotli (quality 11), not the quick one. */
  best: boolean;
}

export interface PageStoreOptions {
  /** The most bytes held (bodies in all encodings, headers and key): least recently used go first. */
  maxBytes: number;
  /** Served as is for this long after it was stored. */
  freshMs: number;
  /** Then served while one refresh runs (stale-while-revalidate), until this age; after it, a miss. */
  staleMs: number;
  now?: () => number;
}

/** What a tagged store holds: anything with the tags it shows and the time it was stored. */
export interface Stored {
  readonly tags: readonly string[];
  readonly storedAt: number;
}

export type Lookup<V extends Stored = CachedPage> = { page: V; state: "fresh" | "stale" } | null;

/** A fixed allowance per entry for the Map slots, the object and the tag index. */
const ENTRY_OVERHEAD_BYTES = 512;
/** Past this many remembered tag invalidations the memory is reset (and renders in flight are refused). */
const MAX_REMEMBERED_TAGS = 10_000;

/**
 * The page cache's memory (issue 11): a least-recently-used map bounded by bytes, with a time to
 * live and a stale window, a tag index for invalidation, and a guard against storing a render that
 * started before an invalidation of one of its tags (it would bring the old page back). Holds
 * anonymous pages (PageStore) and signed-in page templates (personal.ts).
 */
export class TaggedStore<V extends Stored> {
  readonly #entries = new Map<string, { page: V; bytes: number }>();
  readonly #byTag = new Map<string, Set<string>>();
  /** Invalidation sequence: each invalidation moves it; a render remembers where it started. */
  #sequence = 0;
  /** Renders that started before this sequence may not be stored (everything was dropped since). */
  #floor = 0;
  readonly #invalidatedAt = new Map<string, number>();
  #bytes = 0;
  readonly #options: Required<PageStoreOptions>;
  readonly #sizeOf: (key: string, value: V) => number;

  constructor(options: PageStoreOptions, sizeOf: (key: string, value: V) => number) {
    this.#options = { now: () => Date.now(), ...options };
    this.#sizeOf = sizeOf;
  }

  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Where an invalidation-sensitive render starts: pass it to set(). */
  get sequence(): number {
    return this.#sequence;
  }

  /** Largest single entry accepted: one page may not push out more than an eighth of the cache. */
  get maxEntryBytes(): number {
    return Math.floor(this.#options.maxBytes / 8);
  }

  get(key: string): Lookup<V> {
    const entry = this.#entries.get(key);
    if (!entry) return null;
    const age = this.#options.now() - entry.page.storedAt;
    if (age >= this.#options.staleMs) {
      this.#delete(key);
      return null;
    }
    // Most recently used last.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return { page: entry.page, state: age < this.#options.freshMs ? "fresh" : "stale" };
  }

  /** The page held for a key, however old, without counting as a use (a refresh compares with it). */
  peek(key: string): V | null {
    return this.#entries.get(key)?.page ?? null;
  }

  /**
   * Stores a page rendered from a start at `startedAt` (this.sequence then). Refused (false) when
   * one of its tags was invalidated since, when it is too big, or when the cache holds nothing.
   */
  set(key: string, page: V, startedAt: number): boolean {
    if (startedAt < this.#floor) return false;
    for (const tag of page.tags) {
      if ((this.#invalidatedAt.get(tag) ?? -1) > startedAt) return false;
    }
    const bytes = ENTRY_OVERHEAD_BYTES + key.length * 2 + this.#sizeOf(key, page);
    if (bytes > this.maxEntryBytes) return false;
    this.#delete(key);
    this.#entries.set(key, { page, bytes });
    this.#bytes += bytes;
    for (const tag of page.tags) {
      let keys = this.#byTag.get(tag);
      if (!keys) {
        keys = new Set();
        this.#byTag.set(tag, keys);
      }
      keys.add(key);
    }
    for (const oldest of this.#entries.keys()) {
      if (this.#bytes <= this.#options.maxBytes) break;
      this.#delete(oldest);
    }
    return true;
  }

  /** Drops every page carrying one of the tags (`*` drops all); returns how many went. */
  invalidate(tags: readonly string[]): number {
    this.#sequence += 1;
    if (tags.includes(EVERYTHING_TAG) || this.#invalidatedAt.size + tags.length > MAX_REMEMBERED_TAGS) {
      const count = this.#entries.size;
      this.#entries.clear();
      this.#byTag.clear();
      this.#invalidatedAt.clear();
      this.#bytes = 0;
      this.#floor = this.#sequence;
      return count;
    }
    let count = 0;
    for (const tag of tags) {
      this.#invalidatedAt.set(tag, this.#sequence);
      const keys = this.#byTag.get(tag);
      if (!keys) continue;
      for (const key of [...keys]) {
        if (this.#delete(key)) count += 1;
      }
    }
    return count;
  }

  #delete(key: string): boolean {
    const entry = this.#entries.get(key);
    if (!entry) return false;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
    for (const tag of entry.page.tags) {
      const keys = this.#byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.#byTag.delete(tag);
    }
    return true;
  }
}

/** The anonymous page cache's store: whole responses in every encoding. */
export class PageStore extends TaggedStore<CachedPage> {
  constructor(options: PageStoreOptions) {
    super(options, pageBytes);
  }
}

function pageBytes(_key: string, page: CachedPage): number {
  let headers = 0;
  for (const [name, value] of Object.entries(page.headers)) headers += name.length + value.length;
  // The headers are held four times: as replayed, and ready for each encoding.
  return headers * 8 + page.identity.length + page.br.length + page.gzip.length;
}
