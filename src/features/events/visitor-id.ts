import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Issue 28 item 4: a visitor id the server issues, and signs, when a view page is loaded
 * (`GET VISITOR_ID_PATH`, usage-event.ts), which the page's "loaded" usage event carries back (`body.visitor_id`).
 * Only an event with a valid id can count a view, so ids a client makes up count for nothing.
 * The id signs the presentation, the usage-session id the page names (its cookie's, where
 * cookies are allowed, so a reload within the view window is the same visitor; else one per page
 * load) and the time of issue, with a key derived from the app's secret: every process issues
 * and checks the same ids without talking. It is never stored in a cookie (spec §4: only the
 * usage-session cookie, with consent) and never kept by the server.
 */
export interface VisitorIds {
  /** A signed id for `sessionId` viewing `presentationOid`, issued at `now` (ms). */
  issue(presentationOid: string, sessionId: string, now: number): string;
  /**
   * Whether `token` was issued by a process with this secret for this presentation and session, and
   * is still young: at most `maxAgeMs` old (VISITOR_ID_MAX_AGE_MS for a view; a player's step
   * events use the id of its page load for the whole visit, STEP_VISITOR_ID_MAX_AGE_MS).
   */
  verify(token: string, presentationOid: string, sessionId: string, now: number, maxAgeMs?: number): boolean;
  /** When a well-formed `token` says it was issued (ms), or null; says nothing of its signature. */
  issuedAt(token: string): number | null;
}

/**
 * How long an id may be used after its issue: the page sends its "loaded" event as soon as the
 * id arrives, so a few minutes covers a slow network; an older id (one kept to be replayed) counts
 * for nothing.
 */
export const VISITOR_ID_MAX_AGE_MS = 10 * 60 * 1000;
/** Clocks of several processes may differ a little: an id issued this far "in the future" is still taken. */
const CLOCK_SKEW_MS = 60 * 1000;
/** The signature's length in base64url characters: 128 bits. */
const SIGNATURE_CHARS = 22;
/** The longest usage-session id (the usage event's schema: user.session_id at most 100 characters). */
export const SESSION_ID_MAX_LENGTH = 100;

export function createVisitorIds(secret: string): VisitorIds {
  // A key of its own, so a visitor id is never a valid CSRF token or salt, and the reverse.
  const key = createHmac("sha256", secret).update("podium visitor-id key").digest();
  const sign = (oid: string, sessionId: string, issued: string) =>
    createHmac("sha256", key)
      .update(`${oid}\u0000${sessionId}\u0000${issued}`)
      .digest("base64url")
      .slice(0, SIGNATURE_CHARS);
  return {
    issue(presentationOid, sessionId, now) {
      const issued = Math.floor(now / 1000).toString(36);
      return `v1.${issued}.${sign(presentationOid, sessionId, issued)}`;
    },
    issuedAt(token) {
      const [version, issued, signature, ...rest] = token.split(".");
      if (version !== "v1" || !issued || !signature || rest.length > 0) return null;
      if (!/^[0-9a-z]{1,10}$/.test(issued) || signature.length !== SIGNATURE_CHARS) return null;
      return Number.parseInt(issued, 36) * 1000;
    },
    verify(token, presentationOid, sessionId, now, maxAgeMs = VISITOR_ID_MAX_AGE_MS) {
      const [version, issued, signature, ...rest] = token.split(".");
      if (version !== "v1" || !issued || !signature || rest.length > 0) return false;
      if (!/^[0-9a-z]{1,10}$/.test(issued) || signature.length !== SIGNATURE_CHARS) return false;
      const issuedAt = Number.parseInt(issued, 36) * 1000;
      if (issuedAt > now + CLOCK_SKEW_MS || issuedAt < now - maxAgeMs) return false;
      const expected = Buffer.from(sign(presentationOid, sessionId, issued));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
