import type { Queryable } from "../../db/client";

export interface StoredClientLog {
  levelname: string;
  msg: string;
  sessionId: string;
  presentationOid: string | null;
  record: Record<string, unknown>;
}

export async function insertClientLog(db: Queryable, log: StoredClientLog): Promise<void> {
  await db.query(
    "insert into client_logs (levelname, msg, session_id, presentation_oid, record) values ($1, $2, $3, $4, $5::jsonb)",
    [log.levelname, log.msg, log.sessionId, log.presentationOid, JSON.stringify(log.record)],
  );
}

/** The newest client logs first (operators' view, and tests). */
export async function recentClientLogs(db: Queryable, limit = 50): Promise<StoredClientLog[]> {
  return db.query<StoredClientLog>(
    `select levelname, msg, session_id as "sessionId", presentation_oid as "presentationOid", record
       from client_logs order by id desc limit $1`,
    [limit],
  );
}
