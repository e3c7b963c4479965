/**
 * A PDF page's text in reading order: pdfjs gives runs of text with their position (a transform
 * whose last two numbers are x and y, from the page's bottom left). Runs on one baseline are a
 * line; lines go top to bottom, runs within a line left to right. Pure, so it is unit-tested.
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

/** The page's lines, top to bottom; empty lines dropped, each at most MAX_LINE_LENGTH, at most MAX_LINES. */
export function linesInReadingOrder(runs: readonly TextRun[]): string[] {
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
  const result: string[] = [];
  for (const line of lines) {
    line.sort((p, q) => p.x - q.x);
    let text = "";
    let previous: Placed | null = null;
    for (const item of line) {
      // A gap wider than a fifth of the font size is a space the PDF didn't write.
      const gap = previous ? item.x - previous.end : 0;
      if (previous && gap > item.size * 0.2 && !/\s$/.test(text) && !/^\s/.test(item.text)) text += " ";
      text += item.text;
      previous = item;
    }
    const clean = cleanText(text).slice(0, MAX_LINE_LENGTH);
    if (clean) result.push(clean);
  }
  if (result.length <= MAX_LINES) return result;
  // Past the limit, the rest of the page's words join the last line (as far as it holds them).
  const kept = result.slice(0, MAX_LINES - 1);
  kept.push(
    result
      .slice(MAX_LINES - 1)
      .join(" ")
      .slice(0, MAX_LINE_LENGTH),
  );
  return kept;
}
