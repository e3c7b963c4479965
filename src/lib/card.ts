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

/**
 * Issue 32: a page's list of cards as its browser gets it. The cards are plain links (no state, no
 * handlers), so they travel once, as the page's markup, which hydration keeps (ui/ServerMarkup):
 * the boot JSON says only how many there are. The server renders from the cards themselves.
 */
export interface KeptCards {
  kept: number;
}
export type CardsShown = readonly Card[] | KeptCards;

const isKept = (cards: CardsShown): cards is KeptCards => "kept" in cards;

export function cardCount(cards: CardsShown): number {
  return isKept(cards) ? cards.kept : cards.length;
}

/** The cards from `start` to `end` (0 ≤ start ≤ end, as Array.slice); of kept cards, how many of them. */
export function cardSlice(cards: CardsShown, start: number, end: number): CardsShown {
  if (!isKept(cards)) return cards.slice(start, end);
  const from = Math.min(start, cards.kept);
  return { kept: Math.max(0, Math.min(end, cards.kept) - from) };
}

/** A list as the boot JSON carries it (its markup is in the page). */
export function keptCards(cards: CardsShown): KeptCards {
  return { kept: cardCount(cards) };
}

/** The cards to draw, or null where the page's markup already holds them. */
export function cardsToDraw(cards: CardsShown): readonly Card[] | null {
  return isKept(cards) ? null : cards;
}

/** Highlight markers (issue 15): private-use characters no title keeps (search strips them first). */
export const MARK_START = "\uE000";
export const MARK_END = "\uE001";

/**
 * Splits marked text into plain and highlighted runs, in order: each marker starts (MARK_START) or
 * ends (MARK_END) a highlighted run. Found with indexOf and cut with slice: a search page's 24
 * snippets went through it character by character at a twelfth of the page's render.
 */
export function markedRuns(text: string): { text: string; marked: boolean }[] {
  const runs: { text: string; marked: boolean }[] = [];
  let marked = false;
  let from = 0;
  for (;;) {
    const start = text.indexOf(MARK_START, from);
    const end = text.indexOf(MARK_END, from);
    const next = start < 0 ? end : end < 0 ? start : Math.min(start, end);
    if (next < 0) break;
    if (next > from) runs.push({ text: text.slice(from, next), marked });
    marked = next === start;
    from = next + 1;
  }
  if (from < text.length) runs.push({ text: text.slice(from), marked });
  return runs;
}

export interface CardStats {
  views: number;
  likes: number;
  /** ISO 8601 instant; shown in the visitor's language. */
  lastModified: string;
}
