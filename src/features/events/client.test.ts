// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { encodeUsageSession, USAGE_SESSION_COOKIE } from "../../lib/usage-session";
import { trackEvent } from "./client";
import { addUsageEventFilter } from "./filters";
import type { UsageEvent } from "./usage-event";

/** What the page sent with navigator.sendBeacon. */
const sent: UsageEvent[] = [];

beforeEach(() => {
  document.documentElement.dataset.env = "production";
  // The page's cookie mode is read once, on the first event: "always" needs no consent.
  document.documentElement.dataset.cookies = "always";
  Object.defineProperty(navigator, "sendBeacon", {
    configurable: true,
    value: vi.fn((_url: string, data: Blob) => {
      void data.text().then((text) => sent.push(...(JSON.parse(text) as UsageEvent[])));
      return true;
    }),
  });
});
afterEach(() => {
  sent.length = 0;
});

const flush = async () => {
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
};

describe("trackEvent in the browser", () => {
  it("R5.7 R3.9 sends each event once, as an array of one, unless a page filter drops it", async () => {
    const remove = addUsageEventFilter((event) => (event.body.event_name === "show_modal" ? null : event));
    expect(await trackEvent("show_modal", { oid: "abcdefghijkl" })).toBe(false);
    expect(await trackEvent("transcript_opened", { oid: "abcdefghijkl" })).toBe(true);
    remove();
    expect(await trackEvent("show_modal", { oid: "abcdefghijkl" })).toBe(true);
    await flush();
    expect(sent.map((event) => event.body.event_name)).toEqual(["transcript_opened", "show_modal"]);
  });

  it("R4.12 carries the usage-session cookie's id as user.session_id and platform.id", async () => {
    await trackEvent("transcript_opened", { oid: "abcdefghijkl" });
    await flush();
    const cookie = document.cookie.split("; ").find((part) => part.startsWith(`${USAGE_SESSION_COOKIE}=`));
    const [event] = sent;
    expect(cookie).toBe(`${USAGE_SESSION_COOKIE}=${encodeUsageSession(event?.user.session_id ?? "")}`);
    expect(event?.platform.id).toBe(event?.user.session_id);
  });
});
