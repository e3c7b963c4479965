import { useMemo } from "react";
import { useIntl } from "../i18n/intl";
import { type CardsShown, cardsToDraw } from "../lib/card";
import { cardListMarkup } from "./card-markup";
import { ServerMarkup } from "./ServerMarkup";

/** Issue 30: the cards in a row of the grid at its widest (1440 px), whose thumbnails load with the page. */
export const FIRST_ROW_CARDS = 4;

/**
 * Spec §3 Card: a list of cards (card-markup.ts draws them). Issue 32: in the browser the cards
 * are the server's markup, kept as it is (KeptCards); where they come as data, they are drawn
 * the same way, as markup.
 */
export function CardList({ cards, label, eager = 0 }: { cards: CardsShown; label: string; eager?: number }) {
  const intl = useIntl();
  const drawn = cardsToDraw(cards);
  const html = useMemo(
    () => (drawn === null ? undefined : cardListMarkup(drawn, label, eager, intl)),
    [drawn, label, eager, intl],
  );
  return <ServerMarkup className="card-list" html={html} />;
}
