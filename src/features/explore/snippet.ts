import { MARK_END, MARK_START } from "../../lib/card";
import { parseSearch, SEARCH_PREFIX_MIN_LENGTH } from "./search";

/**
 * Issue 15 item 3: the snippet under a search hit, a few words around where the words searched
 * for are, those words marked. Drawn here from the hit's text rather than by ts_headline: for the
 * 20 hits of a page, ts_headline parsed every deck's whole text and cost 2.5 of a query's 6.5 ms
 * on PostgreSQL at 100,000 decks and 5 of 8 ms on PGlite at 10,000.
 */

/** Words around a match (ts_headline's MaxWords), and at most this many passages (MaxFragments). */
export const SNIPPET_WORDS = 24;
export const SNIPPET_PASSAGES = 2;
/** Words shown before the first match of a passage. */
const WORDS_BEFORE_MATCH = 6;
/**
 * Only the start of a long text is read (a 50-slide deck's text is about 10,000 characters); the
 * stored snippet_text (migration 0016) holds this much.
 */
export const SNIPPET_TEXT_MAX_CHARS = 20_000;
const ELLIPSIS = "…";
const PASSAGE_DELIMITER = ` ${ELLIPSIS} `;

/** What a snippet marks: the words searched for (not the excluded ones), whole or as prefixes. */
export interface SnippetWords {
  whole: ReadonlySet<string>;
  /** Words of SEARCH_PREFIX_MIN_LENGTH letters or more, which also mark the words they start (as the title query matches them). */
  prefixes: readonly string[];
}

export function snippetWordsOf(term: string): SnippetWords {
  const whole = new Set<string>();
  const prefixes: string[] = [];
  for (const group of parseSearch(term)) {
    for (const atom of group) {
      if (atom.negated) continue;
      for (const word of atom.words) {
        whole.add(word);
        if (!atom.quoted && [...word].length >= SEARCH_PREFIX_MIN_LENGTH) prefixes.push(word);
      }
    }
  }
  return { whole, prefixes };
}

/** A run of word characters (letters, marks, digits), as the search reads words (search.ts). */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const WORD_CHARACTER = "[\\p{L}\\p{M}\\p{N}]";
const WHOLE_WORD = /^[\p{L}\p{M}\p{N}]+$/u;

/**
 * One expression that finds where a sought word starts: a whole word (not followed by a word
 * character) or a prefix, at the start of a word, in any case. Made once per search (all of a
 * page's snippets share `sought`).
 */
const matchers = new WeakMap<SnippetWords, RegExp | null>();
function matcherOf(sought: SnippetWords): RegExp | null {
  let matcher = matchers.get(sought);
  if (matcher !== undefined) return matcher;
  // Only a run of word characters can be a word of the text; such a run needs no escaping.
  const words = (list: Iterable<string>) => [...list].filter((word) => WHOLE_WORD.test(word));
  const whole = words(sought.whole);
  const prefixes = words(sought.prefixes);
  const alternatives: string[] = [];
  if (whole.length > 0) alternatives.push(`(?:${whole.join("|")})(?!${WORD_CHARACTER})`);
  if (prefixes.length > 0) alternatives.push(`(?:${prefixes.join("|")})`);
  matcher = alternatives.length > 0 ? new RegExp(`(?<!${WORD_CHARACTER})(?:${alternatives.join("|")})`, "giu") : null;
  matchers.set(sought, matcher);
  return matcher;
}

interface Word {
  start: number;
  end: number;
  matched: boolean;
}

/**
 * The snippet for `text` (plain text, its marker characters already taken out): up to
 * SNIPPET_PASSAGES passages of SNIPPET_WORDS words, each starting a few words before a match,
 * joined by " … " (and an ellipsis before or after where the text goes on), with every matched
 * word between MARK_START and MARK_END. A passage starts at a sentence's first word when one is
 * near. Without a match (a hit found by a word's start in its title), the text's first words.
 * Whitespace runs read as one space.
 */
export function markedSnippet(text: string, sought: SnippetWords): string {
  const source = text.length > SNIPPET_TEXT_MAX_CHARS ? text.slice(0, SNIPPET_TEXT_MAX_CHARS) : text;
  const words: Word[] = [];
  const passages: [number, number][] = [];
  // Where the matches start, found by one regular expression rather than word by word.
  const matches = matcherOf(sought);
  const nextMatch = () => {
    if (!matches) return Number.POSITIVE_INFINITY;
    const found = matches.exec(source);
    return found ? found.index : Number.POSITIVE_INFINITY;
  };
  if (matches) matches.lastIndex = 0;
  let upcoming = nextMatch();
  WORD.lastIndex = 0;
  for (let found = WORD.exec(source); found; found = WORD.exec(source)) {
    const matched = upcoming === found.index;
    if (matched) upcoming = nextMatch();
    const index = words.length;
    words.push({ start: found.index, end: found.index + found[0].length, matched });
    const last = passages.at(-1);
    if (matched && (!last || index >= last[1])) {
      const first = passageStart(source, words, Math.max(last ? last[1] : 0, index - WORDS_BEFORE_MATCH), index);
      passages.push([first, first + SNIPPET_WORDS]);
    }
    // Enough read: the last passage is full and no other will start (or none will, and the first words are read).
    const full = passages.at(-1) ?? [0, SNIPPET_WORDS];
    const noneToCome = passages.length === SNIPPET_PASSAGES || upcoming === Number.POSITIVE_INFINITY;
    if (noneToCome && words.length >= full[1]) break;
  }
  if (passages.length === 0) passages.push([0, SNIPPET_WORDS]);
  const shown = passages
    .map(([first, end]) => words.slice(first, Math.min(end, words.length)))
    .filter((passage) => passage.length > 0);
  const firstWord = shown[0]?.[0];
  const lastWord = shown.at(-1)?.at(-1);
  if (!firstWord || !lastWord) return "";
  // The punctuation that ends the last word goes with it; an ellipsis says where text was left out.
  const after = source.slice(lastWord.end);
  const ending = after.slice(0, after.search(/\s|$/));
  const more = after.slice(ending.length).trim() !== "";
  // Words left out before the first passage (space or markup before the first word is not text left out).
  const skipped = (passages[0]?.[0] ?? 0) > 0;
  return `${skipped ? `${ELLIPSIS} ` : ""}${shown.map((passage) => passageText(source, passage)).join(PASSAGE_DELIMITER)}${ending}${more ? ` ${ELLIPSIS}` : ""}`;
}

/**
 * Where a passage before the match at `match` starts, from `earliest` on: at a sentence's first
 * word if one is there, else at the first word that follows a space (never in the middle of
 * "baker's" or "well-known").
 */
function passageStart(source: string, words: readonly Word[], earliest: number, match: number): number {
  const gapBefore = (index: number) =>
    index === 0 ? "\n" : source.slice((words[index - 1] as Word).end, (words[index] as Word).start);
  for (let index = earliest; index <= match; index += 1) {
    if (index === 0 || /[.!?]\s|\n/.test(gapBefore(index))) return index;
  }
  for (let index = earliest; index <= match; index += 1) {
    if (/\s/.test(gapBefore(index))) return index;
  }
  return match;
}

function passageText(source: string, words: readonly Word[]): string {
  let out = "";
  for (const [index, word] of words.entries()) {
    if (index > 0) {
      const between = source.slice((words[index - 1] as Word).end, word.start);
      out += between.trim() === "" ? " " : between.replace(/\s+/g, " ");
    }
    const text = source.slice(word.start, word.end);
    out += word.matched ? `${MARK_START}${text}${MARK_END}` : text;
  }
  return out;
}
