import type { Queryable } from "../../db/client";

/**
 * Issue 28 item 4: whether a signed-in person's own views of a presentation are theirs to
 * discount: they own it or collaborate on it (any right). Their visits don't count as views.
 */
export async function isOwnerOrCollaborator(db: Queryable, presentationOid: string, userId: string): Promise<boolean> {
  const rows = await db.query<{ own: boolean }>(
    `select p.owner_id = $2
            or exists (select 1 from collaborators k where k.presentation_id = p.id and k.user_id = $2) as own
       from presentations p where p.oid = $1`,
    [presentationOid, userId],
  );
  return rows[0]?.own === true;
}
