import type { Queryable } from "../../db/client";

/**
 * Likes are rows with a unique (user, presentation) key; the stored count moves only when a
 * row is really added or removed, in the same statement, so it never drifts from the rows.
 * One statement each (one round trip, atomic on its own): the counter row is locked only for
 * the moment of the update, which is what bounds like throughput on a popular presentation.
 */
export async function addLike(db: Queryable, userId: string, presentationId: string): Promise<number> {
  const rows = await db.query<{ count: number }>(
    `with added as (
       insert into likes (user_id, presentation_id) values ($1, $2) on conflict do nothing returning 1
     )
     update presentations set likes_count = likes_count + (select count(*)::int from added)
      where id = $2
     returning likes_count as count`,
    [userId, presentationId],
  );
  return rows[0]?.count ?? 0;
}

export async function removeLike(db: Queryable, userId: string, presentationId: string): Promise<number> {
  const rows = await db.query<{ count: number }>(
    `with removed as (
       delete from likes where user_id = $1 and presentation_id = $2 returning 1
     )
     update presentations set likes_count = likes_count - (select count(*)::int from removed)
      where id = $2
     returning likes_count as count`,
    [userId, presentationId],
  );
  return rows[0]?.count ?? 0;
}
