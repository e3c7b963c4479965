/** Issue 15 item 3: at most this many words in one search (each costs an index lookup). */
export const SEARCH_MAX_WORDS = 8;
export const SEARCH_MAX_LENGTH = 200;
/** Words shorter than this match whole (a short prefix such as "the:*" would read a posting list per word it starts); longer ones also as a prefix ("sourd" finds "sourdough"). */
export const SEARCH_PREFIX_MIN_LENGTH = 4;

/** One thing to match: a word, or a "quoted phrase" (its words in order); `negated` is -excluded. */
interface SearchAtom {
  words: string[];
  quoted: boolean;
  negated: boolean;
}

/** A word character: a letter, a mark (in scripts that combine) or a digit. */
function isWordChar(char: string): boolean {
  return /[\p{L}\p{M}\p{N}]/u.test(char);
}

/** Words of a piece of text: the runs of word characters, lower-cased. */
function wordsOf(text: string): string[] {
  const words: string[] = [];
  let current = "";
  for (const char of text) {
    if (isWordChar(char)) current += char;
    else if (current) {
      words.push(current.toLowerCase());
      current = "";
    }
  }
  if (current) words.push(current.toLowerCase());
  return words;
}

/**
 * Issue 15 item 3, web-search syntax: reads a visitor's search one character at a time (no
 * operator they type reaches the database): "quoted phrase", -excluded word or phrase, OR between
 * two terms; everything else is words that must all match. Returns the AND of OR-groups.
 */
export function parseSearch(term: string): SearchAtom[][] {
  const text = term.slice(0, SEARCH_MAX_LENGTH);
  const tokens: { atom: SearchAtom; raw: string }[] = [];
  let i = 0;
  const chars = [...text];
  while (i < chars.length) {
    const char = chars[i] ?? "";
    if (char.trim() === "") {
      i += 1;
      continue;
    }
    let negated = false;
    if (char === "-" && (chars[i + 1] ?? " ").trim() !== "") {
      negated = true;
      i += 1;
    }
    let raw = "";
    let quoted = false;
    if (chars[i] === '"') {
      quoted = true;
      i += 1;
      while (i < chars.length && chars[i] !== '"') raw += chars[i++];
      i += 1;
    } else {
      while (i < chars.length && (chars[i] ?? " ").trim() !== "" && chars[i] !== '"') raw += chars[i++];
    }
    const words = wordsOf(raw);
    if (words.length > 0) tokens.push({ atom: { words, quoted: quoted || words.length > 1, negated }, raw });
  }
  const groups: SearchAtom[][] = [];
  let joinNext = false;
  let wordCount = 0;
  for (const [index, { atom, raw }] of tokens.entries()) {
    // OR (as written, in capitals) between two terms that aren't excluded joins them.
    const isOr = raw === "OR" && !atom.negated && !atom.quoted;
    const previous = groups.at(-1);
    const following = tokens[index + 1];
    if (isOr && previous && following && !following.atom.negated && !previous.some((a) => a.negated)) {
      joinNext = true;
      continue;
    }
    if (wordCount + atom.words.length > SEARCH_MAX_WORDS) break;
    wordCount += atom.words.length;
    if (joinNext && previous && !atom.negated) previous.push(atom);
    else groups.push([atom]);
    joinNext = false;
  }
  // Something must be found: a search of exclusions alone would read the whole catalogue.
  return groups.some((group) => group.some((atom) => !atom.negated)) ? groups : [];
}

/** A word as a tsquery operand: quoted (so it is a lexeme, never an operator), maybe a prefix. */
function lexeme(word: string, prefix: boolean): string {
  const quoted = `'${word.replaceAll("'", "''").replaceAll("\\", "\\\\")}'`;
  return prefix && [...word].length >= SEARCH_PREFIX_MIN_LENGTH ? `${quoted}:*` : quoted;
}

function atomQuery(atom: SearchAtom, prefixes: boolean): string {
  const body = atom.quoted
    ? atom.words.map((word) => lexeme(word, false)).join(" <-> ")
    : lexeme(atom.words[0] ?? "", prefixes);
  const grouped = atom.words.length > 1 ? `(${body})` : body;
  return atom.negated ? `!${grouped}` : grouped;
}

function queryOf(groups: SearchAtom[][], prefixes: boolean): string {
  return groups
    .map((group) =>
      group.length > 1
        ? `(${group.map((atom) => atomQuery(atom, prefixes)).join(" | ")})`
        : atomQuery(group[0] as SearchAtom, prefixes),
    )
    .join(" & ");
}

/**
 * The to_tsquery('simple', …) text for a visitor's search, or null when it finds nothing to
 * look for. Every operand is a quoted lexeme; the operators are ours. Words of 4 letters or more
 * are also prefixes ("sourd" finds "sourdough").
 */
export function tsqueryOf(term: string): string | null {
  const groups = parseSearch(term);
  return groups.length === 0 ? null : queryOf(groups, true);
}

/**
 * Issue 15 item 2: the three queries a search runs (null when it looks for nothing). Prefixes are
 * matched in titles and tags only: a prefix over every slide's words reads the posting list of
 * every word it starts (200 real words on 100,000 decks: 16.7 ms a query with prefixes, 4.6 ms
 * whole words, 0.8 ms prefixes over titles and tags).
 *  - `titles`: for title_vector, words as prefixes;
 *  - `text`: for search_vector, whole words;
 *  - `exclusions`: the excluded words and phrases alone (whole words), which a title hit must not
 *    hold anywhere in its text; null when nothing is excluded.
 */
export function searchQueriesOf(term: string): { titles: string; text: string; exclusions: string | null } | null {
  const groups = parseSearch(term);
  if (groups.length === 0) return null;
  const excluded = groups.filter((group) => group.every((atom) => atom.negated));
  return {
    titles: queryOf(groups, true),
    text: queryOf(groups, false),
    exclusions: excluded.length > 0 ? queryOf(excluded, false) : null,
  };
}

/** The excluded words and phrases of a search, written back as search syntax (`-rye -"wild yeast"`). */
export function excludedTermsOf(term: string): string {
  return parseSearch(term)
    .flatMap((group) => group.filter((atom) => atom.negated))
    .map((atom) => (atom.quoted ? `-"${atom.words.join(" ")}"` : `-${atom.words[0] ?? ""}`))
    .join(" ");
}

/** The words a search looks for (not the excluded ones), for typo tolerance. */
export function soughtWords(term: string): string[] {
  return parseSearch(term).flatMap((group) => group.filter((atom) => !atom.negated).flatMap((atom) => atom.words));
}

/** Issue 15 item 3: what a search lists. */
export const SEARCH_TYPES = ["all", "presentation", "template", "video"] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

export function searchTypeOf(value: unknown): SearchType {
  return (SEARCH_TYPES as readonly unknown[]).includes(value) ? (value as SearchType) : "all";
}

/** A tag filter as written in a URL: trimmed, lower-cased as tags are stored, bounded. */
export const SEARCH_TAG_MAX_LENGTH = 64;

/** Spec §5, §2: Enter submits; an empty term goes to /explore/; the term is URL-encoded. */
export function searchUrl(
  term: string,
  filters: { type?: SearchType; tag?: string | null; page?: number } = {},
): string {
  const trimmed = term.trim();
  if (!trimmed) return "/explore/";
  let url = `/explore/search/?search=${encodeURIComponent(trimmed)}`;
  if (filters.type && filters.type !== "all") url += `&type=${filters.type}`;
  if (filters.tag) url += `&tag=${encodeURIComponent(filters.tag)}`;
  if (filters.page && filters.page > 1) url += `&page=${filters.page}`;
  return url;
}

/** Spec §3 App data: the four author segments; anything else counts as other. */
export const AUTHOR_SEGMENTS = ["sales-marketing", "teacher", "student", "other"] as const;
export type AuthorSegment = (typeof AUTHOR_SEGMENTS)[number];

export function authorSegmentOf(value: unknown): AuthorSegment {
  return (AUTHOR_SEGMENTS as readonly unknown[]).includes(value) ? (value as AuthorSegment) : "other";
}

/** Trending searches per author segment (spec §3 searchTerms): what people look for on Podium. */
export const SEARCH_TERMS: Record<AuthorSegment, string[]> = {
  "sales-marketing": ["pricing", "quarterly review", "product launch", "pitch deck"],
  teacher: ["fractions", "water cycle", "study techniques", "lesson plan"],
  student: ["vaccines", "mars", "printing press", "apollo"],
  other: ["sourdough", "typography", "accessibility", "personal finance"],
};
