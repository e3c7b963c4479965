import type { Database } from "../../db/client";

/**
 * Likes are rows with a unique (user, presentation) key; the stored count moves only when a
 * row is really added or removed, in the same transaction, so it never drifts from the rows.
 */
export async function addLike(db: Database, userId: string, presentationId: string): Promise<number> {
  return db.transaction(async (tx) => {
    const inserted = await tx.query(
      "insert into likes (user_id, presentation_id) values ($1, $2) on conflict do nothing returning 1",
      [userId, presentationId],
    );
    const rows = inserted.length
      ? await tx.query<{ count: number }>(
          "update presentations set likes_count = likes_count + 1 where id = $1 returning likes_count as count",
          [presentationId],
        )
      : await tx.query<{ count: number }>("select likes_count as count from presentations where id = $1", [
          presentationId,
        ]);
    return rows[0]?.count ?? 0;
  });
}

export async function removeLike(db: Database, userId: string, presentationId: string): Promise<number> {
  return db.transaction(async (tx) => {
    const deleted = await tx.query("delete from likes where user_id = $1 and presentation_id = $2 returning 1", [
      userId,
      presentationId,
    ]);
    const rows = deleted.length
      ? await tx.query<{ count: number }>(
          "update presentations set likes_count = likes_count - 1 where id = $1 returning likes_count as count",
          [presentationId],
        )
      : await tx.query<{ count: number }>("select likes_count as count from presentations where id = $1", [
          presentationId,
        ]);
    return rows[0]?.count ?? 0;
  });
}
