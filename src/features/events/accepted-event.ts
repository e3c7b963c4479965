import { randomUUID } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { isOid } from "../../lib/ids";
import { VIEWER_EVENTS } from "./usage-event";

/**
 * A usage event the server has accepted (issue 14): validated, stamped with its own id and
 * time, and attributed to what the server can tell about its sender. This is what travels
 * through the event pipeline (the in-process queue, or NATS JetStream) to `storeEventBatch`,
 * so it is plain JSON.
 */
export interface AcceptedEvent {
  /** Given at acceptance (a UUID): a batch stored twice (a redelivery) stores it once. */
  id: string;
  /** Server clock at acceptance, ms since the epoch. */
  receivedAt: number;
  /** The usage session the browser named (spec §3 user.session_id): never trusted for counting. */
  sessionId: string;
  eventName: string;
  presentationOid: string | null;
  /** The event as sent, after validation. */
  payload: unknown;
  /** Whether this event asks to count a view; storeEventBatch decides whether it does. */
  wantsView: boolean;
  /** Keys the server derives about the sender (issue 14 item 3); never client-chosen. */
  sender: SenderKeys;
}

/** What the server can tell about who sent an event, as keys that don't store the address itself. */
export interface SenderKeys {
  /** The sending address, keyed. */
  address: string;
}

const eventSchema = z.tuple([
  z
    .object({
      core: z.object({ type: z.string().max(50), event_type: z.string().max(100) }).loose(),
      user: z.object({ session_id: z.string().min(1).max(100) }).loose(),
      body: z.object({ event_name: z.string().min(1).max(100), oid: z.string().max(20).optional() }).loose(),
    })
    .loose(),
]);

/**
 * Validates a usage-event request body and stamps it (spec §7: a JSON array holding one event).
 * Null when the body isn't a usage event: the route answers 400.
 */
export function acceptUsageEvent(request: FastifyRequest, body: unknown, now = Date.now()): AcceptedEvent | null {
  const parsed = eventSchema.safeParse(body);
  if (!parsed.success) return null;
  const [event] = parsed.data;
  const oid = event.body.oid && isOid(event.body.oid) ? event.body.oid : null;
  return {
    id: randomUUID(),
    receivedAt: now,
    sessionId: event.user.session_id,
    eventName: event.body.event_name,
    presentationOid: oid,
    payload: event,
    wantsView: event.body.event_name === VIEWER_EVENTS.loadedPublicViewPage && oid !== null,
    sender: { address: request.ip },
  };
}
