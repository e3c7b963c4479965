import type { Database } from "../../db/client";
import type { AcceptedEvent } from "./accepted-event";
import { recordUsageEvent } from "./repository";

/**
 * Stores a batch of accepted usage events (issue 14): all of them or none. The event pipeline
 * (in-process queue or NATS JetStream) calls this with whatever it has gathered; it may call it
 * again with events already stored (a redelivery), which must not store or count them twice.
 */
export async function storeEventBatch(db: Database, events: readonly AcceptedEvent[]): Promise<void> {
  if (events.length === 0) return;
  await db.transaction(async (tx) => {
    for (const event of events) {
      await recordUsageEvent(tx, {
        sessionId: event.sessionId,
        eventName: event.eventName,
        presentationOid: event.presentationOid,
        payload: event.payload,
        countsAsView: event.wantsView,
      });
    }
  });
}
