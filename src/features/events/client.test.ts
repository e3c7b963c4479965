// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { encodeUsageSession, USAGE_SESSION_COOKIE } from "../../lib/usage-session";
import { trackEvent, trackViewPageLoaded } from "./client";
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

describe("trackViewPageLoaded (issue 28 item 4)", () => {
  const OID = "abcdefghijkl";
  const fetched: string[] = [];
  const answer = (response: Response | Error) =>
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        fetched.push(url);
        if (response instanceof Error) throw response;
        return response;
      }),
    );
  afterEach(() => {
    fetched.length = 0;
    vi.unstubAllGlobals();
  });

  it("asks for a visitor id for its usage session and sends the loaded event with it", async () => {
    answer(Response.json({ visitorId: "v1.abc.signature" }));
    expect(await trackViewPageLoaded(OID)).toBe(true);
    await flush();
    const [event] = sent;
    expect(fetched).toEqual([
      `${window.location.origin}/api/views/${OID}/visitor-id?session_id=${encodeURIComponent(event?.user.session_id ?? "")}`,
    ]);
    expect(event?.body).toEqual({ event_name: "loaded_public_view_page", oid: OID, visitor_id: "v1.abc.signature" });
  });

  it("sends the event without an id when the server gives none (the owner) or can't be asked", async () => {
    answer(Response.json({ visitorId: null }));
    await trackViewPageLoaded(OID);
    answer(new Error("offline"));
    await trackViewPageLoaded(OID);
    answer(new Response("busy", { status: 429 }));
    await trackViewPageLoaded(OID);
    await flush();
    expect(sent.map((event) => event.body)).toEqual(
      Array.from({ length: 3 }, () => ({ event_name: "loaded_public_view_page", oid: OID })),
    );
  });

  it("asks for nothing where events aren't sent (spec §7: the no-cookie host)", async () => {
    document.documentElement.dataset.env = "nocookie";
    answer(Response.json({ visitorId: "v1.abc.signature" }));
    expect(await trackViewPageLoaded(OID)).toBe(false);
    expect(fetched).toEqual([]);
  });
});
