import { buildSpelling } from "./spelling";

/**
 * Issue 15 item 4: suggestions from memory. The most watched listed presentations' titles, with
 * their words as PostgreSQL's 'simple' parser reads them (title_words, migration 0014), most
 * watched first, and buckets by the first letters of each title word and of each title: a
 * suggestion walks the smallest bucket that can hold its answer, most watched first, and stops as
 * soon as it has it. Built from the database when first asked and again after any change to
 * listed presentations (features/small-caches.ts), so a suggestion costs microseconds at any size.
 */

/** The titles held at most: the most watched ones (a suggestion for a title beyond them is rare). */
export const SUGGEST_INDEX_MAX_TITLES = 100_000;
/**
 * Issue 32: the index is rebuilt at once after a change to listed presentations (the change feed),
 * and otherwise at least this often, for the order by views (views move without a change being
 * heard). Every minute, as the other small caches, was 1.3–1.6 s of the request loop's CPU at
 * 100,000 titles: searches at a steady 100/s waited up to 1.8 s for seven seconds of each minute
 * (p50 8–11 ms the rest of it). Suggestions ordered by the views of a quarter of an hour ago are as good.
 */
export const SUGGEST_INDEX_MAX_AGE_MS = 15 * 60_000;
/**
 * Bucket keys are a word's first 1–4 characters and a title's first 1–8: a longer typed text walks
 * a smaller bucket ("the b" walks the titles starting "the b", not all those starting "the").
 */
const WORD_PREFIX_MAX = 4;
const START_PREFIX_MAX = 8;

export interface IndexedTitle {
  oid: string;
  title: string;
  /** The title's words (lexemes), lower case. */
  words: readonly string[];
}

/**
 * A title as held: plain strings only, no arrays (100,000 of them stay in the old generation;
 * the fewer objects there, the shorter the garbage collector's pauses).
 */
interface Entry {
  oid: string;
  title: string;
  /** The title in lower case, for "starts with what was typed". */
  lower: string;
  /** The title's words, each after a space: " word" is in it when a word starts with "word". */
  spaced: string;
}

export interface TitleIndex {
  /**
   * At most `limit` titles in which every typed word starts a word: those whose title starts with
   * `typed` first, then the others, each group most watched first.
   */
  suggest(typed: string, typedWords: readonly string[], limit: number): { oid: string; title: string }[];
  /** The title word closest to `word` (itself when a title holds it), for typo tolerance (spelling.ts). */
  closestWord(word: string): string | null;
  readonly size: number;
}

const prefixesOf = (text: string, max: number): string[] => {
  const chars = Array.from(text);
  const keys: string[] = [];
  for (let length = 1; length <= Math.min(max, chars.length); length += 1) {
    keys.push(chars.slice(0, length).join(""));
  }
  return keys;
};

const keyOf = (text: string, max: number): string => Array.from(text).slice(0, max).join("");

/**
 * Titles handled between two turns of the event loop when the index is built in turns: 100,000
 * titles took 0.6 s of the loop in one go (a health check waited 745 ms), once a minute.
 */
const TITLES_PER_TURN = 2_000;
const BUCKETS_PER_TURN = 5_000;

/** Builds the index from titles given most watched first, in one go (tests, small lists). */
export function buildTitleIndex(titles: readonly IndexedTitle[]): TitleIndex {
  const steps = building(titles);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** The same, giving the event loop a turn every few thousand titles (the server's loads). */
export async function buildTitleIndexInTurns(titles: readonly IndexedTitle[]): Promise<TitleIndex> {
  const steps = building(titles);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** The build, pausing (yield) where a turn of the event loop may come in between. */
function* building(titles: readonly IndexedTitle[]): Generator<void, TitleIndex> {
  const entries: Entry[] = [];
  /** Entry numbers (ascending: most watched first) by the first characters of a title word. */
  const wordLists = new Map<string, number[]>();
  /** …and by the first characters of the whole title. */
  const startLists = new Map<string, number[]>();
  /** How many titles hold each word (the words typo tolerance corrects to, spelling.ts). */
  const wordCounts = new Map<string, number>();
  const add = (buckets: Map<string, number[]>, key: string, n: number) => {
    const bucket = buckets.get(key);
    if (!bucket) buckets.set(key, [n]);
    else if (bucket[bucket.length - 1] !== n) bucket.push(n);
  };
  for (const [n, title] of titles.entries()) {
    const entry: Entry = {
      oid: title.oid,
      title: title.title,
      lower: title.title.toLowerCase(),
      spaced: ` ${title.words.join(" ")}`,
    };
    entries.push(entry);
    for (const word of title.words) for (const key of prefixesOf(word, WORD_PREFIX_MAX)) add(wordLists, key, n);
    for (const key of prefixesOf(entry.lower, START_PREFIX_MAX)) add(startLists, key, n);
    for (const word of new Set(title.words)) wordCounts.set(word, (wordCounts.get(word) ?? 0) + 1);
    if ((n + 1) % TITLES_PER_TURN === 0) yield;
  }
  const byWord = new Map<string, Int32Array>();
  const byStart = new Map<string, Int32Array>();
  let packedCount = 0;
  for (const [lists, packed] of [
    [wordLists, byWord],
    [startLists, byStart],
  ] as const) {
    for (const [key, list] of lists) {
      packed.set(key, Int32Array.from(list));
      if (++packedCount % BUCKETS_PER_TURN === 0) yield;
    }
  }
  yield;
  const spelling = buildSpelling(wordCounts);
  const none = new Int32Array(0);

  // Words never hold a space (they are the parser's lexemes), so " typed" marks a word's start.
  const fits = (entry: Entry, typedWords: readonly string[]) =>
    typedWords.every((typed) => entry.spaced.includes(` ${typed}`));

  return {
    size: entries.length,
    closestWord: (word) => spelling.closest(word),
    suggest(typed, typedWords, limit) {
      if (typedWords.length === 0 || limit <= 0) return [];
      // The typed word with the fewest candidates bounds the walk.
      let smallest: Int32Array = none;
      for (const [index, word] of typedWords.entries()) {
        const bucket = byWord.get(keyOf(word, WORD_PREFIX_MAX)) ?? none;
        if (index === 0 || bucket.length < smallest.length) smallest = bucket;
      }
      if (smallest.length === 0) return [];
      const found: Entry[] = [];
      const taken = new Set<number>();
      // Titles that start with the typed text, most watched first.
      for (const n of byStart.get(keyOf(typed, START_PREFIX_MAX)) ?? none) {
        const entry = entries[n] as Entry;
        if (entry.lower.startsWith(typed) && fits(entry, typedWords)) {
          found.push(entry);
          taken.add(n);
          if (found.length === limit) return found;
        }
      }
      // Then the others, most watched first.
      for (const n of smallest) {
        if (taken.has(n)) continue;
        const entry = entries[n] as Entry;
        if (fits(entry, typedWords)) {
          found.push(entry);
          if (found.length === limit) break;
        }
      }
      return found;
    },
  };
}
