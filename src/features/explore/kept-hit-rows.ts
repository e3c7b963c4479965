import type { Queryable } from "../../db/client";
import { type ContentChanges, EVERYTHING_TAG, presentationTag, userTag, VIDEOS_TAG } from "../content-changes";
import { PRESENTATION_SUMMARY_JSON } from "../presentation/repository";
import { SMALL_CACHE_TTL_MS } from "../small-caches";
import { type FoundHit, type HitText, hitTextOf, type SearchHitKind } from "./repository";

/**
 * Issue 32 item 3: the rows a page of search hits shows (title, the text its snippet is drawn from,
 * the card's summary), kept in each process once read, ready to be marked (hitTextOf). Reading a
 * page's two dozen rows by id was a third of a search's cost at 100,000 decks: 0.63 ms of
 * PostgreSQL's CPU and 0.35 ms of Node's (the round trip, up to 20,000 characters of text per row,
 * the summary's JSON), while the hits of the words people search for come back page after page.
 *
 * Kept as the other small caches are (small-caches.ts): a row is dropped as soon as the change feed
 * names what it shows — its presentation (`presentation:{oid}`: its text, title, privacy, hiding,
 * deletion), its owner's public names (`user:{oid}`), the video cards (`videos`) — and everything
 * when the feed was interrupted (`*`); its counts (likes, views) send nothing and may lag by
 * SMALL_CACHE_TTL_MS, as the home page's lists do. A read that was on its way when a change came
 * keeps nothing. At most KEPT_HIT_ROWS_MAX_CHARS characters of text are kept, the least recently
 * shown dropped first.
 */

/** Characters of titles and texts kept per process (about twice as many bytes at most). */
export const KEPT_HIT_ROWS_MAX_CHARS = 8_000_000;
/** What a kept row costs besides its texts (the summary's fields, the maps' entries), counted as characters. */
const ROW_OVERHEAD_CHARS = 600;

/** A hit as the page asks for it. */
export interface HitKey {
  kind: SearchHitKind;
  key: string;
}

interface Kept {
  text: HitText;
  chars: number;
  loadedAt: number;
  tags: readonly string[];
}

/**
 * A kept row's key: a presentation's or template's id as a number (hashed and compared as one: a
 * string made for each hit of each page cost a search its hash and a comparison of characters),
 * a video card's slug as `v:{slug}`.
 */
type RowKey = number | string;
const keyOf = (hit: HitKey): RowKey => {
  if (hit.kind === "video") return `v:${hit.key}`;
  const id = Number(hit.key);
  return Number.isSafeInteger(id) ? id : `p:${hit.key}`;
};

export interface KeptHitRowsOptions {
  maxChars?: number;
  ttlMs?: number;
  now?: () => number;
}

export class KeptHitRows {
  readonly #kept = new Map<RowKey, Kept>();
  /** The kept rows' keys by the tag that drops them. */
  readonly #keysByTag = new Map<string, Set<RowKey>>();
  #chars = 0;
  /** Moves on every change heard that could touch a row: a read started before it keeps nothing. */
  #generation = 0;
  readonly #unsubscribe: () => void;
  readonly #maxChars: number;
  readonly #ttlMs: number;
  readonly #now: () => number;
  /** Rows answered from memory and read from the database, since the start (benches, tests). */
  readonly counts = { kept: 0, read: 0 };

  constructor(
    private readonly db: Queryable,
    changes: ContentChanges,
    options: KeptHitRowsOptions = {},
  ) {
    this.#maxChars = options.maxChars ?? KEPT_HIT_ROWS_MAX_CHARS;
    this.#ttlMs = options.ttlMs ?? SMALL_CACHE_TTL_MS;
    this.#now = options.now ?? Date.now;
    this.#unsubscribe = changes.subscribe((tags) => this.#heard(tags));
  }

  /** How many rows are kept now. */
  get size(): number {
    return this.#kept.size;
  }

  /** The page's rows in the order asked; a row gone (deleted, no longer listed) is left out. */
  async read(page: readonly HitKey[]): Promise<HitText[]> {
    const now = this.#now();
    const texts: (HitText | undefined)[] = new Array(page.length);
    let missing: HitKey[] | null = null;
    for (let i = 0; i < page.length; i += 1) {
      const hit = page[i] as HitKey;
      const key = keyOf(hit);
      const kept = this.#kept.get(key);
      if (kept && now - kept.loadedAt < this.#ttlMs) {
        // The most recently shown last: the first to go are the longest unseen.
        this.#kept.delete(key);
        this.#kept.set(key, kept);
        texts[i] = kept.text;
      } else {
        missing ??= [];
        missing.push(hit);
      }
    }
    this.counts.kept += page.length - (missing?.length ?? 0);
    if (missing) {
      const generation = this.#generation;
      const rows = await readHitRows(this.db, missing);
      this.counts.read += rows.length;
      const read = new Map<RowKey, HitText>();
      for (const row of rows) {
        const text = hitTextOf(row);
        const key = keyOf(row);
        read.set(key, text);
        if (generation === this.#generation) this.#keep(key, text, now);
      }
      for (let i = 0; i < page.length; i += 1)
        if (texts[i] === undefined) texts[i] = read.get(keyOf(page[i] as HitKey));
    }
    return texts.filter((text) => text !== undefined);
  }

  close(): void {
    this.#unsubscribe();
    this.clear();
  }

  clear(): void {
    this.#generation += 1;
    this.#kept.clear();
    this.#keysByTag.clear();
    this.#chars = 0;
  }

  #keep(key: RowKey, text: HitText, loadedAt: number): void {
    this.#drop(key);
    const chars = text.title.length + text.snippetText.length + ROW_OVERHEAD_CHARS;
    if (chars > this.#maxChars) return;
    const tags =
      text.kind === "video" || !text.summary
        ? [VIDEOS_TAG]
        : [presentationTag(text.summary.oid), userTag(text.summary.ownerOid)];
    this.#kept.set(key, { text, chars, loadedAt, tags });
    this.#chars += chars;
    for (const tag of tags) {
      let keys = this.#keysByTag.get(tag);
      if (!keys) {
        keys = new Set();
        this.#keysByTag.set(tag, keys);
      }
      keys.add(key);
    }
    for (const oldest of this.#kept.keys()) {
      if (this.#chars <= this.#maxChars) break;
      this.#drop(oldest);
    }
  }

  #drop(key: RowKey): void {
    const kept = this.#kept.get(key);
    if (!kept) return;
    this.#kept.delete(key);
    this.#chars -= kept.chars;
    for (const tag of kept.tags) {
      const keys = this.#keysByTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.#keysByTag.delete(tag);
    }
  }

  #heard(tags: readonly string[]): void {
    if (tags.includes(EVERYTHING_TAG)) {
      this.clear();
      return;
    }
    for (const tag of tags) {
      if (tag !== VIDEOS_TAG && !tag.startsWith("presentation:") && !tag.startsWith("user:")) continue;
      this.#generation += 1;
      const keys = this.#keysByTag.get(tag);
      if (keys) for (const key of [...keys]) this.#drop(key);
    }
  }
}

/** The rows by key (what the cards show), in no particular order; a row gone since is left out. */
async function readHitRows(db: Queryable, page: readonly HitKey[]): Promise<FoundHit[]> {
  const ids = page.filter((hit) => hit.kind !== "video").map((hit) => hit.key);
  const slugs = page.filter((hit) => hit.kind === "video").map((hit) => hit.key);
  const [rows, videos] = await Promise.all([
    ids.length === 0
      ? Promise.resolve([])
      : db.query<{ key: string; title: string; snippetText: string; summary: FoundHit["summary"]; template: boolean }>(
          `select p.id::text as key, p.template_slug is not null as template, p.title, p.snippet_text as "snippetText",
                  ${PRESENTATION_SUMMARY_JSON} as summary
             from presentations p join users u on u.id = p.owner_id
            where p.id = any($1::bigint[]) and not p.hidden
              and (p.template_slug is not null or p.privacy in ('public', 'reusable'))`,
          [ids],
        ),
    slugs.length === 0
      ? Promise.resolve([])
      : db.query<{ key: string; title: string; snippetText: string }>(
          `select slug as key, title, sub_title as "snippetText" from video_cards where slug = any($1::text[])`,
          [slugs],
        ),
  ]);
  return [
    ...rows.map(({ template, ...row }): FoundHit => ({ ...row, kind: template ? "template" : "presentation" })),
    ...videos.map((row): FoundHit => ({ ...row, kind: "video", summary: null })),
  ];
}
