/**
 * Issue 15 items 4 and 5: the rules and constants of search suggestions and trending searches,
 * pure (the server's service and the header's combobox both use them).
 */

/** Item 4: the typed text the suggest API takes, in characters (longer is a 400). */
export const SUGGEST_MAX_QUERY_LENGTH = 100;
/** Item 4: at most this many titles… */
export const SUGGEST_TITLE_LIMIT = 8;
/** …and this many trending terms per answer. */
export const SUGGEST_TERM_LIMIT = 5;
/** Item 4: words of the typed text matched (each as a word prefix of the title). */
export const SUGGEST_MAX_WORDS = 8;
/**
 * Item 4 "cacheable briefly": a browser keeps an answer 30 s (backspacing asks nothing). Not
 * `public`, so Podium's page cache doesn't keep it: measured (bench:suggest), hundreds of different
 * prefixes hit it too rarely to pay for compressing each answer three ways.
 */
export const SUGGEST_CACHE_CONTROL = "max-age=30";
/** Item 4: the header waits this long after the last keystroke before asking (earlier requests are aborted). */
export const SUGGEST_DEBOUNCE_MS = 150;
export const SUGGEST_PATH = "/api/search/suggest";

/** Item 5: a search counts half as much after this many hours (time decay). */
export const TRENDING_HALF_LIFE_HOURS = 6;
/** Item 5: hours of searches that count; older hourly buckets are pruned (weight < 1/4000 by then). */
export const TRENDING_WINDOW_HOURS = 72;
/** Item 5: the cached trending list is recomputed (and old buckets pruned) this often. */
export const TRENDING_REFRESH_MS = 5 * 60_000;
/** Item 5: terms kept in the cached list (suggest filters them by what is typed). */
export const TRENDING_LIST_SIZE = 50;
/** Item 5: a term trends only after this many searches (distinct addresses per hour) in the window. */
export const TRENDING_MIN_SEARCHES = 3;
/** Item 5: a recorded term is cut to this many characters. */
export const TRENDING_TERM_MAX_LENGTH = 60;
/**
 * Item 5 flood guard: one address counts once per term per hour. The per-process memory of who
 * searched what this hour holds at most this many entries; past it, searches aren't counted.
 */
export const TRENDING_GUARD_MAX_ENTRIES = 100_000;

/** The form a search term is counted and compared in: NFKC, lower case, single spaces, bounded. */
export function normaliseTerm(text: string): string {
  const words = text.normalize("NFKC").toLowerCase().trim().split(/\s+/u).filter(Boolean);
  const joined = words.join(" ");
  // Cut at a code point (never half a surrogate pair), then drop a trailing space.
  return Array.from(joined).slice(0, TRENDING_TERM_MAX_LENGTH).join("").trimEnd();
}

/** A term worth counting has a letter or a digit. */
export function isCountableTerm(term: string): boolean {
  return /[\p{L}\p{N}]/u.test(term);
}

/**
 * The words of what was typed (normalised): runs of letters, marks and digits, at most
 * SUGGEST_MAX_WORDS. Everything else separates words, so nothing typed is query syntax.
 */
export function typedWordsOf(typed: string): string[] {
  return typed
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, SUGGEST_MAX_WORDS);
}

/**
 * Whether a trending term fits what was typed: every typed word starts one of the term's words
 * ("pitch d" → "pitch deck"). Both sides normalised.
 */
export function termMatches(term: string, typed: string): boolean {
  const typedWords = typed.split(" ").filter(Boolean);
  if (typedWords.length === 0) return true;
  const termWords = term.split(" ");
  return typedWords.every((word) => termWords.some((candidate) => candidate.startsWith(word)));
}

/** What the suggest API answers. */
export interface SuggestAnswer {
  /** The typed text, normalised. */
  query: string;
  /** Listed presentations whose title words start with the typed words; `url` is the view page. */
  titles: { oid: string; title: string; url: string }[];
  /** Trending searches that fit the typed text (the top ones when nothing is typed). */
  terms: string[];
}

/** Why a suggest request is refused (400), or null when q is usable. */
export function suggestQueryProblem(q: unknown): string | null {
  if (q === undefined) return "Add q, the text typed so far (it may be empty).";
  if (typeof q !== "string") return "Send q once, as text.";
  if (Array.from(q).length > SUGGEST_MAX_QUERY_LENGTH)
    return `q is too long: at most ${SUGGEST_MAX_QUERY_LENGTH} characters.`;
  if (/\p{Cc}/u.test(q)) return "q can't contain control characters.";
  return null;
}
