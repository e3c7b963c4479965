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

/** Word characters (letters, marks, digits), as the search reads words (search.ts). */
const WHOLE_WORD = /^[\p{L}\p{M}\p{N}]+$/u;
const WORD_CHARACTER = /^[\p{L}\p{M}\p{N}]$/u;
const HAS_WORD_CHARACTER = /[\p{L}\p{M}\p{N}]/u;
/** ASCII's word characters (letters and digits) by code: most text is read without an expression. */
const ASCII_WORD = new Uint8Array(128);
for (let code = 0; code < 128; code += 1) if (/[A-Za-z0-9]/.test(String.fromCharCode(code))) ASCII_WORD[code] = 1;

function isWordCodePoint(code: number): boolean {
  return code < 128 ? ASCII_WORD[code] === 1 : WORD_CHARACTER.test(String.fromCodePoint(code));
}

/** A word found by nextWord: where it starts and ends. */
export interface WordSpan {
  start: number;
  end: number;
}

/**
 * The first run of word characters at or after `from` (what /[\p{L}\p{M}\p{N}]+/gu finds from
 * lastIndex `from`, a start inside a surrogate pair included), written into `span`; false without
 * one. Read code by code, ASCII from a table: the expression cost a sixth of a search page's
 * snippets, 24 hits of two passages each.
 */
export function nextWord(source: string, from: number, span: WordSpan): boolean {
  const length = source.length;
  let at = from;
  // As the expression does: a start on the second half of a surrogate pair starts with its first half.
  if (at > 0 && at < length) {
    const code = source.charCodeAt(at);
    const before = source.charCodeAt(at - 1);
    if (code >= 0xdc00 && code <= 0xdfff && before >= 0xd800 && before <= 0xdbff) at -= 1;
  }
  for (;;) {
    if (at >= length) return false;
    const code = source.charCodeAt(at);
    if (code < 128) {
      if (ASCII_WORD[code] === 1) break;
      at += 1;
      continue;
    }
    const point = source.codePointAt(at) as number;
    if (isWordCodePoint(point)) break;
    at += point > 0xffff ? 2 : 1;
  }
  span.start = at;
  while (at < length) {
    const code = source.charCodeAt(at);
    if (code < 128) {
      if (ASCII_WORD[code] !== 1) break;
      at += 1;
      continue;
    }
    const point = source.codePointAt(at) as number;
    if (!isWordCodePoint(point)) break;
    at += point > 0xffff ? 2 : 1;
  }
  span.end = at;
  return true;
}

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
  const source = (list: Iterable<string>) =>
    [...list]
      .filter((word) => WHOLE_WORD.test(word))
      .sort((a, b) => b.length - a.length)
      .join("|");
  const whole = source(sought.whole);
  const prefixes = source(sought.prefixes);
  // The same words as prefixes (every word sought has 4 letters or more, none quoted): a whole
  // word's match is then also a prefix's, at the same place or later, so nextFound always takes
  // the prefix's and the text is read once rather than twice.
  found = {
    whole: whole === "" || whole === prefixes ? null : new RegExp(whole, "gi"),
    prefixes: prefixes === "" ? null : new RegExp(prefixes, "gi"),
  };
  matchers.set(sought, found);
  return found;
}

/** Whether the character that ends just before `index` (a letter, mark or digit) continues a word. */
function wordCharacterBefore(source: string, index: number): boolean {
  if (index <= 0) return false;
  const low = source.charCodeAt(index - 1);
  if (low < 128) return ASCII_WORD[low] === 1;
  const at = low >= 0xdc00 && low <= 0xdfff && index >= 2 ? index - 2 : index - 1;
  return isWordCodePoint(source.codePointAt(at) ?? 0);
}

function wordCharacterAt(source: string, index: number): boolean {
  return index < source.length && isWordCodePoint(source.codePointAt(index) ?? 0);
}

/** A sought word found in the text: where it starts and ends, and which sought word it is (lower case). */
interface Found {
  start: number;
  end: number;
  key: string;
}

/** The first match from `from` on that starts a word (and ends one, for whole words), or null. */
function firstFound(source: string, expression: RegExp | null, from: number, whole: boolean): Found | null {
  if (!expression) return null;
  expression.lastIndex = from;
  for (let found = expression.exec(source); found; found = expression.exec(source)) {
    const end = found.index + found[0].length;
    if (!wordCharacterBefore(source, found.index) && !(whole && wordCharacterAt(source, end)))
      return { start: found.index, end, key: found[0].toLowerCase() };
    expression.lastIndex = found.index + 1;
  }
  return null;
}

/** The first place from `from` on where a sought word starts (whole or as a prefix), or null. */
function nextFound(source: string, { whole, prefixes }: Matchers, from: number): Found | null {
  const a = firstFound(source, whole, from, true);
  const b = firstFound(source, prefixes, from, false);
  if (!a || !b) return a ?? b;
  // At the same place the whole word names the word sought ("sourdough" rather than its start "sourd").
  return b.start < a.start ? b : a;
}

/**
 * The matches of one text in order, each found once however often it is asked for (the best place,
 * then each passage's marks, ask for the same ones).
 */
class Occurrences {
  private readonly list: Found[] = [];
  private scannedTo = 0;
  private done = false;
  constructor(
    private readonly source: string,
    private readonly matchers: Matchers,
  ) {}

  /** The first match that starts at or after `from`, or null. */
  after(from: number): Found | null {
    const { list } = this;
    let low = 0;
    let high = list.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((list[middle] as Found).start < from) low = middle + 1;
      else high = middle;
    }
    if (low < list.length) return list[low] as Found;
    while (!this.done) {
      const next = nextFound(this.source, this.matchers, this.scannedTo);
      if (!next) this.done = true;
      else {
        list.push(next);
        this.scannedTo = next.end;
        if (next.start >= from) return next;
      }
    }
    return null;
  }

  /** Where the first match from `from` on starts (infinity without one). */
  startAfter(from: number): number {
    return this.after(from)?.start ?? Number.POSITIVE_INFINITY;
  }
}

/** Where the first passage should go, among the first matches of a text. */
const MATCHES_WEIGHED = 2_000;
/**
 * How far after a match the words that make it a good passage may be (issue 28 item 5): about
 * the SNIPPET_WORDS - WORDS_BEFORE_MATCH words a passage shows after its first match.
 */
const PASSAGE_REACH_CHARS = 120;

/**
 * Issue 28 item 5: where the first passage goes. "rule of twelfths" must show the slide that says
 * it, not the first "of" of the deck: the match that starts the place holding the most of the
 * different words sought within PASSAGE_REACH_CHARS, and of those the one whose words are closest
 * together ("sleep pressure" written together before "sleep … pressure" apart), then the earliest.
 * Reading stops at the first place that holds every word sought one after the other (for a single
 * word, its first match: no more is read than before).
 */
function bestStart(source: string, found: Occurrences, soughtCount: number): number | null {
  // One word sought: its first match (what the loop below returns at once, without its bookkeeping).
  if (soughtCount === 1) return found.after(0)?.start ?? null;
  const seen: Found[] = [];
  for (let match = found.after(0); match && seen.length < MATCHES_WEIGHED; ) {
    seen.push(match);
    if (soughtCount > 0 && seen.length >= soughtCount && everyWordOnce(source, seen, soughtCount))
      return (seen[seen.length - soughtCount] as Found).start;
    match = found.after(match.end);
  }
  let best: { start: number; distinct: number; span: number } | null = null;
  for (const [index, first] of seen.entries()) {
    const keys = new Set<string>();
    let span = 0;
    for (let next = index; next < seen.length; next += 1) {
      const one = seen[next] as Found;
      if (one.start >= first.start + PASSAGE_REACH_CHARS) break;
      if (!keys.has(one.key)) {
        keys.add(one.key);
        span = one.end - first.start;
      }
    }
    if (!best || keys.size > best.distinct || (keys.size === best.distinct && span < best.span))
      best = { start: first.start, distinct: keys.size, span };
  }
  return best ? best.start : null;
}

/** Whether the last `count` matches seen are every sought word once, one right after the other (no word between). */
function everyWordOnce(source: string, seen: readonly Found[], count: number): boolean {
  const from = seen.length - count;
  for (let i = from; i < seen.length; i += 1) {
    const one = seen[i] as Found;
    for (let j = from; j < i; j += 1) if ((seen[j] as Found).key === one.key) return false;
    if (i > from && HAS_WORD_CHARACTER.test(source.slice((seen[i - 1] as Found).end, one.start))) return false;
  }
  return true;
}

/**
 * The words read for one passage: where each starts and ends, and whether a sought word starts
 * there. One set of arrays reused by every passage (a passage's text is made before the next is
 * read): an object per word was a tenth of a search page's snippets, most of it for the words read
 * only to find where a passage starts.
 */
const read = {
  starts: new Int32Array(128),
  ends: new Int32Array(128),
  matched: new Uint8Array(128),
  length: 0,
};

function readWord(start: number, end: number): void {
  if (read.length === read.starts.length) {
    const grow = <Array extends Int32Array | Uint8Array>(array: Array, bigger: Array): Array => {
      bigger.set(array);
      return bigger;
    };
    read.starts = grow(read.starts, new Int32Array(read.length * 2));
    read.ends = grow(read.ends, new Int32Array(read.length * 2));
    read.matched = grow(read.matched, new Uint8Array(read.length * 2));
  }
  read.starts[read.length] = start;
  read.ends[read.length] = end;
  read.length += 1;
}

/** Text read before a passage's first match, to find where the passage starts (6 words, with room for long ones). */
const LOOKBACK_CHARS = 160;
/** The span nextWord writes while a passage is read. */
const wordRead: WordSpan = { start: 0, end: 0 };

/**
 * Reads the words of one passage into `read`, from `from` only (not from the text's start):
 * starting a few words before the match at `anchor` (or at the first word from `from`, without
 * one), SNIPPET_WORDS long, every word where a sought word starts marked. Returns the passage's
 * first word's place in `read` (it ends SNIPPET_WORDS later or at the last word read), or -1
 * without one. The words before the match are read backwards from it, as far as WORDS_BEFORE_MATCH
 * words: reading forwards from `from` read LOOKBACK_CHARS of text to use a few words of it.
 */
function passageFrom(source: string, found: Occurrences, from: number, anchor: number | null): number {
  read.length = 0;
  if (anchor === null) {
    readForward(source, from, true);
    markRead(found);
    return read.length > 0 ? 0 : -1;
  }
  // The match's word: the first whole word from the anchor on.
  const word = wordRead;
  if (!nextWord(source, anchor, word)) return -1;
  if (wordCharacterBefore(source, word.start) && !nextWord(source, word.end, word)) return -1;
  const matchStart = word.start;
  const matchEnd = word.end;
  // Words that start before `from` are not read (from the first half of a surrogate pair `from` is inside).
  const floor = from > 0 && isLowSurrogateAfterHigh(source, from) ? from - 1 : from;
  // The words before it, back to WORDS_BEFORE_MATCH of them, read last first, then turned.
  let before = matchStart;
  while (read.length < WORDS_BEFORE_MATCH) {
    const wordEnd = gapStart(source, before);
    if (wordEnd === 0) break;
    const wordStart = wordStartBefore(source, wordEnd);
    if (wordStart < floor) break;
    readWord(wordStart, wordEnd);
    before = wordStart;
  }
  reverseRead();
  readWord(matchStart, matchEnd);
  const first = passageStart(source, 0, read.length - 1);
  // The passage's words only, then on to SNIPPET_WORDS of them.
  if (first > 0) dropReadBefore(first);
  readForward(source, matchEnd, false);
  markRead(found);
  return 0;
}

/** Reads words from `position` on into `read` until it holds SNIPPET_WORDS (with `skipPartial`, not the rest of a word `position` is inside). */
function readForward(source: string, position: number, skipPartial: boolean): void {
  const word = wordRead;
  let at = position;
  let first = true;
  while (read.length < SNIPPET_WORDS && nextWord(source, at, word)) {
    at = word.end;
    if (first && skipPartial && wordCharacterBefore(source, word.start)) continue;
    first = false;
    readWord(word.start, at);
  }
}

/** Marks each word of `read` where a sought word starts. */
function markRead(found: Occurrences): void {
  const { starts, ends, matched } = read;
  let upcoming = read.length > 0 ? found.startAfter(starts[0] as number) : 0;
  for (let index = 0; index < read.length; index += 1) {
    const start = starts[index] as number;
    if (upcoming < start) upcoming = found.startAfter(start);
    const marked = upcoming === start;
    matched[index] = marked ? 1 : 0;
    if (marked) upcoming = found.startAfter(ends[index] as number);
  }
}

function reverseRead(): void {
  const { starts, ends } = read;
  for (let i = 0, j = read.length - 1; i < j; i += 1, j -= 1) {
    const start = starts[i] as number;
    const end = ends[i] as number;
    starts[i] = starts[j] as number;
    ends[i] = ends[j] as number;
    starts[j] = start;
    ends[j] = end;
  }
}

function dropReadBefore(first: number): void {
  read.starts.copyWithin(0, first, read.length);
  read.ends.copyWithin(0, first, read.length);
  read.length -= first;
}

/** Whether the code unit at `index` is the second half of a surrogate pair. */
function isLowSurrogateAfterHigh(source: string, index: number): boolean {
  const code = source.charCodeAt(index);
  const before = source.charCodeAt(index - 1);
  return code >= 0xdc00 && code <= 0xdfff && before >= 0xd800 && before <= 0xdbff;
}

/** Where the word that ends at `end` starts (the run of word characters before it, read backwards). */
function wordStartBefore(source: string, end: number): number {
  let at = end;
  while (at > 0 && wordCharacterBefore(source, at)) {
    const low = source.charCodeAt(at - 1);
    at -= low >= 0xdc00 && low <= 0xdfff && at >= 2 && isLowSurrogateAfterHigh(source, at - 1) ? 2 : 1;
  }
  return at;
}

/** Where reading for a passage whose match is at `anchor` starts, no earlier than `floor`. */
const readingStart = (anchor: number, floor: number) => Math.max(floor, anchor - LOOKBACK_CHARS);

/**
 * The snippet for `text` (plain text, its marker characters already taken out): up to
 * SNIPPET_PASSAGES passages of SNIPPET_WORDS words joined by " … " (and an ellipsis before or
 * after where the text goes on), with every matched word between MARK_START and MARK_END. The
 * first passage is where the words sought are found together (bestStart: the passage that
 * matches, issue 28 item 5), the second at the next match after it. A passage starts a few words
 * before its match, at a sentence's first word when one is near. Without a match (a hit found by
 * a word's start in its title), the text's first words. Whitespace runs read as one space. Only
 * the text around the passages is read word by word.
 */
export function markedSnippet(text: string, sought: SnippetWords): string {
  const source = text.length > SNIPPET_TEXT_MAX_CHARS ? text.slice(0, SNIPPET_TEXT_MAX_CHARS) : text;
  const found = new Occurrences(source, matchersOf(sought));
  const anchor = bestStart(source, found, sought.whole.size);
  const first = passageFrom(source, found, anchor === null ? 0 : readingStart(anchor, 0), anchor);
  if (first < 0) return "";
  const firstStart = read.starts[first] as number;
  let shown = passageText(source, first);
  let passages = 1;
  let after = read.ends[passageEnd(first) - 1] as number;
  while (anchor !== null && passages < SNIPPET_PASSAGES) {
    const next = found.after(after);
    if (!next) break;
    const start = passageFrom(source, found, readingStart(next.start, after), next.start);
    if (start < 0) break;
    shown += PASSAGE_DELIMITER + passageText(source, start);
    passages += 1;
    after = read.ends[passageEnd(start) - 1] as number;
  }
  // The punctuation that ends the last word goes with it; an ellipsis says where text was left out.
  // (Found from the last word on, not in a copy of the rest of the text.)
  SPACE.lastIndex = after;
  const endingEnd = SPACE.exec(source)?.index ?? source.length;
  const ending = source.slice(after, endingEnd);
  NOT_SPACE.lastIndex = endingEnd;
  const more = NOT_SPACE.test(source);
  // Words left out before the first passage (space or markup before the first word is not text left out).
  const skipped = gapStart(source, firstStart) > 0;
  return `${skipped ? `${ELLIPSIS} ` : ""}${shown}${ending}${more ? ` ${ELLIPSIS}` : ""}`;
}

/** Where the passage that starts at `first` in `read` ends (exclusive). */
const passageEnd = (first: number) => Math.min(read.length, first + SNIPPET_WORDS);

/** The first white space, and the first of anything else, from lastIndex on. */
const SPACE = /\s/g;
const NOT_SPACE = /\S/g;

/** Where the run of non-word characters before `index` starts (0: no word comes before). */
function gapStart(source: string, index: number): number {
  let at = index;
  while (at > 0 && !wordCharacterBefore(source, at)) at -= 1;
  return at;
}

/**
 * `text` whole (a title), with every sought word between MARK_START and MARK_END, as the snippet
 * marks them. Done here rather than by ts_headline in the search statement: 0.3 ms of the
 * statement's 2.2 ms on PGlite (on its one thread) for a page's 24 titles.
 */
export function markedWords(text: string, sought: SnippetWords): string {
  const found = matchersOf(sought);
  const nextMatch = (from: number) => nextFound(text, found, from)?.start ?? Number.POSITIVE_INFINITY;
  let out = "";
  let copied = 0;
  let upcoming = nextMatch(0);
  const word: WordSpan = { start: 0, end: 0 };
  while (upcoming !== Number.POSITIVE_INFINITY && nextWord(text, word.end, word)) {
    const { start, end } = word;
    if (upcoming < start) upcoming = nextMatch(start);
    if (upcoming !== start) continue;
    out += `${text.slice(copied, start)}${MARK_START}${text.slice(start, end)}${MARK_END}`;
    copied = end;
    upcoming = nextMatch(end);
  }
  return out + text.slice(copied);
}

/**
 * Where a passage before the match at `match` (a place in `read`) starts, from `earliest` on: at a
 * sentence's first word if one is there, else at the first word that follows a space (never in
 * the middle of "baker's" or "well-known").
 */
function passageStart(source: string, earliest: number, match: number): number {
  // The first word read may not be the text's first: what comes before it is read from the text.
  const gapBefore = (index: number) => {
    const start = read.starts[index] as number;
    const from = index === 0 ? gapStart(source, start) : (read.ends[index - 1] as number);
    return from === 0 && index === 0 ? "\n" : source.slice(from, start);
  };
  for (let index = earliest; index <= match; index += 1) {
    if (/[.!?]\s|\n/.test(gapBefore(index))) return index;
  }
  for (let index = earliest; index <= match; index += 1) {
    if (/\s/.test(gapBefore(index))) return index;
  }
  return match;
}

/**
 * The passage that starts at `first` in `read`, as text: its words as written, the space between
 * two words as one space, every matched word between the markers. Copied from the text in runs (a
 * run ends only at a marked word or at space that isn't one plain space), not word by word.
 */
function passageText(source: string, first: number): string {
  const end = passageEnd(first);
  const { starts, ends, matched } = read;
  let out = "";
  let copied = starts[first] as number;
  for (let index = first; index < end; index += 1) {
    const start = starts[index] as number;
    if (index > first) {
      const gapFrom = ends[index - 1] as number;
      // Most words are apart by one space, copied with the run.
      if (start - gapFrom !== 1 || source.charCodeAt(gapFrom) !== SPACE_CODE) {
        const between = source.slice(gapFrom, start);
        out += `${source.slice(copied, gapFrom)}${between.trim() === "" ? " " : between.replace(/\s+/g, " ")}`;
        copied = start;
      }
    }
    if (matched[index] === 1) {
      const wordEnd = ends[index] as number;
      out += `${source.slice(copied, start)}${MARK_START}${source.slice(start, wordEnd)}${MARK_END}`;
      copied = wordEnd;
    }
  }
  return out + source.slice(copied, ends[end - 1] as number);
}

const SPACE_CODE = 32;
