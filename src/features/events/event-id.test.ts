import { describe, expect, it } from "vitest";
import { timeOrderedId } from "./event-id";

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("accepted events' ids (issue 32 item 4)", () => {
  it("is a UUIDv7 whose first 48 bits are the acceptance time in ms", () => {
    const now = Date.UTC(2026, 10, 27, 20, 30, 0, 123);
    const id = timeOrderedId(now);
    expect(id).toMatch(UUID_V7);
    expect(Number.parseInt(id.replaceAll("-", "").slice(0, 12), 16)).toBe(now);
  });

  it("sorts by time (the unique index's inserts land at its right edge), and no two are alike", () => {
    const start = Date.UTC(2026, 0, 1);
    // Past several draws of random bytes, several ids per millisecond.
    const ids = Array.from({ length: 5_000 }, (_, i) => timeOrderedId(start + Math.floor(i / 4)));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(UUID_V7);
    for (let i = 4; i < ids.length; i += 4) expect((ids[i - 1] ?? "") < (ids[i] ?? "")).toBe(true);
    // The random bits are random: every variant digit turns up, and a position of the tail takes many values.
    expect(new Set(ids.map((id) => id.charAt(19))).size).toBe(4);
    expect(new Set(ids.map((id) => id.slice(-2))).size).toBeGreaterThan(200);
  });
});
