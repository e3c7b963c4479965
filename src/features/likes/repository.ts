import type { Queryable } from "../../db/client";

/** Shards per presentation's like counter (migration 0004); a user's likes land in user_id % 16. */
export const LIKE_COUNTER_SHARDS = 16;

/**
 * Which presentation a like acts on: one already checked by the policy (by id), or — the hot
 * path — any presentation anyone may see, by oid, checked inside the statement.
 */
export type LikeTarget = { presentationId: string } | { openOid: string };

/** One person liking (`liked: true`) or unliking a presentation. */
export interface LikeChange {
  userId: string;
  target: LikeTarget;
  liked: boolean;
}

/**
 * Likes are rows with a unique (user, presentation) key, and the count moves only by the rows
 * really added or removed, in the same statement, so it never drifts from the rows. One
 * statement applies a whole batch of changes (one round trip and one commit for all of them),
 * touching only the likers' shards of each counter, in key order, so concurrent batches of one
 * presentation neither queue on one row nor deadlock on two. (The upsert proposes a count of at
 * least 0, because PostgreSQL checks `count >= 0` on that row before it finds the conflict; the
 * update then applies the real step.)
 *
 * Answers, for each change in order, the presentation's count after the statement, or null
 * when the target is not there (or, by oid, not open to everyone).
 */
const APPLY_SQL = `
  with input as (
    select * from unnest($1::bigint[], $2::bigint[], $3::text[], $4::boolean[])
      with ordinality as i(user_id, presentation_id, oid, liked, position)
  ),
  target as materialized (
    select i.position, i.user_id, i.liked,
           coalesce(i.presentation_id,
                    (select p.id from presentations p
                      where p.oid = i.oid and p.privacy <> 'private' and not p.hidden)) as presentation_id
      from input i
  ),
  added as (
    insert into likes (user_id, presentation_id)
    select user_id, presentation_id from target where liked and presentation_id is not null
     order by presentation_id, user_id
    on conflict do nothing
    returning user_id, presentation_id
  ),
  removed as (
    delete from likes l using target t
     where not t.liked and l.user_id = t.user_id and l.presentation_id = t.presentation_id
    returning l.user_id, l.presentation_id
  ),
  delta as (
    select presentation_id, (user_id % ${LIKE_COUNTER_SHARDS})::smallint as shard, sum(step)::int as step
      from (select user_id, presentation_id, 1 as step from added
            union all
            select user_id, presentation_id, -1 from removed) as moves
     group by 1, 2
  ),
  changed as (
    insert into like_counters (presentation_id, shard, count)
    select presentation_id, shard, greatest(step, 0) from delta where step <> 0 order by presentation_id, shard
    on conflict (presentation_id, shard) do update
       set count = like_counters.count
                 + (select d.step from delta d where d.presentation_id = excluded.presentation_id and d.shard = excluded.shard)
    returning presentation_id, shard, count
  )
  select t.position::int as position,
         case when t.presentation_id is null then null else
           (select coalesce(sum(c.count), 0) from like_counters c
             where c.presentation_id = t.presentation_id
               and not exists (select 1 from changed x where x.presentation_id = c.presentation_id and x.shard = c.shard))
         + (select coalesce(sum(x.count), 0) from changed x where x.presentation_id = t.presentation_id)
         end::int as count
    from target t
   order by t.position`;

const targetKey = (change: LikeChange) =>
  `${change.userId}:${"presentationId" in change.target ? `id:${change.target.presentationId}` : `oid:${change.target.openOid}`}`;

/**
 * Applies like changes, each as if alone and in order: a batch holding the same person and
 * presentation twice is applied in rounds, so a like then an unlike leaves no like.
 * Answers each change's count after it, or null for a target that isn't there.
 */
export async function applyLikeChanges(db: Queryable, changes: readonly LikeChange[]): Promise<(number | null)[]> {
  const results = new Array<number | null>(changes.length).fill(null);
  let pending = changes.map((change, index) => ({ change, index }));
  while (pending.length > 0) {
    const seen = new Set<string>();
    const round: typeof pending = [];
    const later: typeof pending = [];
    for (const entry of pending) {
      const key = targetKey(entry.change);
      (seen.has(key) ? later : round).push(entry);
      seen.add(key);
    }
    const rows = await db.query<{ position: number; count: number | null }>(APPLY_SQL, [
      round.map(({ change }) => change.userId),
      round.map(({ change }) => ("presentationId" in change.target ? change.target.presentationId : null)),
      round.map(({ change }) => ("openOid" in change.target ? change.target.openOid : null)),
      round.map(({ change }) => change.liked),
    ]);
    for (const row of rows) {
      const entry = round[row.position - 1];
      if (entry) results[entry.index] = row.count;
    }
    pending = later;
  }
  return results;
}
