import type { AcceptedEvent } from "../accepted-event";

/**
 * Issue 14 item 1/2: where accepted usage events go between the request and the database. The
 * route hands each accepted event to `accept` and answers 204 only when it says "queued"; the
 * pipeline stores it later, in batches, through storeEventBatch.
 */
export interface EventPipeline {
  /** Which pipeline this is (the in-process queue, or NATS JetStream). */
  readonly kind: "in-process" | "jetstream";
  /**
   * "queued": the event will be stored (kept in memory until stored, or acknowledged by JetStream);
   * "busy": not taken (the queue is full, or JetStream can't take it now): the route answers 503.
   */
  accept(event: AcceptedEvent): Promise<"queued" | "busy">;
  /** Resolves once every event taken before the call is stored (tests, and reads that must see them). */
  flush(): Promise<void>;
  /** Stops taking events and stores (or leaves safely in JetStream) everything taken; then resolves. */
  close(): Promise<void>;
  /** Figures for logs and tests. */
  stats(): PipelineStats;
  /**
   * What /readyz reports: "ok"; "full" when the in-process queue can take no more (events get
   * 503 until it drains); "unreachable" while the NATS connection is down (events get 503).
   */
  state(): "ok" | "full" | "unreachable";
}

export interface PipelineStats {
  /** Events taken and not yet stored (in this process). */
  pending: number;
  /** Events stored by this process since it started. */
  stored: number;
  /** Batches that failed and were retried. */
  retries: number;
}

/** Issue 14 item 1: how long a client is asked to wait after a 503 from a full pipeline. */
export const EVENT_RETRY_AFTER_SECONDS = 1;
