import { buildUsageEvent } from "./usage-event";

/**
 * Sends usage events from the browser (spec §7): a beacon to /log/json when the browser has
 * one, else a POST to /fallback/json. Failures are ignored (spec §8): tracking never gets in
 * a visitor's way. Without cookie consent the session id lives only for this page load.
 */
const pageSessionId = randomId();

function randomId(): string {
  const bytes = new Uint8Array(12);
  globalThis.crypto?.getRandomValues?.(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Spec §7: on pre-production, local and dev hosts events only go to the console; the no-cookie test host sends nothing. */
export function eventDelivery(environment: string | undefined): "send" | "console" | "none" {
  if (environment === "nocookie") return "none";
  if (environment === "preproduction" || environment === "local" || environment === "dev") return "console";
  return "send";
}

export async function trackEvent(eventName: string, fields: Record<string, unknown> = {}): Promise<boolean> {
  if (typeof window === "undefined") return false;
  const delivery = eventDelivery(document.documentElement.dataset.env);
  const event = buildUsageEvent({
    eventName,
    fields,
    sessionId: pageSessionId,
    pageSessionId,
    url: window.location.href,
    referer: document.referrer || null,
    now: Date.now(),
  });
  if (delivery === "none") return false;
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
    const response = await fetch("/fallback/json", {
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
