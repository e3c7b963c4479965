import type { Locale } from "../i18n/locales";

/** One hydration entry per page kind; Vite builds each, the server links each page to its own. */
export const CLIENT_ENTRIES = {
  home: "src/client/home.tsx",
  presentation: "src/client/presentation.tsx",
  embed: "src/client/embed.tsx",
  view: "src/client/view.tsx",
  presenter: "src/client/presenter.tsx",
  live: "src/client/live.tsx",
  reading: "src/client/reading.tsx",
  accounts: "src/client/accounts.tsx",
  dashboard: "src/client/dashboard.tsx",
  explore: "src/client/explore.tsx",
  catalog: "src/client/catalog.tsx",
  moderation: "src/client/moderation.tsx",
  editor: "src/client/editor.tsx",
  error: "src/client/error.tsx",
} as const;

export type ClientEntry = keyof typeof CLIENT_ENTRIES;

/** The id of the <script type="application/json"> that carries a page's boot data. */
export const BOOT_DATA_ID = "podium-boot";
/** The id of the element React renders into. */
export const ROOT_ID = "root";

/**
 * Issue 11: each language's message catalogue is a content-hashed file of the client build
 * (/static/messages-{locale}-{hash}.json, cached for a year and shared by every page), not a copy
 * in every page. Vite's manifest lists it under this key; the server links the page's language.
 */
export function messagesAssetKey(locale: Locale): string {
  return `src/i18n/messages/${locale}.json`;
}
