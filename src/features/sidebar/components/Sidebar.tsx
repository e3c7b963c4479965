import type { MouseEvent } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import type { MessageId } from "../../../i18n/locales";
import type { Card } from "../../../lib/card";
import type { SidebarData } from "../service";
import { LazyThumbnail } from "./LazyThumbnail";
import { COLUMN } from "./sidebar-markup";
import "./sidebar.css";

/** Spec §9 (R9.10): a sidebar thumbnail is 170×95.63 px (sidebar.css draws it at this size). */
export const SIDEBAR_THUMBNAIL = { width: 170, height: 95.63 } as const;

/** Spec §4: the page logs a card's opening (presentation card opened) before following it. */
export type CardClickHandler = (card: Card, event: MouseEvent<HTMLAnchorElement>) => void;

/** Spec §2 sidebar: 10 videos, 15 templates and the staff picks, each with a See more link. */
export function Sidebar({
  data,
  topPicks,
  onCardClick,
}: {
  data: SidebarData;
  topPicks: Card[];
  onCardClick?: CardClickHandler;
}) {
  const intl = useIntl();
  return (
    <aside className="sidebar" aria-label={intl.formatMessage({ id: "sidebar.label" })}>
      <SidebarColumn
        id={COLUMN.videos}
        titleId="sidebar.videos"
        moreId="sidebar.moreVideos"
        moreHref="/video/explore/"
        cards={data.videos}
        thumbnail={SIDEBAR_THUMBNAIL}
        onCardClick={onCardClick}
      />
      <SidebarColumn
        id={COLUMN.templates}
        titleId="sidebar.templates"
        moreId="sidebar.moreTemplates"
        moreHref="/presentation-template/"
        cards={data.templates}
        thumbnail={SIDEBAR_THUMBNAIL}
        onCardClick={onCardClick}
      />
      {topPicks.length > 0 ? (
        <SidebarColumn
          id={COLUMN.picks}
          titleId="sidebar.staffPicks"
          moreId="sidebar.morePicks"
          moreHref="/gallery/"
          cards={topPicks}
          thumbnail={SIDEBAR_THUMBNAIL}
          onCardClick={onCardClick}
        />
      ) : null}
    </aside>
  );
}

function SidebarColumn({
  id,
  titleId,
  moreId,
  moreHref,
  cards,
  thumbnail,
  onCardClick,
}: {
  id: (typeof COLUMN)[keyof typeof COLUMN];
  titleId: MessageId;
  moreId: MessageId;
  moreHref: string;
  cards: Card[];
  thumbnail: { width: number; height: number };
  onCardClick?: CardClickHandler;
}) {
  const intl = useIntl();
  if (cards.length === 0) return null;
  return (
    <section className="sidebar__column" aria-labelledby={`sidebar-${id}`}>
      <h2 id={`sidebar-${id}`}>
        <FormattedMessage id={titleId} />
      </h2>
      <ul className="sidebar__cards" aria-label={intl.formatMessage({ id: titleId })}>
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
                width={thumbnail.width}
                height={thumbnail.height}
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
      <a className="sidebar__more" href={moreHref}>
        <FormattedMessage id={moreId} />
      </a>
    </section>
  );
}
