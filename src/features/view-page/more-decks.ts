import type { Card } from "../../lib/card";

/**
 * Issue 12: what the view page shows after the deck and before the promotional cards: more from its
 * author and related presentations (by shared tags), only listed ones (public or reusable, not
 * hidden), never the deck itself. Loaded from `/p/{oid}/more.json` as it nears the screen.
 */
export interface MoreDecksData {
  byAuthor: Card[];
  related: Card[];
}

/** How many cards each list shows. */
export const MORE_FROM_AUTHOR_COUNT = 4;
export const RELATED_COUNT = 4;

/** Where a view page loads its lists from. */
export function moreDecksPath(oid: string): string {
  return `/p/${oid}/more.json`;
}
