/** Spec §3 Card: what the sidebars and lists show for a template, video or presentation. */
export interface Card {
  title: string;
  subTitle: string;
  /** Same-origin path the card opens. */
  path: string;
  /** Same-origin image URL. */
  thumbnail: string;
  type: "TEMPLATE" | "VIDEO" | "PRESENTATION";
  /** A video preview played on hover, when there is one. */
  previewAnimation: string | null;
  titleLines: number;
  subTitleLines: number;
  /** Issue 12: a presentation card in a list (home, explore, search, profiles) shows its numbers and date. */
  stats?: CardStats;
  /**
   * Issue 15 item 3: a search hit's title and snippet with the matched words between MARK_START
   * and MARK_END (shown as <mark>, always as text).
   */
  marked?: { title: string; snippet: string };
}

/** Highlight markers (issue 15): private-use characters no title keeps (search strips them first). */
export const MARK_START = "\uE000";
export const MARK_END = "\uE001";

/** Splits marked text into plain and highlighted runs, in order. */
export function markedRuns(text: string): { text: string; marked: boolean }[] {
  const runs: { text: string; marked: boolean }[] = [];
  let current = "";
  let marked = false;
  for (const char of text) {
    if (char === MARK_START || char === MARK_END) {
      if (current) runs.push({ text: current, marked });
      current = "";
      marked = char === MARK_START;
    } else current += char;
  }
  if (current) runs.push({ text: current, marked });
  return runs;
}

export interface CardStats {
  views: number;
  likes: number;
  /** ISO 8601 instant; shown in the visitor's language. */
  lastModified: string;
}
