import { timingSafeEqual } from "node:crypto";
import { linkGrantCookie, linkGrantFor } from "../link-grant";
import type { ViewLinkRow } from "./repository";

export { linkGrantCookie, linkGrantFor } from "../link-grant";

/**
 * Issue 33 item 3: whether a view link opens its deck now. A link the owner turned off (or
 * revoked), one past its expiry, and one with a passcode this browser hasn't given are closed:
 * the link's page says which in words, and every other route (document.json, thumbnails, the
 * presenter view, reading mode, likes) answers as for a link that doesn't exist.
 */
export type LinkState = "open" | "disabled" | "expired" | "passcode";

/** Issue 33: how long a given passcode holds in one browser before it is asked again. */
export const LINK_GRANT_MAX_AGE_SECONDS = 12 * 60 * 60;

function holdsGrant(link: { linkId: string; passcodeHash: string }, grant: string | undefined): boolean {
  if (!grant) return false;
  const given = Buffer.from(grant, "base64url");
  const expected = Buffer.from(linkGrantFor(link), "base64url");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The link's state for a browser holding `grant` (the cookie's value, if any), at `now`. */
export function linkStateOf(
  link: Pick<ViewLinkRow, "linkId" | "enabled" | "expiresAt" | "passcodeHash">,
  grant: string | undefined,
  now = new Date(),
): LinkState {
  if (!link.enabled) return "disabled";
  if (link.expiresAt !== null && link.expiresAt.getTime() <= now.getTime()) return "expired";
  if (link.passcodeHash !== null && !holdsGrant({ linkId: link.linkId, passcodeHash: link.passcodeHash }, grant)) {
    return "passcode";
  }
  return "open";
}

/** A request's route through a view link: the link id and the browser's grant cookie for it. */
export function linkRouteOf(linkId: string, cookies: Record<string, string | undefined>) {
  return { linkId, grant: cookies[linkGrantCookie(linkId)] };
}

/** Issue 33 item 3: a view link's settings, as the owner's form checks them. */
export const LINK_NAME_MAX_LENGTH = 100;
export const PASSCODE_MIN_LENGTH = 4;
export const PASSCODE_MAX_LENGTH = 200;
