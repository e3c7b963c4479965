import type { Database } from "../../db/client";
import { EVENT_BATCH_MAX } from "./pipeline/in-process";

/** Issue 14 item 5: raw usage events are kept this many days by default (PODIUM_EVENT_RETENTION_DAYS); the per-day view aggregates stay. */
export const DEFAULT_EVENT_RETENTION_DAYS = 90;
/** Issue 14 item 5: client logs are kept this many days by default (PODIUM_CLIENT_LOG_RETENTION_DAYS). */
export const DEFAULT_CLIENT_LOG_RETENTION_DAYS = 30;
/** Rows one delete removes: short transactions that never hold many locks or stall ingestion. */
export const PRUNE_BATCH_ROWS = 5_000;
/** How often each process tries to prune (the advisory lock lets one at a time do it). */
export const PRUNE_INTERVAL_MS = 60 * 60 * 1000;
/** The first try after start: not at once, so a restart storm doesn't prune in every process. */
export const PRUNE_FIRST_DELAY_MS = 60 * 1000;
/** An arbitrary constant: the advisory lock only one pruner at a time holds (db/migrate.ts uses 727_360_001). */
const PRUNE_LOCK_KEY = 727_360_014;

export interface Retention {
  eventRetentionDays: number;
  clientLogRetentionDays: number;
}

/**
 * Each deletes up to $2 rows older than $1 days and answers the rows and the events they held: a
 * row of usage_event_batches (issue 32 item 4, migration 0031) holds a batch of plain events, as
 * many as EVENT_BATCH_MAX, so it is deleted EVENT_BATCH_MAX times fewer rows at a time; its
 * received_at is its newest event's.
 */
const PRUNE_SQL = {
  events: `delete from usage_events where id in (
             select id from usage_events where received_at < now() - make_interval(days => $1) limit $2)
           returning 1 as events`,
  eventBatches: `delete from usage_event_batches where batch_uid in (
                   select batch_uid from usage_event_batches where received_at < now() - make_interval(days => $1) limit $2)
                 returning event_count as events`,
  clientLogs: `delete from client_logs where id in (
                 select id from client_logs where received_at < now() - make_interval(days => $1) limit $2)
               returning 1 as events`,
} as const;

/**
 * Deletes usage events and client logs older than their retention, PRUNE_BATCH_ROWS at a time,
 * each batch in its own short transaction holding the prune lock. When another process holds it
 * (it is pruning), this one stops: null. Otherwise answers how many events and client logs it
 * deleted.
 */
export async function pruneOldEvents(
  db: Database,
  retention: Retention,
  batchRows = PRUNE_BATCH_ROWS,
): Promise<{ events: number; clientLogs: number } | null> {
  const deleted = { events: 0, clientLogs: 0 };
  const plan = [
    ["events", "events", retention.eventRetentionDays, batchRows],
    ["eventBatches", "events", retention.eventRetentionDays, Math.max(1, Math.floor(batchRows / EVENT_BATCH_MAX))],
    ["clientLogs", "clientLogs", retention.clientLogRetentionDays, batchRows],
  ] as const;
  for (const [table, counted, days, rowsAtOnce] of plan) {
    for (;;) {
      const removed = await db.transaction(async (tx) => {
        const [lock] = await tx.query<{ held: boolean }>("select pg_try_advisory_xact_lock($1) as held", [
          PRUNE_LOCK_KEY,
        ]);
        if (!lock?.held) return null;
        const [row] = await tx.query<{ rows: number; events: number }>(
          `with gone as (${PRUNE_SQL[table]})
           select count(*)::int as rows, coalesce(sum(events), 0)::int as events from gone`,
          [days, rowsAtOnce],
        );
        return row ?? { rows: 0, events: 0 };
      });
      if (removed === null) return null;
      deleted[counted] += removed.events;
      if (removed.rows < rowsAtOnce) break;
    }
  }
  return deleted;
}

/** Prunes now and then while the app runs; stop() ends it (and waits for a prune under way). */
export function startEventPruning(
  db: Database,
  retention: Retention,
  onError: (error: unknown) => void,
): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const run = () => {
    running = pruneOldEvents(db, retention).catch(onError);
  };
  const first = setTimeout(run, PRUNE_FIRST_DELAY_MS);
  const every = setInterval(run, PRUNE_INTERVAL_MS);
  first.unref();
  every.unref();
  return {
    async stop() {
      clearTimeout(first);
      clearInterval(every);
      await running;
    },
  };
}
