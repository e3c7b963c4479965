import { randomUUID } from "node:crypto";
import { z } from "zod";
import { isOid } from "../../lib/ids";
import { NATIVE_LOG_EVENTS } from "./log-calls";
import type { SenderKeyer, SenderKeys } from "./sender-keys";
import { MAX_STAY_MS, MAX_STAYS_PER_EVENT, MAX_STEP_INDEX, STEP_ENGAGEMENT_EVENT } from "./step-engagement";
import { PLAYER_EVENTS, VIEWER_EVENTS } from "./usage-event";
import { embedSourceOf, shareSourceOf, type ViewSource, viewSourceOf } from "./view-source";
import type { VisitorIds } from "./visitor-id";

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
  /**
   * The usage session the browser named (spec §3 user.session_id): it counts as a visitor only
   * with the visitor id the server signed for it (issue 28 item 4, visitor-id.ts).
   */
  sessionId: string;
  eventName: string;
  presentationOid: string | null;
  /**
   * The event as sent, after validation, as JSON text: one string while it waits to be stored
   * (a parsed tree of a few dozen objects per event, held for a batch's linger, made the garbage
   * collector the largest cost at 20,000 events/s). Messages from before this change hold the
   * object itself; storeEventBatch takes both.
   */
  payload: string;
  /** Whether this event asks to count a view; storeEventBatch decides whether it does. */
  wantsView: boolean;
  /** Keys the server derives about the sender (issue 14 item 3); never client-chosen. */
  sender: SenderKeys;
  /**
   * Issue 33 item 2: where it came from, as a kind and a host only (view-source.ts): a loaded view
   * page (counted only if it counts a view), a play in an embed, a share button used. Messages
   * from before issue 33 have none.
   */
  source?: ViewSource | null;
}

/** Who sent a request, as the server sees it. */
export interface Sender {
  /** The socket's address, or the one a trusted balancer names (PODIUM_TRUST_PROXY): never the client's choice. */
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
 * Issue 33 item 1: a step_engagement event's body, checked here so that the statement that adds it
 * to the aggregates (store-batch.ts) can trust its shape: a batch is stored all or nothing.
 */
const stepBodySchema = z
  .object({
    oid: z.string().refine(isOid),
    link: z
      .string()
      .regex(/^[A-Za-z0-9_-]{16,64}$/)
      .optional(),
    stays: z
      .array(
        z
          .object({
            s: z.number().int().min(0).max(MAX_STEP_INDEX),
            ms: z.number().int().min(0).max(MAX_STAY_MS),
            f: z.literal(1).optional(),
            b: z.literal(1).optional(),
          })
          .strict(),
      )
      .max(MAX_STAYS_PER_EVENT),
    visit_ms: z
      .number()
      .int()
      .min(0)
      .max(24 * MAX_STAY_MS)
      .optional(),
  })
  .loose();

/**
 * Validates a usage-event request body and stamps it (spec §7: a JSON array holding one event),
 * with the keys of its sender `from` (`senderKeys`: the intake's keyer, made from the app's secret).
 * A loaded view page names its visitor by the id the server issued it (`body.visitor_id`, checked
 * with `visitorIds`); without a valid one the event is stored but can't count a view.
 * Null when the body isn't a usage event: the route answers 400.
 */
export function acceptUsageEvent(
  body: unknown,
  from: Sender,
  senderKeys: SenderKeyer,
  visitorIds: VisitorIds,
  now = Date.now(),
): AcceptedEvent | null {
  const parsed = eventSchema.safeParse(body);
  if (!parsed.success) return null;
  const [event] = parsed.data;
  if (event.body.event_name === STEP_ENGAGEMENT_EVENT && !stepBodySchema.safeParse(event.body).success) return null;
  // Batches are stored all or nothing: an event PostgreSQL can't store (a NUL, a lone surrogate)
  // is refused here, never left to fail the batch it would travel in. JSON.stringify writes both
  // as \u escapes and nothing else a page sends does, so only text with one needs the full walk.
  const payload = JSON.stringify(event);
  if (payload.includes("\\u") && !storableInPostgres(event)) return null;
  const oid = event.body.oid && isOid(event.body.oid) ? event.body.oid : null;
  const wantsView = event.body.event_name === VIEWER_EVENTS.loadedPublicViewPage && oid !== null;
  const token = event.body.visitor_id;
  const signed =
    wantsView && oid !== null && typeof token === "string" && visitorIds.verify(token, oid, event.user.session_id, now);
  return {
    source:
      oid === null ? null : sourceOf(event.body.event_name, event.body, (event as { platform?: unknown }).platform),
    id: randomUUID(),
    receivedAt: now,
    sessionId: event.user.session_id,
    eventName: event.body.event_name,
    presentationOid: oid,
    payload,
    wantsView,
    sender: senderKeys.keysOf({
      address: from.address,
      visitorId: signed ? event.user.session_id : null,
      presentationOid: wantsView ? oid : null,
      now,
    }),
  };
}

/** Issue 33 item 2: the source an event tells of, if it is one that counts where views come from. */
function sourceOf(name: string, body: Record<string, unknown>, platform: unknown): ViewSource | null {
  const page = (platform ?? {}) as { referer?: unknown; url?: unknown };
  const referer = typeof page.referer === "string" ? page.referer : null;
  const url = typeof page.url === "string" ? page.url : null;
  if (name === VIEWER_EVENTS.loadedPublicViewPage) return viewSourceOf(referer, url);
  if (name === PLAYER_EVENTS.presentationStarted && url !== null && /^https?:\/\/[^/]+\/p\/embed\//.test(url)) {
    return embedSourceOf(referer);
  }
  if (name === NATIVE_LOG_EVENTS.sharePresentation) return shareSourceOf(body.type);
  if (name === NATIVE_LOG_EVENTS.copyViewLink) return shareSourceOf("link");
  return null;
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
