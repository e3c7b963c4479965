import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Limits } from "../../lib/limits";

/**
 * Login throttling after OWASP's advice (Authentication Cheat Sheet; "Slow down online guessing
 * attacks with device cookies"). A hard lockout of an account after a few failures would let
 * anyone who knows an email keep its owner out, so instead:
 *
 * - Failures of one account from one client (an address, or a device cookie) get growing
 *   delays: after LOGIN_FREE_FAILURES, 1 s, 2 s, 4 s … up to 15 minutes. Nobody else waits.
 * - Across all clients, an account takes at most `loginFailuresPerAccount` failures in 15
 *   minutes from untrusted clients (a ceiling against guessing spread over many addresses).
 * - A browser that signed in to the account before holds a device cookie (signed, HttpOnly,
 *   scoped to /login/) and is never held back by that ceiling — only by its own delays. A
 *   cookie rather than a remembered address: the owner's browser keeps working behind a shared
 *   NAT or a new network, and a stranger behind the owner's NAT gains nothing from it.
 * - Per address, `loginPerAddress` failures in 15 minutes (a ceiling against one address
 *   trying many accounts). Successful logins don't count.
 *
 * Every check runs before the password is hashed, so refused attempts cost no scrypt; the same
 * rules apply to emails without an account (what is refused says nothing about who exists).
 * Attempts are counted when they start and taken back if they succeed, so a burst of parallel
 * guesses can't slip past the counts while scrypt runs.
 *
 * The counts live where `limits` keeps them (issue 16 item 1): in Redis, shared by every process,
 * when REDIS_URL is set; else in this process. The device cookie's key comes from the app's secret,
 * the same in every process and across restarts.
 */

/** The window of the per-address and per-account counts. */
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** Failures of one account from one client before each attempt waits. */
export const LOGIN_FREE_FAILURES = 5;
/** The first wait; it doubles with each further failure, up to LOGIN_MAX_DELAY_MS. */
export const LOGIN_BASE_DELAY_MS = 1000;
export const LOGIN_MAX_DELAY_MS = 15 * 60 * 1000;
/** A client whose last failure on an account is this old starts afresh. */
const LOGIN_FORGET_AFTER_MS = 24 * 60 * 60 * 1000;

/** The device cookie: proof that this browser signed in to an account before. */
export const DEVICE_COOKIE = "podium_device";
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 90 * 24 * 60 * 60;
const DEVICE_COOKIE_PATTERN = /^([A-Za-z0-9_-]{24})\.([A-Za-z0-9_-]{43})$/;

export type LoginOutcome = "failure" | "success" | "aborted";

export type LoginAttempt =
  | { allowed: false; retryAfterSeconds: number }
  | { allowed: true; end(outcome: LoginOutcome): Promise<void> };

export interface LoginThrottle {
  /** Whether this login may be tried now; an allowed attempt must be ended with its outcome. */
  begin(input: { email: string; address: string; deviceCookie: string | undefined }): Promise<LoginAttempt>;
  /** A new device cookie's value for a browser that just signed in to the account with this email. */
  deviceCookieFor(email: string): string;
}

export function createLoginThrottle(
  limits: {
    loginPerAddress: number;
    loginFailuresPerAccount: number;
  },
  /** The app's secret (the same in every process and across restarts), so device cookies stay valid. */
  secret: string,
  /** Where the counts live (in this process, or Redis shared by all). */
  store: Limits,
  /**
   * The counts' names; issue 33: a view link's passcode is throttled by the same rules under
   * "link-passcode", the link id in the email's place.
   */
  namespace = "login",
): LoginThrottle {
  const deviceKey = createHmac("sha256", secret).update("podium device cookie").digest();
  const failuresByAddress = store.sliding(`${namespace}-address`, limits.loginPerAddress, LOGIN_WINDOW_MS);
  const failuresByAccount = store.sliding(`${namespace}-account`, limits.loginFailuresPerAccount, LOGIN_WINDOW_MS);
  const failuresByClient = store.backoff(`${namespace}-client`, {
    freeFailures: LOGIN_FREE_FAILURES,
    baseDelayMs: LOGIN_BASE_DELAY_MS,
    maxDelayMs: LOGIN_MAX_DELAY_MS,
    forgetAfterMs: LOGIN_FORGET_AFTER_MS,
  });

  const signature = (email: string, nonce: string) =>
    createHmac("sha256", deviceKey).update(`device\n${email}\n${nonce}`).digest();

  /** The device's id when the cookie was issued for this email by Podium, else null. */
  const deviceOf = (cookie: string | undefined, email: string): string | null => {
    const match = cookie ? DEVICE_COOKIE_PATTERN.exec(cookie) : null;
    if (!match?.[1] || !match[2]) return null;
    const given = Buffer.from(match[2], "base64url");
    const expected = signature(email, match[1]);
    return given.length === expected.length && timingSafeEqual(given, expected) ? match[1] : null;
  };

  return {
    async begin({ email, address, deviceCookie }) {
      const device = deviceOf(deviceCookie, email);
      const client = `${email}\n${device ? `device:${device}` : `address:${address}`}`;
      const byAddress = await failuresByAddress.hit(address);
      if (!byAddress.allowed) return { allowed: false, retryAfterSeconds: byAddress.retryAfterSeconds };
      const byClient = await failuresByClient.begin(client);
      if (!byClient.allowed) {
        await failuresByAddress.undo(address);
        return { allowed: false, retryAfterSeconds: byClient.retryAfterSeconds };
      }
      if (!device) {
        const byAccount = await failuresByAccount.hit(email);
        if (!byAccount.allowed) {
          await failuresByAddress.undo(address);
          await failuresByClient.end(client, "aborted");
          return { allowed: false, retryAfterSeconds: byAccount.retryAfterSeconds };
        }
      }
      let ended = false;
      return {
        allowed: true,
        async end(outcome) {
          if (ended) return;
          ended = true;
          // Only failures count: a success (or an attempt that was never judged) is taken back.
          if (outcome !== "failure") {
            await failuresByAddress.undo(address);
            if (!device) await failuresByAccount.undo(email);
          }
          await failuresByClient.end(client, outcome);
        },
      };
    },

    deviceCookieFor(email) {
      const nonce = randomBytes(18).toString("base64url");
      return `${nonce}.${signature(email, nonce).toString("base64url")}`;
    },
  };
}
