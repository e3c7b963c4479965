import {
  AckPolicy,
  connect,
  DiscardPolicy,
  type JetStreamClient,
  type JsMsg,
  type NatsConnection,
  nanos,
  RetentionPolicy,
  StorageType,
} from "nats";
import type { Database } from "../../../db/client";
import { createBatcher } from "../../../lib/batch";
import type { AcceptedEvent } from "../accepted-event";
import { storeEventBatch } from "../store-batch";
import { EVENT_BATCH_MAX, EVENT_RETRY_FIRST_MS, EVENT_RETRY_MAX_MS } from "./in-process";
import type { EventPipeline, PipelineStats } from "./types";

/** Issue 14 item 2: the stream's name when PODIUM_EVENT_STREAM doesn't give one. */
export const DEFAULT_EVENT_STREAM = "PODIUM_EVENTS";
/** The stream's size limit by default (PODIUM_EVENT_STREAM_MB): beyond it, publishing fails and the route answers 503. */
export const DEFAULT_EVENT_STREAM_MB = 1_024;
/** How long one publish waits for JetStream's acknowledgement before the events count as not taken. */
export const EVENT_PUBLISH_TIMEOUT_MS = 2_000;
/** Publishes awaiting their acknowledgement at once; events arriving meanwhile go in the next message. */
export const EVENT_PUBLISHES_IN_FLIGHT = 8;
/** Messages fetched per batch by the consumer (each holds up to a few hundred events). */
export const EVENT_FETCH_MESSAGES = 64;
/** Fetch loops per process: one stores while the other fetches. */
export const EVENT_CONSUMER_LOOPS = 2;
/** A message not acknowledged within this long (a process died mid-batch) is delivered again. */
export const EVENT_ACK_WAIT_MS = 30_000;
/** On close, the consumer keeps storing what the stream holds for at most this long (serve.ts allows 10 s). */
export const EVENT_DRAIN_MAX_MS = 7_000;
/** flush() asks JetStream how far the consumer is this often. */
const EVENT_FLUSH_POLL_MS = 50;
/** Room per event in a message: the largest event (routes.ts USAGE_EVENT_MAX_BYTES) and its stamps. */
const EVENT_ROOM_BYTES = 9 * 1024;

/** NATS can't be reached, or has no JetStream: Podium doesn't start (a clear message, exit 1). */
export class EventStreamUnavailableError extends Error {
  override readonly name = "EventStreamUnavailableError";
}

export interface JetStreamOptions {
  url: string;
  stream: string;
  /** The stream's size limit in bytes. */
  maxBytes?: number;
  /** On close, store what the stream holds for at most this long (EVENT_DRAIN_MAX_MS unless said). */
  drainMaxMs?: number;
  /** Told when a batch fails to store (its messages are delivered again later). */
  onError?: (error: unknown, batchSize: number) => void;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Issue 14 item 2: the JetStream pipeline. Events accepted together go as one message (a JSON
 * array) to a durable, file-stored work-queue stream; the route answers 204 once JetStream has
 * acknowledged that message. A durable pull consumer, the same for every process (so several
 * web processes share one pipeline), fetches messages in batches, stores their events through
 * storeEventBatch and acknowledges them after the commit. A batch that fails is not acknowledged
 * (nak with a delay): its messages come again when the database is back, and storeEventBatch
 * stores each message once (each is a unit: plain events by the message, counting ones by their
 * ids), so a redelivery is harmless.
 */
export async function startJetStreamPipeline(db: Database, options: JetStreamOptions): Promise<EventPipeline> {
  const subject = `${options.stream}.events`;
  const durable = `${options.stream}_writer`;
  let nc: NatsConnection;
  try {
    nc = await connect({ servers: options.url, name: "podium", maxReconnectAttempts: -1, reconnectTimeWait: 500 });
  } catch (error) {
    throw new EventStreamUnavailableError(
      `Cannot reach NATS at ${options.url} (NATS_URL): ${(error as Error).message}. Start NATS with JetStream, or unset NATS_URL to queue usage events in the process.`,
    );
  }
  let js: JetStreamClient;
  try {
    const jsm = await nc.jetstreamManager();
    const config = {
      name: options.stream,
      subjects: [subject],
      storage: StorageType.File,
      retention: RetentionPolicy.Workqueue,
      discard: DiscardPolicy.New,
      max_bytes: options.maxBytes ?? DEFAULT_EVENT_STREAM_MB * 1024 * 1024,
      num_replicas: 1,
    };
    // Every process ensures the stream and the consumer; the first creates them, the others find them.
    await jsm.streams.add(config).catch(async (error: Error) => {
      await jsm.streams.info(options.stream).catch(() => {
        throw error;
      });
    });
    const consumerConfig = {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      ack_wait: nanos(EVENT_ACK_WAIT_MS),
      max_deliver: -1,
      max_ack_pending: 10_000,
    };
    await jsm.consumers.add(options.stream, consumerConfig).catch(async (error: Error) => {
      await jsm.consumers.info(options.stream, durable).catch(() => {
        throw error;
      });
    });
    js = nc.jetstream();
  } catch (error) {
    await nc.close().catch(() => {});
    throw new EventStreamUnavailableError(
      `NATS at ${options.url} did not set up the event stream ${options.stream}: ${(error as Error).message}. Is JetStream enabled (nats-server -js)?`,
    );
  }

  // Whether the connection is up now: the client reconnects by itself (maxReconnectAttempts -1).
  let connected = true;
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === "disconnect") connected = false;
      else if (status.type === "reconnect") connected = true;
    }
  })().catch(() => {});

  const perMessage = Math.max(1, Math.floor((nc.info?.max_payload ?? 1024 * 1024) / EVENT_ROOM_BYTES));
  const publish = createBatcher<AcceptedEvent, true>(
    async (events) => {
      await js.publish(subject, encoder.encode(JSON.stringify(events)), { timeout: EVENT_PUBLISH_TIMEOUT_MS });
      return events.map(() => true as const);
    },
    { maxBatch: perMessage, maxInFlight: EVENT_PUBLISHES_IN_FLIGHT },
  );

  const stats: PipelineStats = { pending: 0, stored: 0, retries: 0 };
  let closing = false;
  let draining: number | null = null;
  let retryDelay = 0;
  const consumer = await js.consumers.get(options.stream, durable);

  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  /** The events of a message, or null when it isn't an array of events (not Podium's: terminated, never retried). */
  const eventsOf = (message: JsMsg): AcceptedEvent[] | null => {
    try {
      const events: unknown = JSON.parse(decoder.decode(message.data));
      return Array.isArray(events) ? (events as AcceptedEvent[]) : null;
    } catch {
      return null;
    }
  };

  /** ack/nak/term on a connection that just closed throw; the message then simply comes again. */
  const tell = (message: JsMsg, what: (message: JsMsg) => void) => {
    try {
      what(message);
    } catch {
      // redelivered after ack_wait
    }
  };

  /**
   * Stores one group's events and acks its messages after the commit; false (naked, waited) when it
   * fails. Each message is a unit of its own (`units`, its events' count): it is redelivered on its
   * own, whole, and stored once as such (store-batch.ts).
   */
  const storeGroup = async (messages: JsMsg[], events: AcceptedEvent[], units: number[]): Promise<boolean> => {
    stats.pending += events.length;
    try {
      await storeEventBatch(db, events, units);
      for (const message of messages) tell(message, (m) => m.ack());
      stats.stored += events.length;
      retryDelay = 0;
      return true;
    } catch (error) {
      stats.retries += 1;
      options.onError?.(error, events.length);
      retryDelay = Math.min(EVENT_RETRY_MAX_MS, retryDelay === 0 ? EVENT_RETRY_FIRST_MS : retryDelay * 2);
      // Delivered again after the wait: the database may be back by then.
      for (const message of messages) tell(message, (m) => m.nak(retryDelay));
      return false;
    } finally {
      stats.pending -= events.length;
    }
  };

  /**
   * Issue 32 item 4: the fetched messages are parsed and stored in groups of about EVENT_BATCH_MAX
   * events (as the in-process queue's batches): 64 messages of a few dozen events each made one
   * batch of over a thousand, whose parsing and preparation held the event loop, and every
   * request waiting on it, for 10 ms and more. After a group fails, the rest come again too.
   */
  const storeMessages = async (fetched: JsMsg[]) => {
    let messages: JsMsg[] = [];
    let events: AcceptedEvent[] = [];
    let units: number[] = [];
    for (const [index, message] of fetched.entries()) {
      const parsed = eventsOf(message);
      if (parsed === null) {
        options.onError?.(new Error(`a message on ${subject} is not a list of usage events; dropped`), 0);
        tell(message, (m) => m.term());
        continue;
      }
      messages.push(message);
      for (const event of parsed) events.push(event);
      units.push(parsed.length);
      if (events.length < EVENT_BATCH_MAX) continue;
      if (!(await storeGroup(messages, events, units))) {
        for (const rest of fetched.slice(index + 1)) tell(rest, (m) => m.nak(retryDelay));
        await wait(retryDelay);
        return;
      }
      messages = [];
      events = [];
      units = [];
    }
    if (messages.length > 0 && !(await storeGroup(messages, events, units))) await wait(retryDelay);
  };

  const loop = async () => {
    while (draining === null || Date.now() < draining) {
      const messages: JsMsg[] = [];
      let failure: unknown = null;
      try {
        const fetched = await consumer.fetch({ max_messages: EVENT_FETCH_MESSAGES, expires: 1_000 });
        for await (const message of fetched) messages.push(message);
      } catch (error) {
        failure = error;
      }
      // What arrived before a failure is stored all the same: unacknowledged, it would wait out
      // ack_wait, or (when this process is stopping) the next process.
      if (messages.length > 0) await storeMessages(messages);
      if (failure !== null) {
        // Stopping while NATS is away: nothing more can come. Otherwise (NATS unreachable for now,
        // or a fetch that missed its heartbeats on a busy machine) try again shortly.
        if (draining !== null && !(connected && !nc.isClosed())) break;
        options.onError?.(failure, 0);
        await wait(EVENT_RETRY_FIRST_MS * (draining === null ? 5 : 1));
        continue;
      }
      // An empty fetch while stopping ends the loop only when the stream has nothing left for us: on a
      // busy machine a fetch can expire empty with hundreds of events still pending (issue 29: the
      // close test stored 226 of 500), and those would wait for the next process.
      if (messages.length === 0 && draining !== null && (await nothingLeft())) break;
    }
  };
  /** Nothing in the stream waits to be delivered or acknowledged (true too when NATS can't say: it's away). */
  const nothingLeft = async () => {
    try {
      const info = await (await nc.jetstreamManager()).consumers.info(options.stream, durable);
      return info.num_pending === 0 && info.num_ack_pending === 0;
    } catch {
      return true;
    }
  };
  // A loop never ends on an error it didn't expect: it is told, and the loop is over (close() still resolves).
  const loops = Array.from({ length: EVENT_CONSUMER_LOOPS }, () =>
    loop().catch((error) => options.onError?.(error, 0)),
  );

  return {
    kind: "jetstream",
    state: () => (connected && !nc.isClosed() ? "ok" : "unreachable"),
    async accept(event) {
      if (closing) return "busy";
      try {
        await publish(event);
        return "queued";
      } catch {
        return "busy";
      }
    },
    async flush() {
      // Everything published is in the stream; it is stored once the consumer has nothing pending.
      const jsm = await nc.jetstreamManager();
      for (;;) {
        const info = await jsm.consumers.info(options.stream, durable);
        if (info.num_pending === 0 && info.num_ack_pending === 0) return;
        await wait(EVENT_FLUSH_POLL_MS);
      }
    },
    async close() {
      if (closing) return;
      closing = true;
      // Store what the stream holds (ours and others'), for a while: a stopping deployment leaves it empty.
      draining = Date.now() + (options.drainMaxMs ?? EVENT_DRAIN_MAX_MS);
      await Promise.all(loops);
      await nc.drain().catch(() => nc.close());
    },
    stats: () => ({ ...stats }),
  };
}
