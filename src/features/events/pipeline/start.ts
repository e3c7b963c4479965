import type { Database } from "../../../db/client";
import { createInProcessPipeline } from "./in-process";
import { startJetStreamPipeline } from "./jetstream";
import type { EventPipeline } from "./types";

/**
 * Issue 14 items 1–2: the pipeline the settings ask for: JetStream when NATS_URL is set (it
 * rejects with EventStreamUnavailableError when NATS can't be reached), else the in-process queue.
 */
export async function startEventPipeline(
  db: Database,
  settings: { natsUrl: string | null; stream: string; streamMaxBytes: number; queueLimit: number; drainMaxMs: number },
  onError: (error: unknown, batchSize: number) => void,
): Promise<EventPipeline> {
  if (settings.natsUrl) {
    return startJetStreamPipeline(db, {
      url: settings.natsUrl,
      stream: settings.stream,
      maxBytes: settings.streamMaxBytes,
      drainMaxMs: settings.drainMaxMs,
      onError,
    });
  }
  return createInProcessPipeline(db, { limit: settings.queueLimit, onError });
}
