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
  WORD.lastIndex = 0;
  for (let found = WORD.exec(source); found; found = WORD.exec(source)) {
    const lower = found[0].toLowerCase();
    const matched = sought.whole.has(lower) || sought.prefixes.some((prefix) => lower.startsWith(prefix));
    const index = words.length;
    words.push({ start: found.index, end: found.index + found[0].length, matched });
    const last = passages.at(-1);
    if (matched && (!last || index >= last[1])) {
      const first = passageStart(source, words, Math.max(last ? last[1] : 0, index - WORDS_BEFORE_MATCH), index);
      passages.push([first, first + SNIPPET_WORDS]);
    }
    // Enough read: the last passage is full.
    const full = passages.at(-1);
    if (passages.length === SNIPPET_PASSAGES && full && words.length >= full[1]) break;
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
