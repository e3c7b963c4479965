import type { Card } from "../../../lib/card";
import { type CardClickHandler, SIDEBAR_THUMBNAIL } from "../sidebar-rows";
import { LazyThumbnail } from "./LazyThumbnail";

/** A sidebar column's cards, once its rows are here (issue 30: a part loaded with them, Sidebar.tsx). */
export function SidebarCards({
  cards,
  label,
  onCardClick,
}: {
  cards: Card[];
  label: string;
  onCardClick?: CardClickHandler | undefined;
}) {
  return (
    <ul className="sidebar__cards" aria-label={label}>
      {cards.map((card) => (
        <li key={card.path}>
          <a
            className="sidebar-card"
            href={card.path}
            data-card-type={card.type}
            onClick={onCardClick ? (event) => onCardClick(card, event) : undefined}
          >
            <LazyThumbnail
              src={card.thumbnail}
              hoverSrc={card.previewAnimation}
              width={SIDEBAR_THUMBNAIL.width}
              height={SIDEBAR_THUMBNAIL.height}
              className="sidebar-card__thumbnail"
            />
            <span className="sidebar-card__text">
              <span className="sidebar-card__title" style={{ WebkitLineClamp: card.titleLines }}>
                {card.title}
              </span>
              <span className="sidebar-card__subtitle" style={{ WebkitLineClamp: card.subTitleLines }}>
                {card.subTitle}
              </span>
            </span>
          </a>
        </li>
      ))}
    </ul>
  );
}
