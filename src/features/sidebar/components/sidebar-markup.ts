import type { Card } from "../../../lib/card";
import type { SidebarData } from "../service";

/** The sidebar's columns, by the id their heading carries (`sidebar-{id}`). */
export const COLUMN = { videos: "videos", templates: "templates", picks: "picks" } as const;
const CARD_TYPES: readonly Card["type"][] = ["TEMPLATE", "VIDEO", "PRESENTATION"];

/**
 * Issue 11: the sidebar's cards as its server-rendered markup shows them, so the view page's boot
 * data needn't carry them a second time (page-data.ts `presentationBootData`). The browser entry
 * reads them before hydrating, and the same Sidebar renders the same markup from them: every field
 * of a card is in its markup (sidebar.test.tsx renders, reads back and compares). No sidebar in the
 * page: null and no staff picks.
 */
export function sidebarFromMarkup(root: ParentNode): { sidebar: SidebarData | null; topPicks: Card[] } {
  if (!root.querySelector("aside.sidebar")) return { sidebar: null, topPicks: [] };
  const column = (id: string): Card[] => {
    const list = root.querySelector(`#sidebar-${id}`)?.closest("section")?.querySelector(".sidebar__cards");
    return [...(list?.querySelectorAll<HTMLAnchorElement>("a.sidebar-card") ?? [])].map(cardFromMarkup);
  };
  return {
    sidebar: { videos: column(COLUMN.videos), templates: column(COLUMN.templates) },
    topPicks: column(COLUMN.picks),
  };
}

function cardFromMarkup(link: HTMLAnchorElement): Card {
  const thumbnail = link.querySelector<HTMLElement>("[data-src]");
  const title = link.querySelector<HTMLElement>(".sidebar-card__title");
  const subTitle = link.querySelector<HTMLElement>(".sidebar-card__subtitle");
  const type = CARD_TYPES.find((known) => known === link.dataset.cardType);
  if (!thumbnail || !title || !subTitle || !type) throw new Error("Podium: a sidebar card's markup is incomplete.");
  return {
    title: title.textContent ?? "",
    subTitle: subTitle.textContent ?? "",
    path: link.getAttribute("href") ?? "",
    thumbnail: thumbnail.dataset.src ?? "",
    type,
    previewAnimation: thumbnail.dataset.hoverSrc ?? null,
    titleLines: Number(title.style.getPropertyValue("-webkit-line-clamp")),
    subTitleLines: Number(subTitle.style.getPropertyValue("-webkit-line-clamp")),
  };
}
