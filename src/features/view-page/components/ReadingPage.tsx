import { type ReactNode, useEffect, useRef } from "react";
import { FormattedMessage } from "../../../i18n/intl";
import { ownerDisplayName } from "../../../lib/owner";
import { AVATAR_SIZE, Avatar } from "../../../ui/Avatar";
import { LinkButton } from "../../../ui/LinkButton";
import { ServerMarkup } from "../../../ui/ServerMarkup";
import { SiteLayout } from "../../../ui/SiteLayout";
import type { ReadingPageData } from "../reading-data";
import "../../presentation/components/slide/slide.css";
import "../../presentation/components/presentation.css";
import "./reading.css";
import { Icon } from "../../../ui/Icon";
import { LastModified } from "../../../ui/LastModified";

/**
 * Issue 12, reading mode: the presentation as a column of slides with their text, for reading on a
 * phone without presenting. The slides are drawn on the server (`slides`, ReadingSlides) and kept
 * as markup in the browser; this page's script only sizes them to the column.
 */
export function ReadingPage({ data, slides = null }: { data: ReadingPageData; slides?: ReactNode }) {
  const columnRef = useRef<HTMLDivElement>(null);

  // The slides scale by CSS from one number, the column's width: measured here, and again on resize.
  useEffect(() => {
    const column = columnRef.current;
    if (!column) return;
    const measure = () => {
      const frame = column.querySelector<HTMLElement>(".reading-slide__frame");
      const width = frame?.clientWidth ?? column.clientWidth;
      if (width > 0) column.style.setProperty("--frame", String(width));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(column);
    return () => observer.disconnect();
  }, []);

  return (
    <SiteLayout>
      <article className="reading" aria-labelledby="reading-title">
        <header className="reading__header">
          <p className="reading__kicker">
            <FormattedMessage id="reading.kicker" values={{ count: data.stepCount }} />
          </p>
          <h1 id="reading-title" className="reading__title">
            {data.title}
          </h1>
          <p className="reading__meta">
            <span className="reading__owner">
              <Avatar initials={data.owner.avatarInitials} color={data.owner.avatarColor} size={AVATAR_SIZE.overlay} />
              {data.owner.oid ? (
                <a href={`/user/${encodeURIComponent(data.owner.oid)}/`}>{ownerDisplayName(data.owner)}</a>
              ) : (
                <span>{ownerDisplayName(data.owner)}</span>
              )}
            </span>
            <span className="reading__date">
              <LastModified date={data.lastModified} />
            </span>
          </p>
          <p className="reading__actions">
            <a className="button button--primary" href={`${data.playerPath}#step=1`}>
              <Icon size={18} path="M8 5v14l11-7z" />
              <FormattedMessage id="player.present" />
            </a>
            <LinkButton href={data.playerPath} message="reading.backToPlayer" />
          </p>
        </header>
        <div ref={columnRef} className="reading__slides" style={{ ["--frame" as string]: data.frameWidth }}>
          <ServerMarkup className="reading__list">{slides}</ServerMarkup>
        </div>
      </article>
    </SiteLayout>
  );
}
