import { createHash } from "node:crypto";
import { z } from "zod";
import { isOid } from "../../lib/ids";
import { linkGrantCookie } from "../link-grant";
import { timeOrderedId } from "./event-id";
import { NATIVE_LOG_EVENTS } from "./log-calls";
import type { SenderKeyer, SenderKeys } from "./sender-keys";
import {
  claimedMs,
  MAX_STAY_MS,
  MAX_STAYS_PER_EVENT,
  MAX_STEP_INDEX,
  STEP_ENGAGEMENT_EVENT,
  STEP_TIME_SLACK_MS,
  STEP_VISITOR_ID_MAX_AGE_MS,
} from "./step-engagement";
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
  /**
   * Given at acceptance (a UUID; issue 32 item 4: a time-ordered one, event-id.ts): a batch stored
   * twice (a redelivery) stores it once.
   */
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
  /**
   * Issue 33 (forged step events): a step event's bounds, or null when it can add nothing (no
   * valid visitor id, or a claim past its own budget). storeEventBatch adds it to the aggregates
   * only if the visitor's claims stay within `budgetMs`, its steps within the deck, its address
   * within the hourly cap, and (through a view link with a passcode) `linkGrant` is the link's.
   * Messages from before have none (and add nothing).
   */
  step?: StepBounds | null;
}

export interface StepBounds {
  /** The time its stays claim (step-engagement.ts claimedMs). */
  claimedMs: number;
  /** The time since its visitor id was issued, plus STEP_TIME_SLACK_MS: what the visitor may claim in all. */
  budgetMs: number;
  /** The view link it names (body.link), if any. */
  link: string | null;
  /**
   * SHA-256 (hex) of the passcode grant cookie the request carried for the event's view link, or
   * null: the grant itself (a bearer proof) never travels through the pipeline.
   */
  linkGrant: string | null;
}

/** Who sent a request, as the server sees it. */
export interface Sender {
  /** The socket's address, or the one a trusted balancer names (PODIUM_TRUST_PROXY): never the client's choice. */
  address: string;
  /** The request's Cookie header (issue 33: a view link's passcode grant), if any. */
  cookie?: string | undefined;
}

/** What a usage event must hold (spec §3): the fields the intake reads, anything else as it is. */
export interface UsageEventShape {
  core: { type: string; event_type: string; [key: string]: unknown };
  user: { session_id: string; [key: string]: unknown };
  body: { event_name: string; oid?: string; [key: string]: unknown };
  platform?: unknown;
  [key: string]: unknown;
}

/**
 * The one event of a usage-event request body (spec §7: a JSON array holding exactly one), or null
 * when it isn't one: `core.type` (≤ 50 characters) and `core.event_type` (≤ 100) are text,
 * `user.session_id` and `body.event_name` text of 1 to 100 characters, `body.oid` absent or text of
 * at most 20; `core`, `user` and `body` objects (not arrays, not null); other fields anything.
 * Issue 32 item 4: this was a zod schema, whose parse copied each of these objects (they were
 * then garbage); the checks are the same (usage-event-shape.test.ts compares them on many bodies).
 */
export function usageEventOf(body: unknown): UsageEventShape | null {
  if (!Array.isArray(body) || body.length !== 1) return null;
  const event: unknown = body[0];
  if (!isRecord(event)) return null;
  const { core, user, body: fields } = event;
  if (!isRecord(core) || !isText(core.type, 0, 50) || !isText(core.event_type, 0, 100)) return null;
  if (!isRecord(user) || !isText(user.session_id, 1, 100)) return null;
  if (!isRecord(fields) || !isText(fields.event_name, 1, 100)) return null;
  if (fields.oid !== undefined && !isText(fields.oid, 0, 20)) return null;
  return event as UsageEventShape;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isText(value: unknown, min: number, max: number): value is string {
  return typeof value === "string" && value.length >= min && value.length <= max;
}

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
    visitor_id: z.string().max(100).optional(),
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
  const event = usageEventOf(body);
  if (event === null) return null;
  if (event.body.event_name === STEP_ENGAGEMENT_EVENT && !stepBodySchema.safeParse(event.body).success) return null;
  const oid = event.body.oid && isOid(event.body.oid) ? event.body.oid : null;
  const source = oid === null ? null : sourceOf(event.body.event_name, event.body, event.platform);
  // Issue 33 items 2 and 6: of the page that linked here only the site is kept, never its path or query.
  keepRefererOrigin(event);
  // Batches are stored all or nothing: an event PostgreSQL can't store (a NUL, a lone surrogate)
  // is refused here, never left to fail the batch it would travel in. JSON.stringify writes both
  // as \u escapes and nothing else a page sends does, so only text with one needs the full walk.
  const payload = JSON.stringify(event);
  if (payload.includes("\\u") && !storableInPostgres(event)) return null;
  const wantsView = event.body.event_name === VIEWER_EVENTS.loadedPublicViewPage && oid !== null;
  const token = event.body.visitor_id;
  const signed =
    wantsView && oid !== null && typeof token === "string" && visitorIds.verify(token, oid, event.user.session_id, now);
  const step =
    event.body.event_name === STEP_ENGAGEMENT_EVENT && oid !== null
      ? stepBoundsOf(event.body as unknown as StepBody, oid, event.user.session_id, from, visitorIds, now)
      : null;
  return {
    step,
    source,
    id: timeOrderedId(now),
    receivedAt: now,
    sessionId: event.user.session_id,
    eventName: event.body.event_name,
    presentationOid: oid,
    payload,
    wantsView,
    sender: senderKeys.keysOf({
      address: from.address,
      visitorId: signed || step !== null ? event.user.session_id : null,
      // Issue 33 item 6: every key is made for one presentation, so none joins a visitor's decks.
      presentationOid: oid,
      now,
    }),
  };
}

type StepBody = z.infer<typeof stepBodySchema>;

/**
 * Issue 33 (forged step events): what a step event may add. Only with the visitor id the server
 * signed for its page load (so only a visitor the server saw, never the owner's), and never more
 * time than has passed since that id was issued.
 */
function stepBoundsOf(
  body: StepBody,
  oid: string,
  sessionId: string,
  from: Sender,
  visitorIds: VisitorIds,
  now: number,
): StepBounds | null {
  const token = body.visitor_id;
  if (typeof token !== "string" || !visitorIds.verify(token, oid, sessionId, now, STEP_VISITOR_ID_MAX_AGE_MS)) {
    return null;
  }
  const issuedAt = visitorIds.issuedAt(token) ?? now;
  const budgetMs = Math.max(0, now - issuedAt) + STEP_TIME_SLACK_MS;
  const claimed = claimedMs(body.stays);
  if (claimed > budgetMs || (body.visit_ms ?? 0) > budgetMs) return null;
  const grant = body.link ? cookieValue(from.cookie, linkGrantCookie(body.link)) : null;
  return {
    claimedMs: claimed,
    budgetMs,
    link: body.link ?? null,
    linkGrant: grant === null ? null : createHash("sha256").update(grant).digest("hex"),
  };
}

/** Replaces `platform.referer` with its origin (null when it isn't a web address). */
function keepRefererOrigin(event: { platform?: unknown }) {
  const platform = event.platform;
  if (platform === null || typeof platform !== "object") return;
  const page = platform as { referer?: unknown };
  if (typeof page.referer !== "string") return;
  page.referer = originOfReferer(page.referer);
}

/** Referers whose origin is kept: a page's beacons name the same few (issue 32 item 4: a URL parse each was a fiftieth of the intake). */
const REFERER_ORIGINS_KEPT = 1_000;
const refererOrigins = new Map<string, string | null>();

/** The origin of an http(s) address, or null. */
function originOfReferer(referer: string): string | null {
  const known = refererOrigins.get(referer);
  if (known !== undefined) return known;
  let origin: string | null;
  try {
    const url = new URL(referer);
    origin = url.protocol === "http:" || url.protocol === "https:" ? url.origin : null;
  } catch {
    origin = null;
  }
  if (refererOrigins.size >= REFERER_ORIGINS_KEPT) refererOrigins.clear();
  refererOrigins.set(referer, origin);
  return origin;
}

/** One cookie's value in a Cookie header, or null. */
export function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponentSafe(part.slice(eq + 1).trim());
  }
  return null;
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
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
