import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { AcceptedEvent, StepBounds } from "../accepted-event";
import { createSenderKeyer } from "../sender-keys";
import { STEP_ENGAGEMENT_EVENT, type StepBatch } from "../step-engagement";
import { VIEWER_EVENTS } from "../usage-event";

/** Tests' keyer: the keys the routes derive, from a fixed secret. */
export const testSenderKeys = createSenderKeyer("test-secret-test-secret-test-secret-0001");

/**
 * An accepted event as the route makes it (features/events/accepted-event.ts), for tests that
 * store batches directly: a loaded public view page by default, from `address` at `at` (an ISO
 * time or ms), with a fresh id unless one is given. Its visitor is its session (random unless
 * given), as if the server had issued it a visitor id (issue 28 item 4); `signed: false` is an
 * event without a valid one.
 */
export function acceptedEvent(options: {
  oid: string | null;
  at?: string | number;
  address?: string;
  sessionId?: string;
  signed?: boolean;
  eventName?: string;
  id?: string;
  /** A step event's bounds (issue 33): by default a signed visitor's claim of 1 s of its 10 minutes. */
  step?: StepBounds | null;
}): AcceptedEvent {
  const eventName = options.eventName ?? VIEWER_EVENTS.loadedPublicViewPage;
  const receivedAt =
    options.at === undefined ? Date.now() : typeof options.at === "number" ? options.at : Date.parse(options.at);
  const wantsView = eventName === VIEWER_EVENTS.loadedPublicViewPage && options.oid !== null;
  const sessionId = options.sessionId ?? randomUUID();
  const step =
    eventName === STEP_ENGAGEMENT_EVENT && options.oid !== null
      ? options.step === undefined
        ? { claimedMs: 1_000, budgetMs: 600_000, link: null, linkGrant: null }
        : options.step
      : null;
  return {
    step,
    id: options.id ?? randomUUID(),
    receivedAt,
    sessionId,
    eventName,
    presentationOid: options.oid,
    payload: JSON.stringify({
      core: { type: "Analytics", event_type: eventName },
      user: { session_id: sessionId },
      body: options.oid === null ? { event_name: eventName } : { event_name: eventName, oid: options.oid },
    }),
    wantsView,
    sender: testSenderKeys.keysOf({
      address: options.address ?? "203.0.113.7",
      visitorId: options.signed === false ? null : sessionId,
      presentationOid: options.oid,
      now: receivedAt,
    }),
  };
}

/** The consent cookie of a visitor who allowed performance cookies (issue 33 item 6: step events need it). */
export const PERFORMANCE_CONSENT = "podium_cookie_consent=performance";

/**
 * Posts one step-engagement batch (issue 33) to the usage-event intake as the player sends it: for
 * `oid`, in `session`, with the visitor id the page load was given (null: none), from `address`
 * with `cookie` (performance cookies allowed unless told).
 */
export function postStepBatch(
  app: FastifyInstance,
  event: { oid: string; session: string; visitorId: string | null; batch: StepBatch },
  { cookie = PERFORMANCE_CONSENT, address = "192.0.2.10" }: { cookie?: string; address?: string } = {},
) {
  const { oid, session, visitorId, batch } = event;
  return app.inject({
    method: "POST",
    url: "/log/json",
    remoteAddress: address,
    headers: { "content-type": "application/json", cookie },
    payload: JSON.stringify([
      {
        core: { type: "Analytics", event_type: STEP_ENGAGEMENT_EVENT },
        user: { session_id: session },
        body: {
          event_name: STEP_ENGAGEMENT_EVENT,
          oid,
          ...(visitorId === null ? {} : { visitor_id: visitorId }),
          ...batch,
        },
      },
    ]),
  });
}
