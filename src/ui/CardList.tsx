import { FormattedDate, FormattedMessage, FormattedNumber } from "../i18n/intl";
import { type CardStats, type CardsShown, cardsToDraw, markedRuns } from "../lib/card";
import { ServerMarkup } from "./ServerMarkup";

/**
 * Spec §3 Card, shown as a grid of links with thumbnails and line-limited text. Issue 12: the title
 * sits below the thumbnail, two lines at most (the whole of it in the link's tooltip and accessible
 * name), and a presentation's card says its views, likes and date in the visitor's language.
 * `eager`: how many of the first cards' thumbnails load with the page (the first list on a page: a row).
 */
/** Issue 30: the cards in a row of the grid at its widest (1440 px), whose thumbnails load with the page. */
export const FIRST_ROW_CARDS = 4;

export function CardList({ cards, label, eager = 0 }: { cards: CardsShown; label: string; eager?: number }) {
  const drawn = cardsToDraw(cards);
  // Issue 32: in the browser the cards are the server's markup, kept as it is (KeptCards).
  return (
    <ServerMarkup className="card-list">
      {drawn === null ? null : (
        <ul className="card-grid" aria-label={label}>
          {drawn.map((card, index) => (
            <li key={card.path}>
              <a className="card" href={card.path} title={card.title}>
                <img
                  className="card__thumbnail"
                  src={card.thumbnail}
                  alt=""
                  width={640}
                  height={360}
                  // Issue 30: the first row of the page's first list is on screen at once (often its
                  // largest paint): asked for with the page, not when layout finds it near the screen.
                  loading={index < eager ? undefined : "lazy"}
                />
                <span className="card__body">
                  <strong className="card__title" style={{ WebkitLineClamp: card.titleLines }}>
                    {card.marked ? <Marked text={card.marked.title} /> : card.title}
                  </strong>
                  <span className="card__subtitle" style={{ WebkitLineClamp: card.subTitleLines }}>
                    {card.subTitle}
                  </span>
                  {card.marked?.snippet ? (
                    <span className="card__snippet">
                      <Marked text={card.marked.snippet} />
                    </span>
                  ) : null}
                  {card.stats ? <CardFacts stats={card.stats} /> : null}
                </span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </ServerMarkup>
  );
}

function CardFacts({ stats }: { stats: CardStats }) {
  return (
    <span className="card__facts">
      {stats.views > 0 ? (
        <span>
          <FormattedMessage
            id="presentation.viewsCount"
            values={{ count: stats.views, formatted: <FormattedNumber value={stats.views} notation="compact" /> }}
          />
        </span>
      ) : null}
      <span>
        <FormattedMessage
          id="card.likes"
          values={{ count: stats.likes, formatted: <FormattedNumber value={stats.likes} notation="compact" /> }}
        />
      </span>
      <span>
        <time dateTime={stats.lastModified}>
          {/* Issue 28: this year's dates without the year, so the facts fit one line on a card. */}
          <FormattedDate
            value={stats.lastModified}
            month="short"
            day="numeric"
            year={new Date(stats.lastModified).getUTCFullYear() === new Date().getUTCFullYear() ? undefined : "numeric"}
            timeZone="UTC"
          />
        </time>
      </span>
    </span>
  );
}

/** Issue 15: a search hit's text with its matched words in <mark>; every run is a text node. */
function Marked({ text }: { text: string }) {
  return (
    <>
      {markedRuns(text).map((run, index) =>
        // Runs never move: their place in the text is their identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: a run's position is its key
        run.marked ? <mark key={index}>{run.text}</mark> : <span key={index}>{run.text}</span>,
      )}
    </>
  );
}
