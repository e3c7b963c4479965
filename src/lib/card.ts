/** Spec §3 Card: what the sidebars and lists show for a template, video or presentation. */
export interface Card {
  title: string;
  subTitle: string;
  /** Same-origin path the card opens. */
  path: string;
  /** Same-origin image URL. */
  thumbnail: string;
  type: "TEMPLATE" | "VIDEO" | "PRESENTATION";
  /** A video preview played on hover, when there is one. */
  previewAnimation: string | null;
  titleLines: number;
  subTitleLines: number;
  /** Issue 12: a presentation card in a list (home, explore, search, profiles) shows its numbers and date. */
  stats?: CardStats;
}

export interface CardStats {
  views: number;
  likes: number;
  /** ISO 8601 instant; shown in the visitor's language. */
  lastModified: string;
}
