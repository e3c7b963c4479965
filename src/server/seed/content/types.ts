import type { Person } from "../../../features/accounts/repository";
/**
 * The demo catalogue: what a fresh Podium seeds (product brief, "Demo content").
 * Deck bodies live beside this file as Markdown (decks/<slug>.md, templates/<slug>.md)
 * in Podium's deck format: `---` on its own line separates slides, `# ` is a title,
 * `## ` a subtitle, `### ` a second-level subtitle, `- ` a bullet, other lines body text.
 */
export type DemoUserKey = "ada" | "grace" | "alan" | "katherine" | "tim";

export interface DemoUser extends Person {
  key: DemoUserKey;
}

export interface DemoDeck {
  /** File name without .md, and the stable seed key (the oid is derived from it). */
  slug: string;
  title: string;
  /** Owner-supplied HTML: only <p>, <strong>, <em>, <a href>, <ul>, <li>. */
  descriptionHtml: string;
  tags: string[];
  owner: DemoUserKey;
  privacy: "public" | "reusable" | "unlisted" | "private";
  /** '0' classic (free canvas, zoom), '2' pitch (linear slides). */
  schemaVersion: "0" | "2";
  /** How many days before the seed date it was last modified. */
  modifiedDaysAgo: number;
  viewCount: number;
  staffPick: boolean;
}

export interface DemoTemplate {
  slug: string;
  title: string;
  subTitle: string;
  descriptionHtml: string;
  tags: string[];
  schemaVersion: "0" | "2";
}

export interface DemoVideoCard {
  slug: string;
  title: string;
  subTitle: string;
  /** Where the card leads, on our own origin. */
  path: string;
  /** Two colours for the generated thumbnail gradient, as #rrggbb. */
  colors: [string, string];
  /** Whether the card has a hover preview animation. */
  hasPreviewAnimation: boolean;
}
