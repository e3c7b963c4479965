import type { Queryable } from "../../db/client";
import { type ContentChanges, EVERYTHING_TAG, SHOWCASE_TAG, VIDEOS_TAG } from "../content-changes";
import { KeptHitRows } from "./kept-hit-rows";
import {
  CANDIDATE_LIMIT,
  markedHits,
  type SearchHit,
  type SearchHitKind,
  type SearchQuery,
  type SearchTotals,
  TITLE_CANDIDATE_LIMIT,
} from "./repository";
import { parseSearch, SEARCH_PREFIX_MIN_LENGTH } from "./search";
import {
  compareLexemes,
  orRankOf,
  orRankPlus,
  orTermsOf,
  type ParsedVector,
  parseTsvector,
  type RankQuery,
  type RankWeights,
  textHas,
  tsRank,
  tsRankText,
  uniqueOperands,
} from "./ts-rank";

/**
 * Issue 32 item 3: the search index in memory. PostgreSQL stays the truth (search_entries, the
 * templates, the video cards); each process holds what finding and ranking read of it: every
 * listed presentation's words (search_vector's lexemes) as posting lists of ids, its title and
 * tags' words (title_vector) with positions and weights for ranking, its tags and its views. A
 * search then finds, ranks and pages its hits here, exactly as the SQL search does
 * (repository.ts: the same candidates' rule, ts_rank ported in ts-rank.ts, the same order), and
 * asks the database only for the page's two dozen rows by id. Common words never read their whole
 * posting list: candidates are taken newest first and the walk stops at the cap.
 *
 * Kept by the change feed: a change names its presentation (`presentation:{oid}`), whose entry
 * is read again; the templates follow `showcase`, the video cards `videos`; a lost feed (`*`)
 * rebuilds it all, and until then searches go to the database. Views move without a change being
 * heard: they are read again every VIEWS_REFRESH_MS.
 *
 * What the index can't do the same way goes to the database: a quoted phrase or a word the SQL
 * would split (positions aren't kept), a word that isn't plain ASCII letters or digits (the
 * database's parser and locale decide those), a word given twice.
 */

/** The search page's header saying whether the index in memory was ready ("memory") or not ("database"). */
export const SEARCH_INDEX_HEADER = "podium-search-index";
/** ts_rank's weights (repository.ts rank): title words 1, tag words 0.4, the rest 0. */
const RANK_WEIGHTS: RankWeights = [0, 0, Math.fround(0.4), 1];
/** ts_rank's own weights (D 0.1, C 0.2, B 0.4, A 1), which the video cards are ranked with. */
const DEFAULT_WEIGHTS: RankWeights = [Math.fround(0.1), Math.fround(0.2), Math.fround(0.4), 1];
/** Rows read per round trip while the index is built (keyset pages, so other work goes on between them). */
const BUILD_PAGE_ROWS = 500;
/**
 * Listed decks held at most: about 1 KB of memory each (a deck of the demo's length: some 110
 * words, its title and tags), so half a gigabyte per process at the most. Past it the index stays
 * off and the statement answers every search, until the process starts again.
 */
export const SEARCH_MEMORY_MAX_DECKS = 500_000;
/** How often views are read again (they move without a change being heard), as the small caches' backstop. */
export const VIEWS_REFRESH_MS = 60_000;
/** Changes heard within this long are read together. */
const CHANGE_BATCH_MS = 20;
/** Ids beyond what an Int32Array holds: the index stays off (never reached by a serial id in practice). */
const MAX_ID = 2 ** 31 - 1;
/** A query word the index reads as the database does: plain ASCII letters, or digits. */
const PLAIN_WORD = /^(?:[a-z]+|[0-9]+)$/;

/**
 * Ids in ascending order, with room to grow. A title word's posting also holds, beside each id,
 * what the word adds to that title's ts_rank for a search whose root is an OR (ts-rank.ts
 * orTermsOf): such a search is ranked from the postings of the words it names, read in order,
 * rather than from each candidate's title, read wherever it is in memory.
 */
class Posting {
  ids = new Int32Array(4);
  /** Per id, its title's term for this word (title postings only). */
  terms: Float32Array | null;
  length = 0;

  constructor(withTerms = false) {
    this.terms = withTerms ? new Float32Array(4) : null;
  }

  /** The index of the first id ≥ id. */
  #lowerBound(id: number, high = this.length): number {
    let low = 0;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.ids[middle] as number) < id) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  has(id: number): boolean {
    const at = this.#lowerBound(id);
    return at < this.length && this.ids[at] === id;
  }

  add(id: number, term = 0): void {
    // Built in id order: the new id goes last.
    let at = this.length;
    if (this.length > 0 && (this.ids[this.length - 1] as number) >= id) {
      at = this.#lowerBound(id);
      if (this.ids[at] === id) return;
    }
    this.#room();
    if (at < this.length) {
      this.ids.copyWithin(at + 1, at, this.length);
      this.terms?.copyWithin(at + 1, at, this.length);
    }
    this.ids[at] = id;
    if (this.terms) this.terms[at] = term;
    this.length += 1;
  }

  remove(id: number): void {
    const at = this.#lowerBound(id);
    if (at >= this.length || this.ids[at] !== id) return;
    this.ids.copyWithin(at, at + 1, this.length);
    this.terms?.copyWithin(at, at + 1, this.length);
    this.length -= 1;
  }

  #room(): void {
    if (this.length < this.ids.length) return;
    const grown = new Int32Array(this.ids.length * 2);
    grown.set(this.ids);
    this.ids = grown;
    if (this.terms) {
      const terms = new Float32Array(grown.length);
      terms.set(this.terms);
      this.terms = terms;
    }
  }

  /** Where the largest id ≤ bound is among the first `high`, or -1: the walk goes from the newest down. */
  atMost(bound: number, high: number): number {
    return this.#lowerBound(bound + 1, high) - 1;
  }

  /** Its ids without room to spare (once built). */
  trim(): void {
    if (this.ids.length > this.length) this.ids = this.ids.slice(0, this.length);
    if (this.terms && this.terms.length > this.length) this.terms = this.terms.slice(0, this.length);
  }
}

/** Ids walked from the newest down: each seek asks for the largest id ≤ bound (bounds only fall). */
interface Cursor {
  seek(bound: number): number;
}

function postingCursor(posting: Posting | undefined): Cursor {
  if (!posting || posting.length === 0) return EMPTY;
  let high = posting.length;
  const ids = posting.ids;
  return {
    seek(bound) {
      // Walking down one id at a time, the answer is the last id left or the one before it: looked
      // at first, before a binary search (a common word's walk to 1,001 candidates is all steps).
      let at: number;
      if (high > 0 && (ids[high - 1] as number) <= bound) at = high - 1;
      else if (high > 1 && (ids[high - 2] as number) <= bound) at = high - 2;
      else at = posting.atMost(bound, high);
      high = at + 1;
      return at < 0 ? -1 : (ids[at] as number);
    },
  };
}

const EMPTY: Cursor = { seek: () => -1 };

function unionCursor(cursors: Cursor[]): Cursor {
  if (cursors.length === 0) return EMPTY;
  if (cursors.length === 1) return cursors[0] as Cursor;
  return {
    seek(bound) {
      let best = -1;
      for (const cursor of cursors) best = Math.max(best, cursor.seek(bound));
      return best;
    },
  };
}

/** Ids in every cursor, none refused by `refuse` (null: none refused). */
function intersectionCursor(cursors: Cursor[], refuse: ((id: number) => boolean) | null): Cursor {
  if (cursors.length === 1 && refuse === null) return cursors[0] as Cursor;
  return {
    seek(bound) {
      let target = bound;
      for (;;) {
        if (target < 0) return -1;
        let agreed = true;
        for (const cursor of cursors) {
          const id = cursor.seek(target);
          if (id < 0) return -1;
          if (id !== target) {
            target = id;
            agreed = false;
          }
        }
        if (!agreed) continue;
        if (refuse === null || !refuse(target)) return target;
        target -= 1;
      }
    },
  };
}

/** The first place from `at` on (below `length`) whose id is ≥ id, by steps that double, then halving. */
function gallop(ids: Int32Array, at: number, length: number, id: number): number {
  if (at >= length || (ids[at] as number) >= id) return at;
  let low = at;
  let step = 1;
  while (low + step < length && (ids[low + step] as number) < id) {
    low += step;
    step *= 2;
  }
  // ids[low] < id; the answer is in (low, min(low + step, length)].
  let high = Math.min(low + step, length);
  low += 1;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((ids[middle] as number) < id) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Up to `limit` ids of the cursor, newest first. */
function take(cursor: Cursor, limit: number): number[] {
  const ids: number[] = [];
  for (let id = cursor.seek(MAX_ID); id >= 0 && ids.length < limit; id = cursor.seek(id - 1)) ids.push(id);
  return ids;
}

/** A word of the query: whole on the slides' words; on titles and tags a prefix from 4 letters. */
interface QueryWord {
  word: string;
  prefix: boolean;
}

/** A search the index answers: an AND of groups, each an OR of words or one excluded word. */
export interface MemoryQuery {
  groups: readonly { words: readonly QueryWord[]; negated: boolean }[];
  /** What ts_rank reads of the titles' query. */
  rank: RankQuery;
}

/** The search as the index reads it, or null when the database must answer it (see above). */
export function memoryQueryOf(term: string): MemoryQuery | null {
  const parsed = parseSearch(term);
  if (parsed.length === 0) return null;
  const groups: { words: QueryWord[]; negated: boolean }[] = [];
  const operands: QueryWord[] = [];
  for (const group of parsed) {
    const words: QueryWord[] = [];
    for (const atom of group) {
      const word = atom.words[0];
      if (atom.words.length !== 1 || atom.quoted || word === undefined || !PLAIN_WORD.test(word)) return null;
      const queryWord = { word, prefix: word.length >= SEARCH_PREFIX_MIN_LENGTH };
      words.push(queryWord);
      operands.push(queryWord);
    }
    const negated = group.every((atom) => atom.negated);
    // (parseSearch never joins an excluded word into an OR.)
    if (group.some((atom) => atom.negated) && !(negated && group.length === 1)) return null;
    groups.push({ words, negated });
  }
  const unique = uniqueOperands(operands);
  if (!unique || unique.length !== operands.length) return null;
  // The titles' query's root: & between groups; else an OR, one word or one excluded word.
  return { groups, rank: { root: groups.length > 1 ? "and" : "or", operands: unique } };
}

interface Entry {
  views: number;
  tags: readonly string[];
  /**
   * Its title_vector as PostgreSQL prints it, read only to rank it: most candidates hold none of the
   * query's words in their title (rankOf), and parsed vectors kept for every entry cost hundreds of
   * megabytes at 100,000.
   */
  title: string;
  /** Its words' numbers (SearchMemory's lexicon), to take it out of their postings. */
  words: Int32Array;
}

/** A template or a video card: few enough to test one by one. */
interface SmallEntry {
  kind: "template" | "video";
  /** A template's id, a video card's slug. */
  key: string;
  views: number;
  /** Its order among equals: the id, or minus a video card's position. */
  tie: number;
  tags: readonly string[];
  /** The words found in it whole (a template's search_vector; none for a video card). */
  words: ReadonlySet<string>;
  /** What the titles' query is matched against (title_vector; a video card's title and subtitle). */
  matched: ParsedVector;
  /** What ranks it (title_vector; a video card's title as A and subtitle as D). */
  ranked: ParsedVector;
  /** The weights it is ranked with (a video card: ts_rank's own). */
  weights: RankWeights;
}

interface Row {
  id: string;
  oid: string;
  views: number;
  tags: string[];
  title: string;
  words: string;
}

const ENTRY_COLUMNS = `e.id::text as id, p.oid, e.view_count as views, e.tags, e.title_vector::text as title,
       array_to_string(tsvector_to_array(e.search_vector), ' ') as words`;

/** titleFlags: the title_vector is empty (ts_rank 0 whatever is asked). */
const TITLE_EMPTY = 1;
/** titleFlags: the title holds a word the search being ranked names. */
const TITLE_NAMED = 2;

/** A word's number in a lexicon, the next one for a word met for the first time. */
function numberOf(lexicon: Map<string, number>, word: string): number {
  let number = lexicon.get(word);
  if (number === undefined) {
    number = lexicon.size;
    lexicon.set(word, number);
  }
  return number;
}

/** The index's contents: built whole, then changed one entry at a time. */
class Contents {
  readonly entries = new Map<number, Entry>();
  readonly idsByOid = new Map<string, number>();
  readonly lexicon = new Map<string, number>();
  readonly postings: Posting[] = [];
  readonly titlePostings = new Map<string, Posting>();
  readonly tagPostings = new Map<string, Posting>();
  /** The title words in order, for prefixes (made again after a change). */
  #titleWords: string[] | null = null;
  smalls: SmallEntry[] = [];
  /**
   * Views and title flags by id, side by side in two small arrays: ranking ~1,100 candidates read
   * them for each, and reading each one's entry object instead was a quarter of a search (cache
   * misses across the heap). TITLE_EMPTY stays; TITLE_NAMED is set for one search's ranking.
   */
  viewsById = new Int32Array(1024);
  titleFlags = new Uint8Array(1024);
  /** Each entry's title_vector as printed, by id (ranking reads it for ~1,000 candidates: no map lookup). */
  readonly titlesById: (string | undefined)[] = [];

  #roomFor(id: number): void {
    if (id < this.viewsById.length) return;
    let length = this.viewsById.length;
    while (length <= id) length *= 2;
    const views = new Int32Array(length);
    views.set(this.viewsById);
    this.viewsById = views;
    const flags = new Uint8Array(length);
    flags.set(this.titleFlags);
    this.titleFlags = flags;
  }

  put(row: Row): void {
    const id = Number(row.id);
    if (!Number.isSafeInteger(id) || id > MAX_ID) throw new Error("Podium: an id beyond the search index's range.");
    this.remove(id);
    this.idsByOid.set(row.oid, id);
    const words = row.words === "" ? [] : row.words.split(" ");
    const numbers = new Int32Array(words.length);
    words.forEach((word, index) => {
      const number = numberOf(this.lexicon, word);
      if (number === this.postings.length) this.postings.push(new Posting());
      (this.postings[number] as Posting).add(id);
      numbers[index] = number;
    });
    const titleVector = parseTsvector(row.title);
    const terms = orTermsOf(RANK_WEIGHTS, titleVector);
    titleVector.lexemes.forEach((lexeme, i) => {
      let posting = this.titlePostings.get(lexeme);
      if (!posting) {
        posting = new Posting(true);
        this.titlePostings.set(lexeme, posting);
        this.#titleWords = null;
      }
      posting.add(id, terms[i]);
    });
    for (const tag of row.tags) {
      let posting = this.tagPostings.get(tag);
      if (!posting) {
        posting = new Posting();
        this.tagPostings.set(tag, posting);
      }
      posting.add(id);
    }
    this.entries.set(id, { views: row.views, tags: row.tags, title: row.title, words: numbers });
    this.titlesById[id] = row.title;
    this.#roomFor(id);
    this.viewsById[id] = row.views;
    this.titleFlags[id] = row.title === "" ? TITLE_EMPTY : 0;
  }

  remove(id: number): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    for (const number of entry.words) this.postings[number]?.remove(id);
    for (const lexeme of parseTsvector(entry.title).lexemes) this.titlePostings.get(lexeme)?.remove(id);
    for (const tag of entry.tags) this.tagPostings.get(tag)?.remove(id);
    this.entries.delete(id);
    this.titlesById[id] = undefined;
  }

  /** Every posting without room to spare, once built (a change adds room again where it needs it). */
  trim(): void {
    for (const posting of this.postings) posting.trim();
    for (const posting of this.titlePostings.values()) posting.trim();
    for (const posting of this.tagPostings.values()) posting.trim();
  }

  removeOid(oid: string): void {
    const id = this.idsByOid.get(oid);
    if (id === undefined) return;
    this.remove(id);
    this.idsByOid.delete(oid);
  }

  wordPosting(word: string): Posting | undefined {
    const number = this.lexicon.get(word);
    return number === undefined ? undefined : this.postings[number];
  }

  /** The title words a query word names: itself, or every one it starts. */
  titleWordsOf({ word, prefix }: QueryWord): string[] {
    if (!prefix) return this.titlePostings.has(word) ? [word] : [];
    this.#titleWords ??= [...this.titlePostings.keys()].sort();
    const sorted = this.#titleWords;
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((sorted[middle] as string) < word) low = middle + 1;
      else high = middle;
    }
    const found: string[] = [];
    for (let i = low; i < sorted.length && (sorted[i] as string).startsWith(word); i += 1)
      found.push(sorted[i] as string);
    return found;
  }
}

/**
 * Lexemes in PostgreSQL's order (compareLexemes: their UTF-8 bytes), as a tsvector holds them; plain
 * ASCII sorted as JavaScript sorts it is already in that order.
 */
function inByteOrder(lexemes: string[]): string[] {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range, not control characters.
  return lexemes.length < 2 || lexemes.every((lexeme) => /^[\x00-\x7f]*$/.test(lexeme))
    ? lexemes
    : [...lexemes].sort(compareLexemes);
}

/** Whether a parsed vector holds the word (a prefix: a lexeme it starts). */
function vectorHas(vector: ParsedVector, { word, prefix }: QueryWord): boolean {
  return vector.lexemes.some((lexeme) => (prefix ? lexeme.startsWith(word) : lexeme === word));
}

/** `vector @@ query` for the titles' query (prefixes) on a parsed vector. */
function titleMatches(vector: ParsedVector, query: MemoryQuery): boolean {
  return query.groups.every((group) =>
    group.negated
      ? !vectorHas(vector, group.words[0] as QueryWord)
      : group.words.some((word) => vectorHas(vector, word)),
  );
}

/** `search_vector @@ words` (whole words) on a set of words. */
function wordsMatch(words: ReadonlySet<string>, query: MemoryQuery): boolean {
  return query.groups.every((group) =>
    group.negated ? !words.has((group.words[0] as QueryWord).word) : group.words.some((word) => words.has(word.word)),
  );
}

interface RankedHit {
  kind: SearchHitKind;
  key: string;
  rank: number;
  views: number;
  tie: number;
}

/** repository.ts's order: rank, views, kind, then the newest (a video: its place in the list). */
function byRank(a: RankedHit, b: RankedHit): number {
  return b.rank - a.rank || b.views - a.views || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0) || b.tie - a.tie;
}

/**
 * The first `wanted` items in `compare`'s order: a page needs two dozen of up to 1,200 candidates,
 * so they are picked through a heap of `wanted` (the last kept on top) rather than all sorted.
 */
function firstInOrder<Item>(items: Item[], wanted: number, compare: (a: Item, b: Item) => number): Item[] {
  if (wanted * 4 >= items.length) return items.sort(compare).slice(0, wanted);
  const heap: Item[] = [];
  // A max-heap by compare: the worst kept item on top.
  const worse = (i: number, j: number) => compare(heap[i] as Item, heap[j] as Item) > 0;
  const swap = (i: number, j: number) => {
    const kept = heap[i] as Item;
    heap[i] = heap[j] as Item;
    heap[j] = kept;
  };
  for (const item of items) {
    if (heap.length < wanted) {
      heap.push(item);
      for (let i = heap.length - 1; i > 0 && worse(i, (i - 1) >> 1); i = (i - 1) >> 1) swap(i, (i - 1) >> 1);
    } else if (compare(item, heap[0] as Item) < 0) {
      heap[0] = item;
      for (let i = 0; ; ) {
        const left = 2 * i + 1;
        const right = left + 1;
        let largest = i;
        if (left < heap.length && worse(left, largest)) largest = left;
        if (right < heap.length && worse(right, largest)) largest = right;
        if (largest === i) break;
        swap(i, largest);
        i = largest;
      }
    }
  }
  return heap.sort(compare);
}

/**
 * firstInOrder for the candidate presentations, by their places in `ids`, in byRank's order among
 * them (rank, views, the newest), their ranks read from an array by place and their views by id
 * (only where ranks are equal): written out rather than through a comparator, as this runs for
 * every candidate of every search.
 */
function firstPlacesInOrder(ids: readonly number[], wanted: number, ranks: Float64Array, views: Int32Array): number[] {
  /** Whether the candidate at a comes after the one at b. */
  const after = (a: number, b: number): boolean => {
    const rankA = ranks[a] as number;
    const rankB = ranks[b] as number;
    if (rankA !== rankB) return rankA < rankB;
    const idA = ids[a] as number;
    const idB = ids[b] as number;
    const viewsA = views[idA] as number;
    const viewsB = views[idB] as number;
    if (viewsA !== viewsB) return viewsA < viewsB;
    return idA < idB;
  };
  // A max-heap by that order: the last kept on top.
  const heap: number[] = [];
  for (let at = 0; at < ids.length; at += 1) {
    if (heap.length < wanted) {
      heap.push(at);
      for (let i = heap.length - 1; i > 0; ) {
        const up = (i - 1) >> 1;
        if (!after(heap[i] as number, heap[up] as number)) break;
        const kept = heap[i] as number;
        heap[i] = heap[up] as number;
        heap[up] = kept;
        i = up;
      }
    } else if (heap.length > 0 && after(heap[0] as number, at)) {
      heap[0] = at;
      for (let i = 0; ; ) {
        const left = 2 * i + 1;
        const right = left + 1;
        let last = i;
        if (left < heap.length && after(heap[left] as number, heap[last] as number)) last = left;
        if (right < heap.length && after(heap[right] as number, heap[last] as number)) last = right;
        if (last === i) break;
        const kept = heap[i] as number;
        heap[i] = heap[last] as number;
        heap[last] = kept;
        i = last;
      }
    }
  }
  return heap.sort((a, b) => (after(a, b) ? 1 : after(b, a) ? -1 : 0));
}

export class SearchMemory {
  #contents: Contents | null = null;
  /** Moves on every rebuild: a build or a read started before it keeps nothing. */
  #generation = 0;
  /** Changed presentations heard while a build runs or before their batch is read. */
  #changed = new Set<string>();
  #changeTimer: NodeJS.Timeout | null = null;
  #viewsTimer: NodeJS.Timeout | null = null;
  #building: Promise<void> | null = null;
  #reading: Promise<void> = Promise.resolve();
  #closed = false;
  /** More listed decks than maxDecks were met: the index stays off. */
  #tooLarge = false;
  #unsubscribe: () => void;
  /** The rows of the hits shown, kept once read (kept-hit-rows.ts). */
  readonly rows: KeptHitRows;
  /**
   * The candidates' ranks by place, for one search at a time (find runs whole, without awaiting):
   * a typed array of two thousand made for each search was a sixth of finding.
   */
  #ranks = new Float64Array(2 * (CANDIDATE_LIMIT + TITLE_CANDIDATE_LIMIT));

  constructor(
    private readonly db: Queryable,
    private readonly changes: ContentChanges & { readonly live?: boolean },
    private readonly maxDecks: number = SEARCH_MEMORY_MAX_DECKS,
  ) {
    this.#unsubscribe = changes.subscribe((tags) => this.#heard(tags));
    this.rows = new KeptHitRows(db, changes);
  }

  /** Ready to answer: built, and the feed hears every write (else the database answers). */
  get ready(): boolean {
    return this.#contents !== null && this.changes.live !== false && !this.#closed;
  }

  /** Builds the index in the background (once; again after a lost feed). */
  start(): Promise<void> {
    if (this.#closed || this.#tooLarge) return Promise.resolve();
    if (!this.#building) {
      const generation = this.#generation;
      this.#building = this.#build(generation)
        .catch(() => {
          // The database answers meanwhile; the next change or start tries again.
        })
        .finally(() => {
          if (this.#generation === generation) this.#building = null;
        });
    }
    return this.#building;
  }

  close(): void {
    this.#closed = true;
    this.#generation += 1;
    this.#unsubscribe();
    this.rows.close();
    if (this.#changeTimer) clearTimeout(this.#changeTimer);
    if (this.#viewsTimer) clearTimeout(this.#viewsTimer);
    this.#contents = null;
  }

  /** How many listed presentations it holds (null until built). */
  get size(): number | null {
    return this.#contents?.entries.size ?? null;
  }

  #heard(tags: readonly string[]): void {
    if (this.#closed) return;
    if (tags.includes(EVERYTHING_TAG)) {
      // Writes may have been missed: nothing held can be trusted until it is built again.
      this.#generation += 1;
      this.#contents = null;
      this.#building = null;
      this.#changed.clear();
      void this.start();
      return;
    }
    let smalls = tags.includes(SHOWCASE_TAG) || tags.includes(VIDEOS_TAG);
    for (const tag of tags) {
      if (tag.startsWith("presentation:")) {
        this.#changed.add(tag.slice("presentation:".length));
        smalls = true;
      }
    }
    if (this.#changed.size > 0 || smalls) this.#readChangesSoon(smalls);
  }

  #smallsDue = false;

  #readChangesSoon(smalls: boolean): void {
    this.#smallsDue ||= smalls;
    if (this.#changeTimer) return;
    this.#changeTimer = setTimeout(() => this.#readNow(), CHANGE_BATCH_MS);
    this.#changeTimer.unref?.();
  }

  #readNow(): Promise<void> {
    if (this.#changeTimer) clearTimeout(this.#changeTimer);
    this.#changeTimer = null;
    // One read at a time, in the order heard.
    this.#reading = this.#reading.then(() => this.#readChanges()).catch(() => this.#rebuild());
    return this.#reading;
  }

  /**
   * Reads the changes heard and not yet read, before a search: a write answered through this
   * process has been heard when it answers (the page cache's barrier, ChangeFeed.sync), so the
   * writer's next search finds it. Nothing to wait for most of the time.
   */
  async catchUp(): Promise<void> {
    if (this.#contents && this.#pending) await this.#readNow();
  }

  /** Changes heard and not read yet. */
  get #pending(): boolean {
    return this.#changeTimer !== null || this.#changed.size > 0 || this.#smallsDue;
  }

  /**
   * Resolves once what was heard so far is in the index (built, and every change read): for tests,
   * after the change feed's own barrier (ChangeFeed.sync) says everything committed was heard.
   */
  async settled(): Promise<void> {
    for (;;) {
      if (this.#building) {
        await this.#building;
        continue;
      }
      // Not built (and not building: it failed, or was closed): the database answers.
      if (!this.#contents) return;
      if (this.#pending) {
        await this.#readNow();
        continue;
      }
      await this.#reading;
      if (!this.#pending && !this.#building) return;
    }
  }

  async #readChanges(): Promise<void> {
    const contents = this.#contents;
    // Being built: what was heard is read once it is (#build).
    if (this.#building) return;
    if (!contents) {
      // Not built and not building: the next build reads everything as it is.
      this.#changed.clear();
      this.#smallsDue = false;
      return;
    }
    const generation = this.#generation;
    const oids = [...this.#changed];
    this.#changed.clear();
    const smalls = this.#smallsDue;
    this.#smallsDue = false;
    const [rows, small] = await Promise.all([
      oids.length > 0 ? this.#readEntries(oids) : Promise.resolve([]),
      smalls ? this.#readSmalls() : Promise.resolve(null),
    ]);
    if (generation !== this.#generation || this.#contents !== contents) return;
    const found = new Set<string>();
    for (const row of rows) {
      found.add(row.oid);
      contents.put(row);
    }
    for (const oid of oids) if (!found.has(oid)) contents.removeOid(oid);
    if (small) contents.smalls = small;
    if (contents.entries.size > this.maxDecks) {
      this.#tooLarge = true;
      this.#contents = null;
    }
  }

  #rebuild(): void {
    this.#generation += 1;
    this.#contents = null;
    this.#building = null;
    void this.start();
  }

  async #build(generation: number): Promise<void> {
    const contents = new Contents();
    let after = "0";
    for (;;) {
      const rows = await this.db.query<Row>(
        `select ${ENTRY_COLUMNS}
           from search_entries e join presentations p on p.id = e.id
          where e.id > $1::bigint
          order by e.id
          limit ${BUILD_PAGE_ROWS}`,
        [after],
      );
      if (generation !== this.#generation || this.#closed) return;
      for (const row of rows) contents.put(row);
      if (contents.entries.size > this.maxDecks) {
        this.#tooLarge = true;
        return;
      }
      if (rows.length < BUILD_PAGE_ROWS) break;
      after = (rows.at(-1) as Row).id;
    }
    contents.smalls = await this.#readSmalls();
    if (generation !== this.#generation || this.#closed) return;
    contents.trim();
    this.#contents = contents;
    this.#building = null;
    // What changed while it was read is read again now.
    if (this.#changed.size > 0) this.#readChangesSoon(false);
    this.#scheduleViews();
  }

  #scheduleViews(): void {
    if (this.#viewsTimer || this.#closed) return;
    this.#viewsTimer = setTimeout(() => {
      this.#viewsTimer = null;
      this.#reading = this.#reading
        .then(() => this.#readViews())
        .catch(() => {})
        .finally(() => this.#scheduleViews());
    }, VIEWS_REFRESH_MS);
    this.#viewsTimer.unref?.();
  }

  /** Reads every entry's views again now (what the timer does every VIEWS_REFRESH_MS; tests). */
  refreshViews(): Promise<void> {
    this.#reading = this.#reading.then(() => this.#readViews());
    return this.#reading;
  }

  async #readViews(): Promise<void> {
    const contents = this.#contents;
    if (!contents) return;
    const rows = await this.db.query<{ id: string; views: number }>(
      "select id::text as id, view_count as views from search_entries",
    );
    if (this.#contents !== contents) return;
    for (const row of rows) {
      const id = Number(row.id);
      const entry = contents.entries.get(id);
      if (entry) {
        entry.views = row.views;
        contents.viewsById[id] = row.views;
      }
    }
  }

  #readEntries(oids: readonly string[]): Promise<Row[]> {
    return this.db.query<Row>(
      `select ${ENTRY_COLUMNS}
         from presentations p join search_entries e on e.id = p.id
        where p.oid = any($1::text[])`,
      [oids],
    );
  }

  /** The templates and the video cards, read whole (a few dozen rows). */
  async #readSmalls(): Promise<SmallEntry[]> {
    const [templates, videos] = await Promise.all([
      this.db.query<{ id: string; views: number; tags: string[]; title: string; words: string }>(
        `select p.id::text as id, p.view_count as views, p.tags, p.title_vector::text as title,
                array_to_string(tsvector_to_array(p.search_vector), ' ') as words
           from presentations p
          where p.template_slug is not null and not p.hidden`,
      ),
      this.db.query<{ slug: string; position: number; matched: string; ranked: string }>(
        `select v.slug, v.position, to_tsvector('simple', v.title || ' ' || v.sub_title)::text as matched,
                (setweight(to_tsvector('simple', v.title), 'A') || to_tsvector('simple', v.sub_title))::text as ranked
           from video_cards v`,
      ),
    ]);
    return [
      ...templates.map((row): SmallEntry => {
        const title = parseTsvector(row.title);
        return {
          kind: "template",
          key: row.id,
          views: row.views,
          tie: Number(row.id),
          tags: row.tags,
          words: new Set(row.words === "" ? [] : row.words.split(" ")),
          matched: title,
          ranked: title,
          weights: RANK_WEIGHTS,
        };
      }),
      ...videos.map(
        (row): SmallEntry => ({
          kind: "video",
          key: row.slug,
          views: 0,
          tie: -row.position,
          tags: [],
          words: new Set(),
          matched: parseTsvector(row.matched),
          ranked: parseTsvector(row.ranked),
          weights: DEFAULT_WEIGHTS,
        }),
      ),
    ];
  }

  /**
   * The candidates' ranks for a query whose root is an OR (one word, words joined by OR), from the
   * postings of the title words each operand names, which hold each title's term (orTermsOf):
   * summed in ts_rank's order (operand by operand, then the vector's), the candidates looked up in
   * each posting in id order (`runs`: where `found` holds ids newest first), galloping. A
   * candidate's title is never read, and a common word's long posting is stepped through, not read
   * whole: reading a thousand titles scattered in memory was a third of ranking.
   */
  #rankOr(
    contents: Contents,
    rank: MemoryQuery["rank"],
    found: readonly number[],
    runs: readonly (readonly [number, number])[],
    ranks: Float64Array,
  ): void {
    const named = rank.operands.map((operand) =>
      inByteOrder(contents.titleWordsOf(operand)).map((lexeme) => contents.titlePostings.get(lexeme) as Posting),
    );
    for (const postings of named)
      for (const { ids, terms, length } of postings)
        for (const [from, to] of runs) {
          let at = 0;
          for (let place = to - 1; place >= from && at < length; place -= 1) {
            const id = found[place] as number;
            at = gallop(ids, at, length, id);
            if (at < length && ids[at] === id) {
              ranks[place] = orRankPlus(ranks[place] as number, (terms as Float32Array)[at] as number);
              at += 1;
            }
          }
        }
    for (let place = 0; place < found.length; place += 1) ranks[place] = orRankOf(ranks[place] as number, named.length);
  }

  /**
   * The candidates' ranks for an AND of words: a candidate with none of the title words the query
   * names ranks as ts_rank ranks a vector without them (1e-20), and its title is never read (marked
   * from the title posting lists of the words named, and unmarked after); the others are ranked
   * from their printed title_vector (ts-rank.ts tsRankText reads only the lexemes named).
   */
  #rankAnd(contents: Contents, rank: MemoryQuery["rank"], found: readonly number[], ranks: Float64Array): void {
    const named = rank.operands.flatMap((operand) =>
      contents.titleWordsOf(operand).map((lexeme) => contents.titlePostings.get(lexeme) as Posting),
    );
    const flags = contents.titleFlags;
    for (const { ids, length } of named)
      for (let i = 0; i < length; i += 1) flags[ids[i] as number] = (flags[ids[i] as number] as number) | TITLE_NAMED;
    const titles = contents.titlesById;
    const unmatched = Math.fround(1e-20);
    for (let at = 0; at < found.length; at += 1) {
      const id = found[at] as number;
      const flag = flags[id] as number;
      ranks[at] =
        flag & TITLE_EMPTY ? 0 : flag & TITLE_NAMED ? tsRankText(RANK_WEIGHTS, titles[id] as string, rank) : unmatched;
    }
    for (const { ids, length } of named)
      for (let i = 0; i < length; i += 1) flags[ids[i] as number] = (flags[ids[i] as number] as number) & ~TITLE_NAMED;
  }

  /**
   * The search's totals and ranked hits, as repository.ts's statement finds them: candidates found
   * by the slides' words (whole) and by the titles' and tags' words (prefixes, none of the
   * excluded words anywhere), each capped; the templates and video cards that match; ranked by
   * ts_rank on the titles' words, then views, kind and the newest.
   */
  find(
    query: MemoryQuery,
    options: { tag: string | null; kinds: readonly SearchHitKind[] },
    /** How many of the first hits are asked for (a page's offset and limit). */
    wanted: number,
  ): { totals: SearchTotals; ranked: RankedHit[] } | null {
    const contents = this.#contents;
    if (!contents || !this.ready) return null;
    const positive = query.groups.filter((group) => !group.negated);
    const excluded = query.groups.filter((group) => group.negated).map((group) => group.words[0] as QueryWord);
    const tagged = options.tag === null ? [] : [postingCursor(contents.tagPostings.get(options.tag))];

    // Found by the slides' words, whole.
    const excludedPostings = excluded.map((word) => contents.wordPosting(word.word));
    const notExcluded = (id: number) => !excludedPostings.some((posting) => posting?.has(id));
    const byWords = intersectionCursor(
      [
        ...positive.map((group) =>
          unionCursor(group.words.map((word) => postingCursor(contents.wordPosting(word.word)))),
        ),
        ...tagged,
      ],
      excluded.length === 0 ? null : (id) => !notExcluded(id),
    );
    const matched = take(byWords, CANDIDATE_LIMIT);

    // Found by the titles' and tags' words (prefixes), holding none of the excluded words anywhere.
    const byTitles = intersectionCursor(
      [
        ...positive.map((group) =>
          unionCursor(
            group.words.flatMap((word) =>
              contents.titleWordsOf(word).map((lexeme) => postingCursor(contents.titlePostings.get(lexeme))),
            ),
          ),
        ),
        // (A cursor of its own: cursors remember where they are.)
        ...(options.tag === null ? [] : [postingCursor(contents.tagPostings.get(options.tag))]),
      ],
      excluded.length === 0
        ? null
        : (id) => {
            if (!notExcluded(id)) return true;
            const title = contents.titlesById[id];
            return title === undefined || excluded.some((word) => textHas(title, word));
          },
    );
    const titled = take(byTitles, matched.length === CANDIDATE_LIMIT ? TITLE_CANDIDATE_LIMIT : CANDIDATE_LIMIT);

    // The candidates found both ways count once: both lists hold ids newest first, so they are
    // read side by side (no id looked up anywhere).
    const found = matched;
    const matchedCount = matched.length;
    for (let i = 0, j = 0; j < titled.length; j += 1) {
      const id = titled[j] as number;
      while (i < matchedCount && (matched[i] as number) > id) i += 1;
      if (i >= matchedCount || matched[i] !== id) found.push(id);
    }
    const ranked: RankedHit[] = [];
    if (options.kinds.includes("presentation")) {
      // Each candidate's rank in a small array by its place among the candidates: no object per
      // candidate, only per hit kept. Its views are read only to order equal ranks.
      if (this.#ranks.length < found.length) this.#ranks = new Float64Array(found.length * 2);
      const ranks = this.#ranks.fill(0, 0, found.length);
      if (query.rank.root === "or" || query.rank.operands.length === 1)
        this.#rankOr(
          contents,
          query.rank,
          found,
          [
            [0, matchedCount],
            [matchedCount, found.length],
          ],
          ranks,
        );
      else this.#rankAnd(contents, query.rank, found, ranks);
      const views = contents.viewsById;
      for (const at of firstPlacesInOrder(found, wanted, ranks, views)) {
        const id = found[at] as number;
        ranked.push({
          kind: "presentation",
          key: String(id),
          rank: ranks[at] as number,
          views: views[id] as number,
          tie: id,
        });
      }
    }
    let templates = 0;
    let videos = 0;
    for (const small of contents.smalls) {
      const hit =
        small.kind === "template"
          ? (options.tag === null || small.tags.includes(options.tag)) &&
            (wordsMatch(small.words, query) ||
              (titleMatches(small.matched, query) && excluded.every((word) => !small.words.has(word.word))))
          : options.tag === null && titleMatches(small.matched, query);
      if (!hit) continue;
      if (small.kind === "template") templates += 1;
      else videos += 1;
      if (!options.kinds.includes(small.kind)) continue;
      ranked.push({
        kind: small.kind,
        key: small.key,
        rank: tsRank(small.weights, small.ranked, query.rank),
        views: small.views,
        tie: small.tie,
      });
    }
    return {
      totals: { presentation: found.length, template: templates, video: videos },
      ranked: firstInOrder(ranked, wanted, byRank),
    };
  }
}

/**
 * A search answered by the index (null when it can't answer: not built, the feed lost, or a query
 * it leaves to the database), in searchCatalogue's shape.
 */
export async function searchInMemory(
  memory: SearchMemory,
  query: SearchQuery & { memory: MemoryQuery | null },
): Promise<{ hits: SearchHit[]; totals: SearchTotals } | null> {
  if (!query.memory || !memory.ready) return null;
  await memory.catchUp();
  const result = memory.find(query.memory, { tag: query.tag, kinds: query.kinds }, query.offset + query.limit);
  if (!result) return null;
  const page = result.ranked.slice(query.offset, query.offset + query.limit);
  return { hits: markedHits(await memory.rows.read(page), query.snippetWords), totals: result.totals };
}
