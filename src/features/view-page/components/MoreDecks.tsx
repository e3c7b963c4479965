import { type MouseEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { FormattedMessage } from "../../../i18n/intl";
import type { Card } from "../../../lib/card";
import { whenNearScreen } from "../../../ui/near-screen";
import { type MoreDecksData, moreDecksPath } from "../more-decks";

/** Start loading a little before the lists come into view. */
const LOAD_AHEAD_PX = 300;

/**
 * Issue 12: "More from {author}" and related presentations, after the deck and before the
 * promotional cards. Not in the page's HTML (the view page stays within its 40 KB): fetched from
 * `/p/{oid}/more.json` once its place nears the screen (IntersectionObserver).
 * Issue 28: the page data says how many cards each list will have (`expected`), so until they
 * come each list is its heading and as many empty cards of the same fixed height: nothing moves.
 */
export function MoreDecks({
  oid,
  ownerName,
  expected,
  onCardClick,
}: {
  oid: string;
  ownerName: string;
  expected: { byAuthor: number; related: number } | null;
  onCardClick?: (card: Card, event: MouseEvent<HTMLAnchorElement>) => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [data, setData] = useState<MoreDecksData | null>(null);

  useEffect(() => {
    const place = ref.current;
    if (!place) return;
    let cancelled = false;
    const load = () => {
      fetch(moreDecksPath(oid), { headers: { accept: "application/json" } })
        .then((response) => {
          if (!response.ok) throw new Error(`Podium: the lists answered ${response.status}.`);
          return response.json() as Promise<MoreDecksData>;
        })
        .then((loaded) => {
          if (!cancelled) setData(loaded);
        })
        // Nothing to show then (never empty cards for good): the lists are a suggestion, the page
        // works without them.
        .catch(() => {
          if (!cancelled) setData({ byAuthor: [], related: [] });
        });
    };
    const stopWatching = whenNearScreen(place, LOAD_AHEAD_PX, load);
    return () => {
      cancelled = true;
      stopWatching();
    };
  }, [oid]);

  return (
    <div ref={ref} className="more-decks" data-state={data ? "loaded" : "waiting"}>
      {(data ? data.byAuthor.length : (expected?.byAuthor ?? 0)) > 0 ? (
        <DeckList
          id="more-from-author"
          title={<FormattedMessage id="viewPage.moreFromAuthor" values={{ name: ownerName }} />}
          cards={data ? data.byAuthor : (expected?.byAuthor ?? 0)}
          onCardClick={onCardClick}
        />
      ) : null}
      {(data ? data.related.length : (expected?.related ?? 0)) > 0 ? (
        <DeckList
          id="related-presentations"
          title={<FormattedMessage id="viewPage.related" />}
          cards={data ? data.related : (expected?.related ?? 0)}
          onCardClick={onCardClick}
        />
      ) : null}
    </div>
  );
}

function DeckList({
  id,
  title,
  cards,
  onCardClick,
}: {
  id: string;
  title: ReactNode;
  /** The cards, or how many are coming (as many empty cards of the same height meanwhile). */
  cards: Card[] | number;
  onCardClick?: ((card: Card, event: MouseEvent<HTMLAnchorElement>) => void) | undefined;
}) {
  return (
    <section className="sidebar__column more-decks__list" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <ul className="more-decks__cards" aria-labelledby={id}>
        {typeof cards === "number"
          ? Array.from({ length: cards }, (_, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholders, replaced as a whole
              <li key={index} className="more-card more-card--placeholder" aria-hidden="true" />
            ))
          : cards.map((card) => (
              <li key={card.path}>
                <a
                  className="more-card"
                  href={card.path}
                  title={card.title}
                  onClick={onCardClick ? (event) => onCardClick(card, event) : undefined}
                >
                  <img
                    className="more-card__thumbnail"
                    src={card.thumbnail}
                    alt=""
                    width={128}
                    height={72}
                    loading="lazy"
                    decoding="async"
                  />
                  <span className="more-card__text">
                    <span className="more-card__title">{card.title}</span>
                    <span className="more-card__subtitle">{card.subTitle}</span>
                  </span>
                </a>
              </li>
            ))}
      </ul>
    </section>
  );
}
