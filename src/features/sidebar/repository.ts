import type { Queryable } from "../../db/client";

export interface VideoCardRow {
  slug: string;
  title: string;
  subTitle: string;
  path: string;
  colors: string[];
  hasPreviewAnimation: boolean;
  position: number;
}

export async function listVideoCards(db: Queryable): Promise<VideoCardRow[]> {
  return db.query<VideoCardRow>(
    `select slug, title, sub_title as "subTitle", path, colors, has_preview_animation as "hasPreviewAnimation", position
       from video_cards order by position`,
  );
}

/** Video cards by slug (a search page's hits). */
export async function listVideoCardsBySlugs(db: Queryable, slugs: readonly string[]): Promise<VideoCardRow[]> {
  if (slugs.length === 0) return [];
  return db.query<VideoCardRow>(
    `select slug, title, sub_title as "subTitle", path, colors, has_preview_animation as "hasPreviewAnimation", position
       from video_cards where slug = any($1::text[])`,
    [slugs],
  );
}

/** Inserts a video card unless one with its slug exists; true when it inserted. */
export async function insertVideoCardIfAbsent(db: Queryable, card: VideoCardRow): Promise<boolean> {
  const rows = await db.query(
    `insert into video_cards (slug, title, sub_title, path, colors, has_preview_animation, position)
     values ($1, $2, $3, $4, $5::text[], $6, $7)
     on conflict (slug) do nothing returning id`,
    [card.slug, card.title, card.subTitle, card.path, card.colors, card.hasPreviewAnimation, card.position],
  );
  return rows.length > 0;
}
