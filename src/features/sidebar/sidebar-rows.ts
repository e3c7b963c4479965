import type { MouseEvent } from "react";
import type { Card } from "../../lib/card";
import type { SidebarData } from "./service";

/**
 * Issue 11: the view page's promotional rows (spec §2 / R2.15: 10 videos, 15 templates and the staff
 * picks) are not in its HTML, which stays within 40 KB: they are the page data's `sidebar` and
 * `topPicks` (spec §3), sent after the page from `/p/{oid}/sidebar.json` and drawn by the same Sidebar.
 * The staff picks never include the deck the page shows.
 */
export interface SidebarRows {
  sidebar: SidebarData;
  topPicks: Card[];
}

/** Where a view page loads its promotional rows from. */
export function sidebarRowsPath(oid: string): string {
  return `/p/${oid}/sidebar.json`;
}

/** Issue 11: the rows load when the sidebar comes within this distance of the viewport (IntersectionObserver). */
export const SIDEBAR_LOAD_AHEAD_PX = 600;

/** Spec §9 (R9.10): a sidebar thumbnail is 170×95.63 px (sidebar.css draws it at this size). */
export const SIDEBAR_THUMBNAIL = { width: 170, height: 95.63 } as const;

/** Spec §4: the page logs a card's opening (presentation card opened) before following it. */
export type CardClickHandler = (card: Card, event: MouseEvent<HTMLAnchorElement>) => void;
