import type { Queryable } from "../../db/client";
import type { PdfProblem } from "./errors";

/** A PDF import job as every process reads it (migration 0017). */
export interface JobRow {
  state: "converting" | "done" | "failed";
  pagesDone: number;
  pageCount: number;
  oid: string | null;
  replaced: boolean;
  problem: PdfProblem | null;
  message: string | null;
  statusCode: number | null;
  touchedAt: Date;
  /** Waiting for its turn: this many PDFs go before it; null once it converts (migration 0019). */
  ahead: number | null;
}

export async function insertJob(db: Queryable, job: { id: string; ownerId: string; at: Date }): Promise<void> {
  await db.query(
    `insert into pdf_import_jobs (id, owner_id, state, created_at, touched_at) values ($1, $2, 'converting', $3, $3)`,
    [job.id, job.ownerId, job.at],
  );
}

/** Progress of a job converting in this process; also says the process is still at it. */
export async function touchJob(
  db: Queryable,
  id: string,
  progress: { pagesDone: number; pageCount: number; ahead: number | null; at: Date },
): Promise<void> {
  await db.query(
    // Two writes may land out of order: the progress never goes back, and the newer write says the queue.
    `update pdf_import_jobs
        set pages_done = greatest(pages_done, $2), page_count = greatest(page_count, $3),
            ahead = case when touched_at <= $4 then $5::integer else ahead end,
            touched_at = greatest(touched_at, $4)
      where id = $1 and state = 'converting'`,
    [id, progress.pagesDone, progress.pageCount, progress.at, progress.ahead],
  );
}

export async function endJob(
  db: Queryable,
  id: string,
  end: {
    state: "done" | "failed";
    pagesDone: number;
    pageCount: number;
    oid: string | null;
    replaced: boolean;
    error: { problem: PdfProblem; message: string; statusCode: number } | null;
    at: Date;
  },
): Promise<void> {
  await db.query(
    `update pdf_import_jobs
        set state = $2, pages_done = $3, page_count = $4, oid = $5, replaced = $6,
            problem = $7, message = $8, status_code = $9, touched_at = $10, ended_at = $10, ahead = null
      where id = $1`,
    [
      id,
      end.state,
      end.pagesDone,
      end.pageCount,
      end.oid,
      end.replaced,
      end.error?.problem ?? null,
      end.error?.message ?? null,
      end.error?.statusCode ?? null,
      end.at,
    ],
  );
}

export async function deleteJob(db: Queryable, id: string): Promise<void> {
  await db.query("delete from pdf_import_jobs where id = $1", [id]);
}

/** The owner's job, unless it ended before `endedAfter` (then it is forgotten). */
export async function findJob(db: Queryable, ownerId: string, id: string, endedAfter: Date): Promise<JobRow | null> {
  const rows = await db.query<JobRow>(
    `select state, pages_done as "pagesDone", page_count as "pageCount", oid, replaced, problem, message,
            status_code as "statusCode", touched_at as "touchedAt", ahead
       from pdf_import_jobs
      where id = $1 and owner_id = $2 and (ended_at is null or ended_at > $3)`,
    [id, ownerId, endedAfter],
  );
  return rows[0] ?? null;
}

/** The person's imports still converting somewhere (touched since `touchedAfter`). */
export async function countConverting(db: Queryable, ownerId: string, touchedAfter: Date): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `select count(*)::int as n from pdf_import_jobs
      where owner_id = $1 and state = 'converting' and touched_at > $2`,
    [ownerId, touchedAfter],
  );
  return rows[0]?.n ?? 0;
}

/** The person's imports started since `since` (refused ones leave no row), and when the first of them started. */
export async function importsSince(
  db: Queryable,
  ownerId: string,
  since: Date,
): Promise<{ count: number; first: Date | null }> {
  const rows = await db.query<{ count: number; first: Date | null }>(
    `select count(*)::int as count, min(created_at) as first from pdf_import_jobs
      where owner_id = $1 and created_at > $2`,
    [ownerId, since],
  );
  return rows[0] ?? { count: 0, first: null };
}

/**
 * Forgets jobs created before `createdBefore` that ended before `endedBefore` or whose process
 * stopped before `touchedBefore`.
 */
export async function pruneJobs(
  db: Queryable,
  limits: { createdBefore: Date; endedBefore: Date; touchedBefore: Date },
): Promise<void> {
  await db.query(
    `delete from pdf_import_jobs
      where created_at < $1 and (ended_at < $2 or (ended_at is null and touched_at < $3))`,
    [limits.createdBefore, limits.endedBefore, limits.touchedBefore],
  );
}
