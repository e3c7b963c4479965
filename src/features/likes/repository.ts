import type { Queryable } from "../../db/client";

/** Shards per presentation's like counter (migration 0004); a user's likes land in user_id % 16. */
export const LIKE_COUNTER_SHARDS = 16;

/**
 * Which presentation a like statement acts on: one already checked by the policy (by id), or
 * — the hot path — any presentation anyone may see, by oid, checked inside the statement.
 */
export type LikeTarget = { presentationId: string } | { openOid: string };

const TARGET_SQL = {
  byId: "select $2::bigint as id",
  openByOid: "select id from presentations where oid = $2 and privacy <> 'private' and not hidden",
};

/** The total after the change: the other shards as they were, plus this shard as it is now. */
const TOTAL_SQL = `
  select t.id::text as id,
         coalesce((select sum(c.count) from like_counters c where c.presentation_id = t.id and c.shard <> ($1::bigint % 16)), 0)::int
       + coalesce((select count from changed),
                  (select c.count from like_counters c where c.presentation_id = t.id and c.shard = ($1::bigint % 16)), 0) as count
    from target t`;

/**
 * Likes are rows with a unique (user, presentation) key; the count moves only when a row is
 * really added or removed, in the same statement, so it never drifts from the rows. One
 * statement each (one round trip, atomic on its own), touching only the liker's shard of the
 * counter, so concurrent likes of one presentation neither queue on one row nor split commits.
 * Returns null when the target is not there (or, by oid, not open to everyone).
 */
export async function addLike(db: Queryable, userId: string, target: LikeTarget): Promise<number | null> {
  const rows = await db.query<{ id: string; count: number }>(
    `with target as (${"presentationId" in target ? TARGET_SQL.byId : TARGET_SQL.openByOid}),
     added as (
       insert into likes (user_id, presentation_id) select $1, id from target on conflict do nothing returning presentation_id
     ),
     changed as (
       insert into like_counters (presentation_id, shard, count)
       select presentation_id, ($1::bigint % 16)::smallint, 1 from added
       on conflict (presentation_id, shard) do update set count = like_counters.count + 1
       returning count
     )
     ${TOTAL_SQL}`,
    [userId, "presentationId" in target ? target.presentationId : target.openOid],
  );
  return rows[0]?.count ?? null;
}

export async function removeLike(db: Queryable, userId: string, target: LikeTarget): Promise<number | null> {
  const rows = await db.query<{ id: string; count: number }>(
    `with target as (${"presentationId" in target ? TARGET_SQL.byId : TARGET_SQL.openByOid}),
     removed as (
       delete from likes where user_id = $1 and presentation_id = (select id from target) returning presentation_id
     ),
     changed as (
       update like_counters set count = count - 1
        where presentation_id = (select id from target) and shard = ($1::bigint % 16) and exists (select 1 from removed)
       returning count
     )
     ${TOTAL_SQL}`,
    [userId, "presentationId" in target ? target.presentationId : target.openOid],
  );
  return rows[0]?.count ?? null;
}
