import { type Ref, useCallback, useEffect, useRef, useState } from "react";
import { FormattedMessage, useIntl } from "../../../i18n/intl";
import type { MessageId } from "../../../i18n/locales";
import type { Card } from "../../../lib/card";
import { loadedWhereShown } from "../../../ui/LoadedWhereShown";
import { whenNearScreen } from "../../../ui/near-screen";
import { type CardClickHandler, SIDEBAR_LOAD_AHEAD_PX, type SidebarRows, sidebarRowsPath } from "../sidebar-rows";
import "./sidebar.css";

/**
 * Issue 30 item 1: the cards (and their thumbnails' code) load with the rows, once the sidebar
 * comes near the screen; the server never draws them (its page holds the rows' room).
 */
export const SidebarCards = loadedWhereShown(
  import.meta.env.SSR ? (await import("./SidebarCards")).SidebarCards : null,
  () => import("./SidebarCards").then((module) => module.SidebarCards),
);

/** The sidebar's columns, by the id their heading carries (`sidebar-{id}`). */
export const COLUMN = { videos: "videos", templates: "templates", picks: "picks" } as const;
type ColumnId = (typeof COLUMN)[keyof typeof COLUMN];

/** Each column's heading, its See more link's words, and the catalogue page that link goes to. */
const COLUMN_LINKS: Record<ColumnId, { titleId: MessageId; moreId: MessageId; moreHref: string }> = {
  videos: { titleId: "sidebar.videos", moreId: "sidebar.moreVideos", moreHref: "/video/explore/" },
  templates: { titleId: "sidebar.templates", moreId: "sidebar.moreTemplates", moreHref: "/presentation-template/" },
  picks: { titleId: "sidebar.staffPicks", moreId: "sidebar.morePicks", moreHref: "/gallery/" },
};

/**
 * Where the rows are: not asked for yet (the server's page, and a page the visitor hasn't scrolled
 * near), on their way, drawn, or failed (with Retry).
 */
export type SidebarState = "waiting" | "loading" | "loaded" | "error";

/**
 * Spec §2 sidebar: 10 videos, 15 templates and the staff picks, each with a See more link. Until its
 * rows are there (`rows` null) each column holds their room (sidebar's placeholder: no layout shift
 * when they come) and its See more link, a plain link to the catalogue page: without JavaScript the
 * sidebar is its headings and those links.
 */
export function Sidebar({
  rows,
  state,
  onRetry,
  onCardClick,
  ref,
}: {
  rows: SidebarRows | null;
  state: SidebarState;
  onRetry?: () => void;
  onCardClick?: CardClickHandler;
  ref?: Ref<HTMLElement>;
}) {
  const intl = useIntl();
  const pending = state === "waiting" || state === "loading";
  const cards: Record<ColumnId, Card[]> | null = rows && {
    videos: rows.sidebar.videos,
    templates: rows.sidebar.templates,
    picks: rows.topPicks,
  };
  return (
    <aside
      ref={ref}
      className="sidebar"
      aria-label={intl.formatMessage({ id: "sidebar.label" })}
      aria-busy={state === "loading" ? true : undefined}
      data-state={state}
      tabIndex={-1}
    >
      {state === "error" ? (
        <div className="sidebar__error" role="alert">
          <p>
            <FormattedMessage id="sidebar.loadError" />
          </p>
          <button type="button" className="button" onClick={onRetry}>
            <FormattedMessage id="sidebar.retry" />
          </button>
        </div>
      ) : null}
      {Object.values(COLUMN).map((id) => (
        <SidebarColumn key={id} id={id} cards={cards?.[id] ?? null} pending={pending} onCardClick={onCardClick} />
      ))}
    </aside>
  );
}

/**
 * Issue 11: the view page's sidebar, its rows fetched from `/p/{oid}/sidebar.json` once it comes
 * within 600 px of the viewport (at once beside the deck from 992 px; on a phone, below the
 * transcript, when the visitor scrolls towards it).
 */
export function LazySidebar({ oid, onCardClick }: { oid: string; onCardClick?: CardClickHandler }) {
  const ref = useRef<HTMLElement>(null);
  // How many times the rows were asked for: 0 until the sidebar comes near, then one more per Retry.
  const [requests, setRequests] = useState(0);
  const [rows, setRows] = useState<SidebarRows | null>(null);
  const [state, setState] = useState<SidebarState>("waiting");
  const near = requests > 0;

  useEffect(() => {
    const place = ref.current;
    if (!place || near) return;
    return whenNearScreen(place, SIDEBAR_LOAD_AHEAD_PX, () => setRequests(1));
  }, [near]);

  useEffect(() => {
    if (requests === 0) return;
    const abort = new AbortController();
    setState("loading");
    // The cards' code comes with the rows, so they are drawn at once when both are here.
    const cardsPart = SidebarCards.preload();
    fetch(sidebarRowsPath(oid), { headers: { accept: "application/json" }, signal: abort.signal })
      .then(async (response) => {
        if (!response.ok) throw new Error(`Podium: the sidebar's rows answered ${response.status}.`);
        const loaded = (await response.json()) as SidebarRows;
        await cardsPart;
        if (abort.signal.aborted) return;
        setRows(loaded);
        setState("loaded");
      })
      .catch(() => {
        // Offline, or the server failed: the page works without its suggestions; Retry asks again.
        if (!abort.signal.aborted) setState("error");
      });
    return () => abort.abort();
  }, [requests, oid]);

  const retry = useCallback(() => {
    setRequests((n) => n + 1);
    // The Retry button goes with the error: keep the keyboard's place in the sidebar.
    ref.current?.focus();
  }, []);

  return <Sidebar ref={ref} rows={rows} state={state} onRetry={retry} onCardClick={onCardClick} />;
}

function SidebarColumn({
  id,
  cards,
  pending,
  onCardClick,
}: {
  id: ColumnId;
  /** Null until the rows are there. */
  cards: Card[] | null;
  pending: boolean;
  onCardClick?: CardClickHandler;
}) {
  const intl = useIntl();
  const { titleId, moreId, moreHref } = COLUMN_LINKS[id];
  // Loaded without any (no staff picks yet): no column.
  if (cards?.length === 0) return null;
  return (
    <section className="sidebar__column" aria-labelledby={`sidebar-${id}`} data-column={id}>
      <h2 id={`sidebar-${id}`}>
        <FormattedMessage id={titleId} />
      </h2>
      {cards ? (
        <SidebarCards cards={cards} label={intl.formatMessage({ id: titleId })} onCardClick={onCardClick} />
      ) : pending ? (
        // The row's room, drawn as quiet empty cards while it loads (CSS, only where scripts run).
        <div className="sidebar__placeholder" />
      ) : null}
      <a className="sidebar__more" href={moreHref}>
        <FormattedMessage id={moreId} />
      </a>
    </section>
  );
}
