/**
 * A PDF page's text in reading order: pdfjs gives runs of text with their position (a transform
 * whose last two numbers are x and y, from the page's bottom left). Runs on one baseline are a
 * line; lines go top to bottom, runs within a line left to right; lines of one paragraph are
 * joined (issue 28 item 6). Pure, so it is unit-tested.
 */

/** What this needs of a pdfjs TextItem. */
export interface TextRun {
  str: string;
  /** [a, b, c, d, x, y] */
  transform: number[];
  width: number;
  height: number;
}

/** Longest line kept (the document's paragraph limit). */
export const MAX_LINE_LENGTH = 10_000;
/** Most lines kept per page (the document's paragraphs-per-text limit). */
export const MAX_LINES = 500;

/** Text Podium can store: no NUL or other control characters, no lone surrogates, spaces collapsed. */
export function cleanText(text: string): string {
  return (
    text
      // Control characters (a PDF may hold any byte) become spaces.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
      .replace(/[\u0000-\u001f\u007f-\u009f]/g, " ")
      .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "")
      .replace(/\s+/g, " ")
      .trim()
  );
}

interface Placed {
  text: string;
  x: number;
  y: number;
  end: number;
  size: number;
}

/** A line of a page: its text, baseline (y, upwards), left and right ends and font size. */
interface Line {
  text: string;
  y: number;
  x: number;
  end: number;
  size: number;
}

/** The page's lines with where they are, top to bottom; empty lines dropped, each at most MAX_LINE_LENGTH. */
function placedLines(runs: readonly TextRun[]): Line[] {
  const placed: Placed[] = [];
  for (const run of runs) {
    if (typeof run.str !== "string" || run.str === "") continue;
    const [a = 1, b = 0, c = 0, d = 1, x = 0, y = 0] = run.transform;
    if (![a, b, c, d, x, y].every(Number.isFinite)) continue;
    const size = Math.max(Math.hypot(c, d), Math.hypot(a, b), Number.isFinite(run.height) ? run.height : 0, 1);
    placed.push({ text: run.str, x, y, end: x + (Number.isFinite(run.width) ? run.width : 0), size });
  }
  // Top to bottom (y grows upwards in PDF space), then left to right.
  placed.sort((p, q) => q.y - p.y || p.x - q.x);
  const lines: Placed[][] = [];
  for (const item of placed) {
    const line = lines[lines.length - 1];
    const first = line?.[0];
    // Same line when the baselines are within half the smaller font size.
    if (line && first && Math.abs(first.y - item.y) <= Math.min(first.size, item.size) / 2) line.push(item);
    else lines.push([item]);
  }
  const result: Line[] = [];
  for (const line of lines) {
    line.sort((p, q) => p.x - q.x);
    let text = "";
    let previous: Placed | null = null;
    let size = 0;
    for (const item of line) {
      // A gap wider than a fifth of the font size is a space the PDF didn't write.
      const gap = previous ? item.x - previous.end : 0;
      if (previous && gap > item.size * 0.2 && !/\s$/.test(text) && !/^\s/.test(item.text)) text += " ";
      text += item.text;
      previous = item;
      if (item.text.trim() !== "") size = Math.max(size, item.size);
    }
    const clean = cleanText(text).slice(0, MAX_LINE_LENGTH);
    const first = line[0] as Placed;
    if (clean)
      result.push({
        text: clean,
        y: first.y,
        x: first.x,
        end: Math.max(...line.map((item) => item.end)),
        size: size || first.size,
      });
  }
  return result;
}

/** At most MAX_LINES texts: past the limit, the rest of the page's words join the last one (as far as it holds them). */
function withinLimits(texts: string[]): string[] {
  if (texts.length <= MAX_LINES) return texts;
  const kept = texts.slice(0, MAX_LINES - 1);
  kept.push(
    texts
      .slice(MAX_LINES - 1)
      .join(" ")
      .slice(0, MAX_LINE_LENGTH),
  );
  return kept;
}

/** The page's lines, top to bottom; empty lines dropped, each at most MAX_LINE_LENGTH, at most MAX_LINES. */
export function linesInReadingOrder(runs: readonly TextRun[]): string[] {
  return withinLimits(placedLines(runs).map((line) => line.text));
}

/** A page's lines with where they are, and where its text can be: what the paragraphs are made from. */
export interface PageText {
  lines: Line[];
  box: PageBox | null;
}

export function pageText(runs: readonly TextRun[], box: PageBox | null = null): PageText {
  return { lines: placedLines(runs), box: box && box.top > box.bottom ? box : null };
}

/** Which edge band of its page a line is in (EDGE_BAND of the page's height), and how far from that edge. */
function edgeOf(line: Line, box: PageBox | null): { edge: "top" | "bottom"; distance: number } | null {
  if (!box) return null;
  const band = (box.top - box.bottom) * EDGE_BAND;
  if (line.y >= box.top - band) return { edge: "top", distance: box.top - line.y };
  if (line.y <= box.bottom + band) return { edge: "bottom", distance: line.y - box.bottom };
  return null;
}

/**
 * A line as running headers and footers are compared: lower case, and a page number in it
 * (alone, or after a separator: "Annual Report | Page 7") read as "#".
 */
function runningKey(text: string): string {
  const lower = text.toLowerCase();
  if (isPageNumber(lower)) return "#";
  const numbered = /^(.*\S)\s*[|·•—–:]\s*(\S.*)$/u.exec(lower);
  if (numbered && isPageNumber(numbered[2] as string)) return `${numbered[1]} #`;
  return lower;
}

/** `edge:key` of a line that runs across the pages, as runningLines finds them. */
const runningId = (edge: string, key: string) => `${edge}:${key}`;

/**
 * Issue 28 item 6: running headers and footers. A line in a page's top or bottom band
 * (EDGE_BAND) whose text (runningKey: page numbers read alike) sits in the same band at about the
 * same place (within its font size) on at least RUNNING_SHARE of the pages, and on 2 pages at
 * least, runs across the pages: "ACME Annual Report 2026" at each page's top, "Page 3 of 17" at
 * its foot. Returns their `edge:key`s for paragraphsOf.
 */
export function runningLines(pages: readonly PageText[]): Set<string> {
  const seen = new Map<string, { page: number; distance: number; size: number }[]>();
  pages.forEach((page, index) => {
    for (const line of page.lines) {
      const at = edgeOf(line, page.box);
      if (!at || line.text.length > RUNNING_MAX_LENGTH) continue;
      const id = runningId(at.edge, runningKey(line.text));
      const list = seen.get(id) ?? [];
      if (list.at(-1)?.page !== index) list.push({ page: index, distance: at.distance, size: line.size });
      seen.set(id, list);
    }
  });
  const needed = Math.max(2, Math.ceil(pages.length * RUNNING_SHARE));
  const running = new Set<string>();
  for (const [id, list] of seen) {
    if (list.length < needed) continue;
    // At the same place: within a font size of where most of them are.
    const sorted = list.map((one) => one.distance).sort((a, b) => a - b);
    const middle = sorted[Math.floor(sorted.length / 2)] ?? 0;
    if (list.filter((one) => Math.abs(one.distance - middle) <= one.size).length >= needed) running.add(id);
  }
  return running;
}

/**
 * Issue 28 item 6: a page's text as paragraphs, as a reader would copy it, not one paragraph per
 * printed line. First the running headers and footers (`running`, from runningLines) and any page
 * number alone on a line in the page's top or bottom band ("7", "Page 7", "7 / 36", "- 7 -") are
 * left out. Then consecutive lines are one paragraph when they are of one font size (within
 * SIZE_TOLERANCE), the next line sits no further below than a line and a bit (LEADING_MAX × size;
 * once a paragraph has two lines, no more than JOIN_SPACING_SLACK × its own spacing), starts where
 * the paragraph's lines start (the first may be indented), isn't a list item (•, –, 1.), and the
 * line before didn't end a sentence well short of the column's right edge (a paragraph's last
 * line). Words broken at the end of a line are mended (mendLineBreak): "exam-" + "ple" is "example".
 */
export function paragraphsOf(page: PageText, running: ReadonlySet<string> = new Set()): string[] {
  const lines = page.lines.filter((line) => {
    const at = edgeOf(line, page.box);
    return !at || !(isPageNumber(line.text) || running.has(runningId(at.edge, runningKey(line.text))));
  });
  // Words written with a hyphen inside a line: a line broken after their hyphen keeps it.
  const hyphenated = new Set<string>();
  for (const line of lines)
    for (const word of line.text.matchAll(HYPHENATED_WORD)) hyphenated.add(word[0].toLowerCase());
  const paragraphs: { lines: Line[]; text: string; widest: number }[] = [];
  for (const line of lines) {
    const paragraph = paragraphs.at(-1);
    if (paragraph && continues(paragraph.lines, paragraph.widest, line, lines)) {
      const text = mendLineBreak(paragraph.text, line.text, hyphenated);
      if (text.length <= MAX_LINE_LENGTH) {
        paragraph.lines.push(line);
        paragraph.text = text;
        paragraph.widest = Math.max(paragraph.widest, line.end);
        continue;
      }
    }
    paragraphs.push({ lines: [line], text: line.text, widest: line.end });
  }
  return withinLimits(paragraphs.map((paragraph) => paragraph.text));
}

/** Where a page's text can be, in the text's own units (PDF points, y upwards). */
export interface PageBox {
  bottom: number;
  top: number;
}

/** The share of a page's height at its top and at its bottom where running headers, footers and page numbers sit. */
export const EDGE_BAND = 0.1;
/** A running header or footer is on at least this share of the pages. */
const RUNNING_SHARE = 0.5;
/** Longer lines are text, not a running header. */
const RUNNING_MAX_LENGTH = 200;
/** Lines of one paragraph: font sizes within this share of each other. */
const SIZE_TOLERANCE = 0.15;
/** The second line of a paragraph is at most this many font sizes below the first (leading of 1.2–1.5 is usual). */
const LEADING_MAX = 1.6;
/** Later lines: at most this many times the paragraph's own line spacing below the last. */
const JOIN_SPACING_SLACK = 1.2;
/** A first line may start up to this many font sizes right of the paragraph's other lines (an indent). */
const INDENT_MAX = 4;
/** A line ending a sentence this many font sizes short of the column's right edge ends its paragraph. */
const SHORT_LINE = 3;

/** A list item's start: a bullet, a dash, or a number or letter followed by "." or ")". */
const LIST_ITEM = /^(?:[•◦▪▫‣⁃∙·●○■□➢►✓✔*–—-]\s|(?:\d{1,3}|[a-zA-Z]|[ivxlcdm]{1,5})[.)]\s)/u;
/** A page number as a line of its own: "7", "Page 7", "p. 7", "7 / 36", "7 of 36", "- 7 -", "[7]". */
const PAGE_NUMBER = /^(?:(?:page|p\.|pg\.?)\s*)?[-–—([]?\s*\d{1,4}\s*[-–—)\]]?(?:\s*(?:\/|of)\s*\d{1,4})?$/iu;
/** Words with a hyphen inside: well-known, state-of-the-art. */
const HYPHENATED_WORD = /[\p{L}\p{M}]+(?:-[\p{L}\p{M}]+)+/gu;
/**
 * Words that take a hyphen after them (self-aware, well-known): a line broken after one of them
 * keeps the hyphen even where the page writes the word nowhere else.
 */
const HYPHEN_PREFIXES = new Set(["self", "well", "ill", "half", "cross", "non", "anti", "semi", "pre", "post", "co"]);

export function isPageNumber(text: string): boolean {
  return PAGE_NUMBER.test(text.trim());
}

function sameSize(a: number, b: number): boolean {
  return Math.abs(a - b) <= Math.max(a, b) * SIZE_TOLERANCE;
}

/** Whether `line` goes on the paragraph whose lines are `previous` (see paragraphsInReadingOrder). */
function continues(previous: readonly Line[], widest: number, line: Line, page: readonly Line[]): boolean {
  const last = previous.at(-1) as Line;
  const first = previous[0] as Line;
  if (!sameSize(last.size, line.size)) return false;
  const gap = last.y - line.y;
  const spacing = previous.length > 1 ? (previous.at(-2) as Line).y - last.y : null;
  if (gap <= 0 || gap > (spacing ? spacing * JOIN_SPACING_SLACK : line.size * LEADING_MAX)) return false;
  // Where the paragraph's lines start: its second line's start (the first may be indented).
  if (previous.length > 1) {
    const left = (previous[1] as Line).x;
    if (Math.abs(line.x - left) > line.size) return false;
  } else if (line.x < first.x - line.size * INDENT_MAX || line.x > first.x + line.size) return false;
  if (LIST_ITEM.test(line.text)) return false;
  // A sentence that ends well short of the column's right edge ends the paragraph.
  if (/[.!?:]["'’”)\]]?$/u.test(last.text)) {
    let right = widest;
    for (const other of page)
      if (sameSize(other.size, last.size) && Math.abs(other.x - line.x) <= line.size * INDENT_MAX)
        right = Math.max(right, other.end);
    if (last.end < right - last.size * SHORT_LINE) return false;
  }
  return true;
}

/**
 * Two lines of a paragraph as one text. A word broken at the line's end is mended:
 *  - a soft hyphen (U+00AD) there is always a break: "exam\u00ad" + "ple" is "example";
 *  - a hyphen right after a letter, with a lower-case letter starting the next line, is
 *    hyphenation and goes ("exam-" + "ple" is "example"), unless the hyphen is the word's own:
 *    the page writes the word with it elsewhere on a line ("well-known"), the part before is a
 *    word that takes a hyphen (HYPHEN_PREFIXES: "self-", "well-"), or it already holds one
 *    ("state-of-the-" + "art");
 *  - a hyphen before a capital or a digit stays, with no space ("Jean-" + "Paul", "COVID-" + "19");
 *  - otherwise the lines are joined by a space.
 */
export function mendLineBreak(before: string, after: string, hyphenated: ReadonlySet<string> = new Set()): string {
  if (before.endsWith("\u00ad")) return before.slice(0, -1) + after;
  const broken = /([\p{L}\p{M}]+(?:-[\p{L}\p{M}]+)*)-$/u.exec(before);
  if (!broken) return `${before} ${after}`;
  const head = broken[1] as string;
  const tail = /^[\p{L}\p{M}]+/u.exec(after)?.[0] ?? "";
  if (!/^\p{Ll}/u.test(tail)) return /^[\p{L}\p{N}]/u.test(after) ? before + after : `${before} ${after}`;
  const ownHyphen =
    head.includes("-") || HYPHEN_PREFIXES.has(head.toLowerCase()) || hyphenated.has(`${head}-${tail}`.toLowerCase());
  return ownHyphen ? before + after : before.slice(0, -1) + after;
}
