import { describe, expect, it } from "vitest";
import { z } from "zod";
import { usageEventOf } from "./accepted-event";

/**
 * Issue 32 item 4: usageEventOf replaced this zod schema (issue 14's), whose parse copied every
 * object it checked. It must accept and refuse exactly what the schema did.
 */
const issue14Schema = z.tuple([
  z
    .object({
      core: z.object({ type: z.string().max(50), event_type: z.string().max(100) }).loose(),
      user: z.object({ session_id: z.string().min(1).max(100) }).loose(),
      body: z.object({ event_name: z.string().min(1).max(100), oid: z.string().max(20).optional() }).loose(),
    })
    .loose(),
]);

const good = () => ({
  core: { type: "Analytics", schema_id: 1, event_type: "transcript_opened" },
  platform: { type: "Web", referer: null },
  user: { session_id: "s-1" },
  body: { event_name: "transcript_opened", oid: "abcdefghijkl" },
});

/** Every field the check reads, replaced by each of these in turn. */
const values: unknown[] = [
  undefined,
  null,
  0,
  1,
  true,
  "",
  "x",
  "x".repeat(20),
  "x".repeat(21),
  "x".repeat(50),
  "x".repeat(51),
  "x".repeat(100),
  "x".repeat(101),
  [],
  ["x"],
  {},
  { type: "x" },
];
const paths = [
  ["core"],
  ["core", "type"],
  ["core", "event_type"],
  ["user"],
  ["user", "session_id"],
  ["body"],
  ["body", "event_name"],
  ["body", "oid"],
];

function withValue(path: string[], value: unknown): unknown {
  const event: Record<string, unknown> = good();
  let at = event;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string, unknown>;
  const last = path.at(-1) ?? "";
  if (value === undefined) delete at[last];
  else at[last] = value;
  return [event];
}

describe("a usage event's shape (issue 32 item 4)", () => {
  it("accepts and refuses what issue 14's zod schema did", () => {
    const bodies: unknown[] = [
      [good()],
      [],
      [good(), good()],
      good(),
      null,
      "text",
      [null],
      [[good()]],
      [[]],
      [{ ...good(), extra: { anything: [1, 2] } }],
    ];
    for (const path of paths) for (const value of values) bodies.push(withValue(path, value));
    let accepted = 0;
    for (const body of bodies) {
      const expected = issue14Schema.safeParse(body).success;
      expect(usageEventOf(body) !== null, JSON.stringify(body)?.slice(0, 120)).toBe(expected);
      if (expected) accepted += 1;
    }
    // Both sides are exercised.
    expect(accepted).toBeGreaterThan(10);
    expect(bodies.length - accepted).toBeGreaterThan(50);
  });

  it("gives the event itself, every field kept", () => {
    const event = { ...good(), extra: { anything: [1, 2] } };
    expect(usageEventOf([event])).toBe(event);
  });
});
