import type { Queryable } from "../../db/client";

/** Shards per presentation's like counter (migration 0004); a user's likes land in user_id % 16. */
export const LIKE_COUNTER_SHARDS = 16;

/**
 * Likes are rows with a unique (user, presentation) key; the count moves only when a row is
 * really added or removed, in the same statement, so it never drifts from the rows. One
 * statement each (one round trip, atomic on its own), touching only the liker's shard of the
 * counter, so concurrent likes of one presentation neither queue on one row nor split commits.
 */
export async function addLike(db: Queryable, userId: string, presentationId: string): Promise<number> {
  const rows = await db.query<{ count: number }>(
    `with added as (
       insert into likes (user_id, presentation_id) values ($1, $2) on conflict do nothing returning 1
     )
     , bumped as (
       insert into like_counters (presentation_id, shard, count)
       select $2, ($1::bigint % 16)::smallint, 1 from added
       on conflict (presentation_id, shard) do update set count = like_counters.count + 1
       returning count
     )
     select coalesce((select sum(count) from like_counters where presentation_id = $2 and shard <> ($1::bigint % 16)), 0)::int
          + coalesce((select count from bumped),
                     (select count from like_counters where presentation_id = $2 and shard = ($1::bigint % 16)), 0) as count`,
    [userId, presentationId],
  );
  return rows[0]?.count ?? 0;
}

export async function removeLike(db: Queryable, userId: string, presentationId: string): Promise<number> {
  const rows = await db.query<{ count: number }>(
    `with removed as (
       delete from likes where user_id = $1 and presentation_id = $2 returning 1
     )
     , dropped as (
       update like_counters set count = count - 1
        where presentation_id = $2 and shard = ($1::bigint % 16) and exists (select 1 from removed)
       returning count
     )
     select coalesce((select sum(count) from like_counters where presentation_id = $2 and shard <> ($1::bigint % 16)), 0)::int
          + coalesce((select count from dropped),
                     (select count from like_counters where presentation_id = $2 and shard = ($1::bigint % 16)), 0) as count`,
    [userId, presentationId],
  );
  return rows[0]?.count ?? 0;
}
