import { MOBILE_MEDIA_QUERY } from "../lib/constants";

/**
 * Spec §9, issue 12: whether the browser's viewport is mobile (narrower than 768 px) right now.
 * Read when acting (a click), never while rendering: what a page shows on a phone is decided
 * by CSS at the same width, so the server's markup and the hydrated page always agree.
 * `serverGuess` (page data `isMobile`, from the user agent) answers where there is no
 * viewport to ask (a test's DOM without matchMedia).
 */
export function isMobileViewport(serverGuess: boolean): boolean {
  if (typeof window === "undefined" || typeof window.matchMedia !== "function") return serverGuess;
  return window.matchMedia(MOBILE_MEDIA_QUERY).matches;
}
