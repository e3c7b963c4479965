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
const WHOLE_WORD = /^[\p{L}\p{M}\p{N}]+$/u;
const WORD_CHARACTER = /^[\p{L}\p{M}\p{N}]$/u;

/**
 * Finds where the sought words start in a text: plain case-insensitive expressions (one for whole
 * words, one for prefixes) find candidates, and a candidate counts at the start of a word (and,
 * for a whole word, at its end). Made once per search: all of a page's snippets share `sought`.
 * Plain expressions on purpose: one with Unicode classes cost about a millisecond to compile, on
 * every search page.
 */
interface Matchers {
  whole: RegExp | null;
  prefixes: RegExp | null;
}
const matchers = new WeakMap<SnippetWords, Matchers>();
function matchersOf(sought: SnippetWords): Matchers {
  let found = matchers.get(sought);
  if (found) return found;
  // Only a run of word characters can be a word of the text; such a run needs no escaping. Longest
  // first: at "and", the searched "an" must not be tried before "and" (it would match, then fail
  // as a whole word, and "and" would never be tried there).
  const expression = (list: Iterable<string>) => {
    const words = [...list].filter((word) => WHOLE_WORD.test(word)).sort((a, b) => b.length - a.length);
    return words.length > 0 ? new RegExp(words.join("|"), "gi") : null;
  };
  found = { whole: expression(sought.whole), prefixes: expression(sought.prefixes) };
  matchers.set(sought, found);
  return found;
}

/** Whether the character that ends just before `index` (a letter, mark or digit) continues a word. */
function wordCharacterBefore(source: string, index: number): boolean {
  if (index <= 0) return false;
  const low = source.charCodeAt(index - 1);
  const at = low >= 0xdc00 && low <= 0xdfff && index >= 2 ? index - 2 : index - 1;
  return WORD_CHARACTER.test(String.fromCodePoint(source.codePointAt(at) ?? 0));
}

function wordCharacterAt(source: string, index: number): boolean {
  return index < source.length && WORD_CHARACTER.test(String.fromCodePoint(source.codePointAt(index) ?? 0));
}

/** The first place from `from` on where `expression` matches a word's start (and end, for whole words). */
function firstMatch(source: string, expression: RegExp | null, from: number, whole: boolean): number {
  if (!expression) return Number.POSITIVE_INFINITY;
  expression.lastIndex = from;
  for (let found = expression.exec(source); found; found = expression.exec(source)) {
    const end = found.index + found[0].length;
    if (!wordCharacterBefore(source, found.index) && !(whole && wordCharacterAt(source, end))) return found.index;
    expression.lastIndex = found.index + 1;
  }
  return Number.POSITIVE_INFINITY;
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
  // Where the matches start, found by regular expressions rather than word by word.
  const { whole, prefixes } = matchersOf(sought);
  const nextMatch = (from: number) =>
    Math.min(firstMatch(source, whole, from, true), firstMatch(source, prefixes, from, false));
  let upcoming = nextMatch(0);
  WORD.lastIndex = 0;
  for (let found = WORD.exec(source); found; found = WORD.exec(source)) {
    // (A match always starts a word; this only guards against reading past one.)
    if (upcoming < found.index) upcoming = nextMatch(found.index);
    const matched = upcoming === found.index;
    if (matched) upcoming = nextMatch(found.index + found[0].length);
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
 * `text` whole (a title), with every sought word between MARK_START and MARK_END, as the snippet
 * marks them. Done here rather than by ts_headline in the search statement: 0.3 ms of the
 * statement's 2.2 ms on PGlite (on its one thread) for a page's 24 titles.
 */
export function markedWords(text: string, sought: SnippetWords): string {
  const { whole, prefixes } = matchersOf(sought);
  const nextMatch = (from: number) =>
    Math.min(firstMatch(text, whole, from, true), firstMatch(text, prefixes, from, false));
  let out = "";
  let copied = 0;
  let upcoming = nextMatch(0);
  WORD.lastIndex = 0;
  for (let found = WORD.exec(text); found && upcoming !== Number.POSITIVE_INFINITY; found = WORD.exec(text)) {
    if (upcoming < found.index) upcoming = nextMatch(found.index);
    if (upcoming !== found.index) continue;
    const end = found.index + found[0].length;
    out += `${text.slice(copied, found.index)}${MARK_START}${found[0]}${MARK_END}`;
    copied = end;
    upcoming = nextMatch(end);
  }
  return out + text.slice(copied);
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
