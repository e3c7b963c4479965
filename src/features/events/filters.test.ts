import { afterEach, describe, expect, it } from "vitest";
import { addUsageEventFilter, applyUsageEventFilters, filterUsageEvent, type UsageEventFilter } from "./filters";
import type { UsageEvent } from "./usage-event";

const event = (eventName: string): UsageEvent => ({
  core: { type: "Analytics", schema_id: 1, client_time: 1_700_000_000_000, event_source: "Js", event_type: eventName },
  event_source: { single_page_session_id: "p1" },
  platform: { type: "Web", id: null, referer: null, url: "https://podium.example/p/abcdefghijkl/" },
  user: { session_id: "s1" },
  body: { event_name: eventName, oid: "abcdefghijkl" },
});

const removals: (() => void)[] = [];
afterEach(() => {
  for (const remove of removals.splice(0)) remove();
});

describe("usage-event filters", () => {
  it("R5.7 a filter can drop an event; the others pass, in order, possibly changed", () => {
    const dropTranscript: UsageEventFilter = (e) => (e.body.event_name === "transcript_opened" ? null : e);
    const tag: UsageEventFilter = (e) => ({ ...e, body: { ...e.body, tagged: true } });
    expect(applyUsageEventFilters(event("transcript_opened"), [dropTranscript, tag])).toBeNull();
    expect(applyUsageEventFilters(event("show_modal"), [dropTranscript, tag])?.body).toEqual({
      event_name: "show_modal",
      oid: "abcdefghijkl",
      tagged: true,
    });
    // No filters: the event goes as it is. A failing filter drops it rather than break the page.
    expect(applyUsageEventFilters(event("show_modal"), [])).toEqual(event("show_modal"));
    const broken: UsageEventFilter = () => {
      throw new Error("filter failed");
    };
    expect(applyUsageEventFilters(event("show_modal"), [broken])).toBeNull();
  });

  it("R5.7 the page's filters apply to every event until removed", () => {
    expect(filterUsageEvent(event("like"))).not.toBeNull();
    const remove = addUsageEventFilter((e) => (e.body.event_name === "like" ? null : e));
    removals.push(remove);
    expect(filterUsageEvent(event("like"))).toBeNull();
    expect(filterUsageEvent(event("unlike"))).not.toBeNull();
    remove();
    expect(filterUsageEvent(event("like"))).not.toBeNull();
  });
});
