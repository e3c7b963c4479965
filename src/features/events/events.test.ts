import { describe, expect, it } from "vitest";
import { eventDelivery } from "./client";
import { buildUsageEvent } from "./usage-event";

describe("usage events", () => {
  it("R3.9 have the spec's shape: core, event_source, platform (Web), user, body", () => {
    const event = buildUsageEvent({
      eventName: "transcript_opened",
      fields: { oid: "abcdefghijkl" },
      sessionId: "s1",
      cookieId: null,
      pageSessionId: "p1",
      url: "https://podium.example/p/abcdefghijkl/",
      referer: null,
      now: 1_700_000_000_000,
    });
    expect(event).toEqual({
      core: {
        type: "Analytics",
        schema_id: 1,
        client_time: 1_700_000_000_000,
        event_source: "Js",
        event_type: "transcript_opened",
      },
      event_source: { single_page_session_id: "p1" },
      platform: { type: "Web", id: null, referer: null, url: "https://podium.example/p/abcdefghijkl/" },
      user: { session_id: "s1" },
      body: { event_name: "transcript_opened", oid: "abcdefghijkl" },
    });
  });

  it("R7.5 pre-production, local and dev log to the console; the no-cookie host sends nothing; production sends", () => {
    expect(eventDelivery("production")).toBe("send");
    expect(eventDelivery(undefined)).toBe("send");
    expect(eventDelivery("preproduction")).toBe("console");
    expect(eventDelivery("local")).toBe("console");
    expect(eventDelivery("dev")).toBe("console");
    expect(eventDelivery("nocookie")).toBe("none");
  });
});
