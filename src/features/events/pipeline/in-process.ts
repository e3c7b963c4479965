import type { Database } from "../../../db/client";
import type { AcceptedEvent } from "../accepted-event";
import { storeEventBatch } from "../store-batch";
import type { EventPipeline, PipelineStats } from "./types";

/** Issue 14 item 1: events the in-process queue holds at most (PODIUM_EVENT_QUEUE); full → 503. */
export const DEFAULT_EVENT_QUEUE_LIMIT = 100_000;
/** Events per multi-row batch at most (one transaction through storeEventBatch). */
export const EVENT_BATCH_MAX = 500;
/**
 * Batches written at once at most: one commits while the next fills (group commit), so a process's
 * batches land in order and one batch's view counting sees the one before it committed.
 */
export const EVENT_BATCHES_IN_FLIGHT = 1;
/**
 * A batch waits this long for more events (unless it is full, or a flush asks): the request never
 * waits for it (204 once queued), and under load a few large batches cost the database a fraction
 * of what many small ones do.
 */
export const EVENT_BATCH_LINGER_MS = 50;
/** A failed batch is retried after this long, doubling up to EVENT_RETRY_MAX_MS (the database may be down). */
export const EVENT_RETRY_FIRST_MS = 100;
export const EVENT_RETRY_MAX_MS = 5_000;

export interface InProcessOptions {
  /** Events held at most (taken and not yet stored, in flight included). */
  limit?: number;
  maxBatch?: number;
  maxInFlight?: number;
  /** How long a batch that isn't full waits for more events (EVENT_BATCH_LINGER_MS). */
  lingerMs?: number;
  /** Told when a batch fails (it is kept and retried). */
  onError?: (error: unknown, batchSize: number) => void;
}

/**
 * Issue 14 item 1: the in-process pipeline. The route enqueues and answers 204; a writer drains
 * the queue in batches: the first event starts a batch once EVENT_BATCH_LINGER_MS has passed (or
 * at once when a batch is full, or a flush or close waits), events that arrive while a batch is
 * written wait for the next, so batches grow with the load. The queue is bounded; a failed batch is
 * retried with backoff, as it was (its plain events are stored as one row keyed by the batch's first
 * one, store-batch.ts: a retry whose first try did commit must be that same batch, or what it
 * gained would be left out), before anything queued after it, so an accepted event is stored or
 * still held.
 * close() stops taking events and resolves once every held event is stored.
 */
export function createInProcessPipeline(db: Database, options: InProcessOptions = {}): EventPipeline {
  const limit = options.limit ?? DEFAULT_EVENT_QUEUE_LIMIT;
  const maxBatch = options.maxBatch ?? EVENT_BATCH_MAX;
  const maxInFlight = options.maxInFlight ?? EVENT_BATCHES_IN_FLIGHT;
  const lingerMs = options.lingerMs ?? EVENT_BATCH_LINGER_MS;
  let queue: AcceptedEvent[] = [];
  /** Batches that failed, to be tried again as they were before anything in the queue. */
  const failed: AcceptedEvent[][] = [];
  let failedEvents = 0;
  /** Events in batches being written. */
  let writing = 0;
  let inFlight = 0;
  /** A pump waits: at once (after this tick), or after the linger. */
  let pumpSoon = false;
  let lingering: NodeJS.Timeout | null = null;
  /** Someone waits for the queue to empty (flush, close): no lingering. */
  let urgent = false;
  let closing = false;
  let retryDelay = 0;
  let retryTimer: NodeJS.Timeout | null = null;
  const stats: PipelineStats = { pending: 0, stored: 0, retries: 0 };
  const idle: (() => void)[] = [];

  /** Events held and not yet taken: the queue and the failed batches. */
  const waiting = () => queue.length + failedEvents;

  const settleIdle = () => {
    if (waiting() === 0 && inFlight === 0) {
      urgent = false;
      for (const done of idle.splice(0)) done();
    }
  };

  const write = async (batch: AcceptedEvent[]): Promise<boolean> => {
    try {
      await storeEventBatch(db, batch);
      stats.stored += batch.length;
      retryDelay = 0;
      return true;
    } catch (error) {
      // Never dropped: retried as it was, first, after a growing wait.
      stats.retries += 1;
      options.onError?.(error, batch.length);
      failed.push(batch);
      failedEvents += batch.length;
      retryDelay = Math.min(EVENT_RETRY_MAX_MS, retryDelay === 0 ? EVENT_RETRY_FIRST_MS : retryDelay * 2);
      return false;
    }
  };

  /** The next batch from the queue: up to maxBatch, in the order they came. */
  const takeQueued = () => {
    const batch = queue.length <= maxBatch ? queue : queue.slice(0, maxBatch);
    queue = queue.length <= maxBatch ? [] : queue.slice(maxBatch);
    return batch;
  };

  const pump = () => {
    pumpSoon = false;
    if (lingering) {
      clearTimeout(lingering);
      lingering = null;
    }
    while (!retryTimer && inFlight < maxInFlight && waiting() > 0) {
      const retry = failed.shift();
      if (retry) failedEvents -= retry.length;
      const batch = retry ?? takeQueued();
      inFlight += 1;
      writing += batch.length;
      void write(batch).then((ok) => {
        inFlight -= 1;
        writing -= batch.length;
        if (!ok && !retryTimer) {
          retryTimer = setTimeout(() => {
            retryTimer = null;
            schedule();
          }, retryDelay);
        }
        schedule();
        settleIdle();
      });
    }
  };

  const schedule = () => {
    if (waiting() === 0 || retryTimer) return;
    if (pumpSoon) return;
    if (urgent || failed.length > 0 || queue.length >= maxBatch || lingerMs === 0) {
      // A full batch, or someone waits: now (a lingering pump is overtaken; pump clears it).
      pumpSoon = true;
      setImmediate(pump);
    } else if (!lingering) {
      lingering = setTimeout(pump, lingerMs);
    }
  };

  return {
    kind: "in-process",
    async accept(event) {
      if (closing || waiting() + writing >= limit) return "busy";
      queue.push(event);
      schedule();
      return "queued";
    },
    async flush() {
      if (waiting() === 0 && inFlight === 0) return;
      await new Promise<void>((resolve) => {
        idle.push(resolve);
        urgent = true;
        schedule();
      });
    },
    async close() {
      closing = true;
      // Whatever waits for a retry goes now: shutting down, the next try is the last chance to store it.
      if (retryTimer) {
        clearTimeout(retryTimer);
        retryTimer = null;
      }
      if (waiting() === 0 && inFlight === 0) return;
      await new Promise<void>((resolve) => {
        idle.push(resolve);
        urgent = true;
        schedule();
      });
    },
    stats: () => ({ ...stats, pending: waiting() + writing }),
    state: () => (waiting() + writing >= limit ? "full" : "ok"),
  };
}
