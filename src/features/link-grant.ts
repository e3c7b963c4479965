import { createHmac } from "node:crypto";

/**
 * Issue 33 item 3: the proof a browser holds once it gave a view link's passcode. Shared by the
 * link's gate (presentation/link-gate.ts: its pages and routes) and the usage events
 * (events/accepted-event.ts, store-batch.ts: events through a passcode link count only with it).
 */

/** The cookie that holds this browser's proof of a link's passcode (path /, HttpOnly). */
export function linkGrantCookie(linkId: string): string {
  return `podium_link_${linkId}`;
}

/**
 * The grant a browser holds once it gave the right passcode: an HMAC of the link id keyed with
 * the passcode's hash, which only the server knows. No state to keep, and a new passcode (a new
 * hash, a new salt) makes every earlier grant worthless.
 */
export function linkGrantFor(link: { linkId: string; passcodeHash: string }): string {
  return createHmac("sha256", link.passcodeHash).update(`podium view link grant\n${link.linkId}`).digest("base64url");
}
