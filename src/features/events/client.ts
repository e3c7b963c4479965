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

export async function trackEvent(eventName: string, fields: Record<string, unknown> = {}): Promise<boolean> {
  if (typeof window === "undefined") return false;
  const event = buildUsageEvent({
    eventName,
    fields,
    sessionId: pageSessionId,
    pageSessionId,
    url: window.location.href,
    referer: document.referrer || null,
    now: Date.now(),
  });
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
