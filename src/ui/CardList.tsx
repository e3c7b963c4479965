import type { Card } from "../lib/card";

/** Spec §3 Card, shown as a grid of links with thumbnails and line-limited text. */
export function CardList({ cards, label }: { cards: Card[]; label: string }) {
  return (
    <ul className="card-grid" aria-label={label}>
      {cards.map((card) => (
        <li key={card.path}>
          <a className="card" href={card.path}>
            <img className="card__thumbnail" src={card.thumbnail} alt="" width={640} height={360} loading="lazy" />
            <span className="card__body">
              <strong className="card__title" style={{ WebkitLineClamp: card.titleLines }}>
                {card.title}
              </strong>
              <span className="card__subtitle" style={{ WebkitLineClamp: card.subTitleLines }}>
                {card.subTitle}
              </span>
            </span>
          </a>
        </li>
      ))}
    </ul>
  );
}
