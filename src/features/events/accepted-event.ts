import { randomUUID } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { isOid } from "../../lib/ids";
import type { SenderKeyer, SenderKeys } from "./sender-keys";
import { VIEWER_EVENTS } from "./usage-event";

export type { SenderKeys } from "./sender-keys";

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
 * Validates a usage-event request body and stamps it (spec §7: a JSON array holding one event),
 * with the sender's keys (`senderKeys`: the route's keyer, made from the app's secret).
 * Null when the body isn't a usage event: the route answers 400.
 */
export function acceptUsageEvent(
  request: FastifyRequest,
  body: unknown,
  senderKeys: SenderKeyer,
  now = Date.now(),
): AcceptedEvent | null {
  const parsed = eventSchema.safeParse(body);
  if (!parsed.success) return null;
  const [event] = parsed.data;
  // Batches are stored all or nothing: an event PostgreSQL can't store (a NUL, a lone surrogate)
  // is refused here, never left to fail the batch it would travel in.
  if (!storableInPostgres(event)) return null;
  const oid = event.body.oid && isOid(event.body.oid) ? event.body.oid : null;
  const wantsView = event.body.event_name === VIEWER_EVENTS.loadedPublicViewPage && oid !== null;
  return {
    id: randomUUID(),
    receivedAt: now,
    sessionId: event.user.session_id,
    eventName: event.body.event_name,
    presentationOid: oid,
    payload: event,
    wantsView,
    // request.ip is the socket's address, or the one a trusted balancer names (PODIUM_TRUST_PROXY): never the client's choice.
    sender: senderKeys.keysOf({
      address: request.ip,
      userAgent: request.headers["user-agent"] ?? "",
      presentationOid: wantsView ? oid : null,
      now,
    }),
  };
}

/** Whether every string in a JSON value (keys too) is one PostgreSQL text and jsonb accept. */
function storableInPostgres(value: unknown): boolean {
  if (typeof value === "string") return wellFormedWithoutNul(value);
  if (Array.isArray(value)) return value.every(storableInPostgres);
  if (value !== null && typeof value === "object") {
    return Object.entries(value).every(([key, item]) => storableInPostgres(key) && storableInPostgres(item));
  }
  return true;
}

/** No NUL and no lone surrogate (String#isWellFormed is ES2024, past this project's lib). */
function wellFormedWithoutNul(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit === 0) return false;
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i++;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) return false;
  }
  return true;
}
