import { describe, expect, it } from "vitest";
import { eventDelivery } from "./client";
import { buildUsageEvent, EVENT_FAMILIES } from "./usage-event";

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

  it("R3.9 families: Analytics with sources Js and Webgl, and the video product's family", () => {
    const base = {
      eventName: "presentation_started",
      fields: {},
      sessionId: "s1",
      cookieId: null,
      pageSessionId: "p1",
      url: "https://podium.example/p/abcdefghijkl/",
      referer: null,
      now: 1,
    };
    const core = (family?: (typeof EVENT_FAMILIES)[keyof typeof EVENT_FAMILIES]) => {
      const { type, event_source, schema_id } = buildUsageEvent({ ...base, family }).core;
      return { type, event_source, schema_id };
    };
    expect(core()).toEqual({ type: "Analytics", event_source: "Js", schema_id: 1 });
    expect(core(EVENT_FAMILIES.analyticsWebgl)).toEqual({ type: "Analytics", event_source: "Webgl", schema_id: 1 });
    expect(core(EVENT_FAMILIES.videoWeb)).toEqual({ type: "Video", event_source: "VideoWeb", schema_id: 1 });
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
