import { type ClientLogger, type ClientLogMessage, createClientLogger } from "../../lib/client-log";
import { onPageOrigin } from "../../lib/http-client";
import {
  COOKIE_CONSENT_CHANGE_EVENT,
  cookieDomainForPage,
  createUsageSession,
  type UsageCookieMode,
  type UsageSession,
} from "../../lib/usage-session";
import { filterUsageEvent } from "./filters";
import { buildUsageEvent, CLIENT_LOG_PATH, type EventFamily, VIEWER_EVENTS, visitorIdPath } from "./usage-event";

/**
 * Sends usage events from the browser (spec §7): a beacon to /log/json when the browser has
 * one, else a POST to /fallback/json. Failures are ignored (spec §8): tracking never gets in
 * a visitor's way. The session id comes from the usage-session cookie where cookies are
 * allowed (lib/usage-session.ts), else it lives only for this page load.
 */
let pageSessionId: string | null = null;
let usageSession: UsageSession | null = null;

/** The page's usage session, made on first use from the page's cookie mode (`<html data-cookies>`). */
export function currentUsageSession(): UsageSession {
  if (usageSession) return usageSession;
  const declared = document.documentElement.dataset.cookies;
  const mode: UsageCookieMode = declared === "always" || declared === "consent" ? declared : "off";
  const session = createUsageSession({
    mode,
    jar: document,
    randomId,
    secure: window.location.protocol === "https:",
    domain: usageCookieDomainOfPage(),
  });
  window.addEventListener(COOKIE_CONSENT_CHANGE_EVENT, (event) => {
    session.consentChanged((event as CustomEvent<{ performance?: boolean }>).detail?.performance === true);
  });
  usageSession = session;
  return session;
}

/** Spec §9: the usage cookie's domain on this page (the environment's, when the page is on it). */
export function usageCookieDomainOfPage(): string | null {
  return cookieDomainForPage(window.location.hostname, document.documentElement.dataset.cookieDomain);
}

/** R8.7: the spec's error where the browser has no secure random numbers. */
export const NO_SECURE_RANDOM_MESSAGE = "crypto.getRandomValues() not supported";

/**
 * A random id for a usage session (24 hex digits). Without crypto.getRandomValues it throws the
 * spec's error (R8.7), never an id of zeros that every such browser would share.
 */
export function randomId(): string {
  if (typeof globalThis.crypto?.getRandomValues !== "function") throw new Error(NO_SECURE_RANDOM_MESSAGE);
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Spec §7: on pre-production, local and dev hosts events only go to the console; the no-cookie test host sends nothing. */
export function eventDelivery(environment: string | undefined): "send" | "console" | "none" {
  if (environment === "nocookie") return "none";
  if (environment === "preproduction" || environment === "local" || environment === "dev") return "console";
  return "send";
}

export async function trackEvent(
  eventName: string,
  fields: Record<string, unknown> = {},
  /** Spec §3: the event's family (Analytics/Js unless given; the player sends Analytics/Webgl). */
  family?: EventFamily,
): Promise<boolean> {
  if (typeof window === "undefined") return false;
  const delivery = eventDelivery(document.documentElement.dataset.env);
  let session: UsageSession;
  try {
    session = currentUsageSession();
    pageSessionId ??= randomId();
  } catch (error) {
    // R8.7 raised (no secure random numbers): reported, and (R8.10) the event is dropped
    // without getting in the visitor's way.
    console.error(error);
    return false;
  }
  session.touch();
  const built = buildUsageEvent({
    eventName,
    fields,
    sessionId: session.id,
    cookieId: session.cookieId,
    pageSessionId,
    url: window.location.href,
    referer: document.referrer || null,
    now: Date.now(),
    family,
  });
  // Spec §5: the page's filters may drop (or change) the event.
  const event = filterUsageEvent(built);
  if (!event || delivery === "none") return false;
  if (delivery === "console") {
    console.info("podium usage event", event);
    return false;
  }
  const body = JSON.stringify([event]);
  try {
    if (
      typeof navigator.sendBeacon === "function" &&
      navigator.sendBeacon("/log/json", new Blob([body], { type: "application/json" }))
    ) {
      return true;
    }
    const response = await fetch(onPageOrigin("/fallback/json"), {
      method: "POST",
      credentials: "include",
      headers: { "Content-Type": "application/json" },
      body,
      signal: AbortSignal.timeout(20_000),
    });
    return response.ok;
  } catch {
    return false;
  }
}

/** How long the page waits for its visitor id before sending its loaded event without one (spec §7's 20 s). */
const VISITOR_ID_TIMEOUT_MS = 20_000;

/**
 * The view page's "loaded" event (spec §4), carrying the visitor id the server signs for this
 * page's usage session (issue 28 item 4: only such an event can count a view; the server gives
 * none to the presentation's owner and collaborators). Where events aren't sent (the no-cookie
 * host, console-only hosts) no id is asked for; if asking fails the event goes without one and
 * counts no view (spec §8: tracking never gets in the visitor's way).
 */
export async function trackViewPageLoaded(oid: string): Promise<boolean> {
  if (typeof window === "undefined") return false;
  let visitorId: string | null = null;
  if (eventDelivery(document.documentElement.dataset.env) === "send") {
    try {
      const sessionId = currentUsageSession().id;
      const response = await fetch(onPageOrigin(`${visitorIdPath(oid)}?session_id=${encodeURIComponent(sessionId)}`), {
        credentials: "same-origin",
        headers: { accept: "application/json" },
        signal: AbortSignal.timeout(VISITOR_ID_TIMEOUT_MS),
      });
      const body = response.ok ? ((await response.json()) as { visitorId?: unknown }) : null;
      if (typeof body?.visitorId === "string") visitorId = body.visitorId;
    } catch {
      // No id: the event is still sent, and counts no view.
    }
  }
  return trackEvent(VIEWER_EVENTS.loadedPublicViewPage, visitorId === null ? { oid } : { oid, visitor_id: visitorId });
}

let clientLogger: ClientLogger | null = null;

/**
 * Spec §7 client log: in production to Podium's log endpoint, elsewhere to the console.
 * Never throws and never delays the caller's work (spec §8: logging failures are ignored).
 */
export function logClientProblem(message: ClientLogMessage): Promise<void> {
  if (typeof window === "undefined") return Promise.resolve();
  clientLogger ??= createClientLogger({
    production: document.documentElement.dataset.env === "production",
    logApiEndpoint: CLIENT_LOG_PATH,
    sessionId: () => currentUsageSession().id,
    fetch: (url, init) => fetch(url, init),
    console,
    pageStart: Date.now() - performance.now(),
  });
  return clientLogger.log(message).catch(() => {});
}
