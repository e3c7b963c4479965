import type { Queryable } from "../../db/client";
import type { Card } from "../../lib/card";
import { escapeHtml } from "../../lib/html";
import { type ContentChanges, SHOWCASE_TAG, VIDEOS_TAG } from "../content-changes";
import { listTemplates, type PresentationSummary } from "../presentation/repository";
import { thumbnailPathOf } from "../presentation/service";
import { cachedUntilChange } from "../small-caches";
import { listVideoCards, type VideoCardRow } from "./repository";

/** Spec §2: the sidebar's video column has 10 cards and its templates column 15. */
export const SIDEBAR_VIDEO_COUNT = 10;
export const SIDEBAR_TEMPLATE_COUNT = 15;
/** Spec §9: video thumbnails are 170×95.63 px. */
export const VIDEO_THUMBNAIL_SIZE = { width: 170, height: 95.63 } as const;

export function videoCard(row: VideoCardRow): Card {
  return {
    title: row.title,
    subTitle: row.subTitle,
    path: row.path,
    thumbnail: `/video/thumbnail/${row.slug}.svg`,
    type: "VIDEO",
    previewAnimation: row.hasPreviewAnimation ? `/video/preview/${row.slug}.svg` : null,
    titleLines: 2,
    subTitleLines: 1,
  };
}

export interface SidebarData {
  videos: Card[];
  templates: Card[];
}

export function templateCard(t: PresentationSummary): Card {
  return {
    title: t.title,
    subTitle: t.templateSubTitle ?? "",
    path: `/presentation-template/${t.templateSlug}/`,
    thumbnail: thumbnailPathOf(t.oid),
    type: "TEMPLATE",
    previewAnimation: null,
    titleLines: 2,
    subTitleLines: 2,
  };
}

/**
 * The sidebar's cards change only with seeding or curation: each column is read once per app and
 * kept until a change touches it (issue 11: templates on `showcase`, videos on `videos`), a minute
 * at most.
 */
export function cachedSidebar(db: Queryable, changes: ContentChanges): () => Promise<SidebarData> {
  const videos = cachedUntilChange(changes, [VIDEOS_TAG], async () =>
    (await listVideoCards(db)).slice(0, SIDEBAR_VIDEO_COUNT).map(videoCard),
  );
  const templates = cachedUntilChange(changes, [SHOWCASE_TAG], async () =>
    (await listTemplates(db)).slice(0, SIDEBAR_TEMPLATE_COUNT).map(templateCard),
  );
  return async () => {
    const [videoCards, templateCards] = await Promise.all([videos(), templates()]);
    return { videos: videoCards, templates: templateCards };
  };
}

/** A video card's thumbnail, drawn from its two colours (no network, no stored images). */
export function videoThumbnailSvg(card: VideoCardRow, animated: boolean): string {
  const [from = "#3f3cbb", to = "#1f2937"] = card.colors;
  const motion = animated
    ? `<animate attributeName="x1" values="0;1;0" dur="4s" repeatCount="indefinite"/><animate attributeName="y2" values="1;0;1" dur="4s" repeatCount="indefinite"/>`
    : "";
  const pulse = animated ? `<animate attributeName="r" values="22;27;22" dur="1.6s" repeatCount="indefinite"/>` : "";
  return `<svg xmlns="http://www.w3.org/2000/svg" width="340" height="191" viewBox="0 0 340 191" role="img" aria-label="${escapeHtml(card.title)}">
<defs><linearGradient id="v" x1="0" y1="0" x2="1" y2="1">${motion}<stop offset="0" stop-color="${escapeHtml(from)}"/><stop offset="1" stop-color="${escapeHtml(to)}"/></linearGradient></defs>
<rect width="340" height="191" fill="url(#v)"/>
<circle cx="170" cy="95" r="24" fill="#ffffff" opacity="0.92">${pulse}</circle>
<path d="M163 83v24l20-12z" fill="#1b1f2a"/>
</svg>`;
}
