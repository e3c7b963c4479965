import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { testDatabaseTargets } from "../../db/testing";
import type { AcceptedEvent } from "./accepted-event";
import { timeOrderedId } from "./event-id";
import { isPlainEvent, plainBatchBuffer, plainBatchJson, storeEventBatch } from "./store-batch";

const sender = { address: "addr-key", visitor: null, addressBefore: null, visitorBefore: null };
const plain = (id: string, payload: AcceptedEvent["payload"], fields: Partial<AcceptedEvent> = {}): AcceptedEvent => ({
  id,
  receivedAt: 1_764_270_000_123,
  sessionId: 'session "quoted" \\ \u00e9',
  eventName: "transcript_opened",
  presentationOid: "abcdefghijkl",
  payload,
  wantsView: false,
  sender,
  ...fields,
});

describe("the plain events' batch parameter (issue 32 item 4)", () => {
  it("is a JSON array of the rows usage_event_log reads, each payload as it is", () => {
    const payload = JSON.stringify({ core: { type: "Analytics" }, body: { event_name: "x", note: 'a "b" \u2028' } });
    const older = { body: { event_name: "y" } } as unknown as string; // a message from before payloads were text
    const events = [
      plain("0192d3a0-0000-7000-8000-000000000001", payload),
      plain("0192d3a0-0000-7000-8000-000000000002", older, { presentationOid: null, receivedAt: 5 }),
    ];
    expect(events.every(isPlainEvent)).toBe(true);
    expect(JSON.parse(plainBatchJson(events))).toEqual([
      {
        u: "0192d3a0-0000-7000-8000-000000000001",
        r: 1_764_270_000_123,
        s: 'session "quoted" \\ \u00e9',
        n: "transcript_opened",
        o: "abcdefghijkl",
        p: JSON.parse(payload),
        a: "addr-key",
      },
      {
        u: "0192d3a0-0000-7000-8000-000000000002",
        r: 5,
        s: 'session "quoted" \\ \u00e9',
        n: "transcript_opened",
        o: null,
        p: { body: { event_name: "y" } },
        a: "addr-key",
      },
    ]);
    expect(plainBatchJson([])).toBe("[]");
  });
});

/** Text of one, two, three and four UTF-8 bytes, quotes, a backslash and a line separator. */
const MIXED = 'a "é" \\ 中文 \u2028 😀 end';

describe("the plain events' batch as json's binary form (issue 32 item 4)", () => {
  it("is the same JSON as UTF-8", () => {
    const events = [
      plain(timeOrderedId(1), JSON.stringify({ body: { event_name: "x", note: MIXED } }), { sessionId: MIXED }),
      plain(timeOrderedId(2), JSON.stringify({ body: { event_name: "y" } }), { presentationOid: null }),
    ];
    expect(plainBatchBuffer(events).equals(Buffer.from(plainBatchJson(events), "utf8"))).toBe(true);
    expect(plainBatchBuffer([]).equals(Buffer.from("[]"))).toBe(true);
  });
});

describe.each(testDatabaseTargets())("plain events stored on $name (issue 32 item 4)", (target) => {
  let db: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await target.create());
  });
  afterAll(() => drop());

  it("stores each field as it was, whatever the text (PostgreSQL gets the batch in binary form)", async () => {
    const at = Date.parse("2026-11-27T20:00:00Z");
    const events = Array.from({ length: 40 }, (_, i) =>
      plain(timeOrderedId(at + i), JSON.stringify({ body: { event_name: "x", note: `${MIXED} ${i}` } }), {
        sessionId: `${MIXED} ${i}`,
        receivedAt: at + i,
        presentationOid: i % 2 === 0 ? "abcdefghijkl" : null,
      }),
    );
    expect(await storeEventBatch(db, events)).toEqual({ stored: 40, counted: 0 });
    expect(await storeEventBatch(db, events)).toEqual({ stored: 0, counted: 0 });
    // One row for the batch, keyed by its first event, dated by its newest.
    expect(
      await db.query(
        `select batch_uid::text as id, (extract(epoch from received_at) * 1000)::float8 as ms, event_count as n
           from usage_event_batches where batch_uid = any($1::uuid[])`,
        [events.map((event) => event.id)],
      ),
    ).toEqual([{ id: events[0]?.id, ms: at + 39, n: 40 }]);
    const rows = await db.query<{ id: string; ms: number; sessionId: string; oid: string | null; payload: unknown }>(
      `select event_uid::text as id, (extract(epoch from received_at) * 1000)::float8 as ms, session_id as "sessionId",
              presentation_oid as oid, payload
         from usage_event_log where event_uid = any($1::uuid[]) order by event_uid`,
      [events.map((event) => event.id)],
    );
    expect(rows).toEqual(
      events.map((event) => ({
        id: event.id,
        ms: event.receivedAt,
        sessionId: event.sessionId,
        oid: event.presentationOid,
        payload: JSON.parse(event.payload),
      })),
    );
  });
});

describe.each(testDatabaseTargets())(
  "plain events' batches on $name: the bytes they take (issue 32 item 4)",
  (target) => {
    let db: Database;
    let drop: () => Promise<void>;
    beforeAll(async () => {
      ({ db, drop } = await target.create());
    });
    afterAll(() => drop());

    it("a batch of 500 page events takes under 64 bytes an event, an eighth of its JSON (lz4 on PostgreSQL, pglz on PGlite)", async () => {
      // Events like bench/events.mjs's, as the intake keeps them: about 570 bytes of JSON each (a row
      // each in usage_events took about 700 with its indexes). Measured: 54 bytes an event (lz4), 52 (pglz).
      const at = Date.parse("2026-11-28T10:00:00Z");
      const payload = (i: number) =>
        JSON.stringify({
          core: {
            type: "Analytics",
            schema_id: 1,
            client_time: at + i,
            event_source: "Js",
            event_type: "transcript_opened",
          },
          event_source: { single_page_session_id: `7a0d1c55-1b7e-4f3a-9c55-${String(i).padStart(12, "0")}` },
          platform: { type: "Web", id: null, referer: null, url: "https://podium.example/p/abcdefghijkl/" },
          user: { session_id: `3f1c2d4e-0000-4000-8000-${String(i % 50).padStart(12, "0")}` },
          body: { event_name: "transcript_opened", oid: "abcdefghijkl" },
        });
      const events = Array.from({ length: 500 }, (_, i) =>
        plain(timeOrderedId(at + i), payload(i), { receivedAt: at + i, sessionId: `session-${i % 50}` }),
      );
      expect(await storeEventBatch(db, events)).toEqual({ stored: 500, counted: 0 });
      const [row] = await db.query<{ stored: number; text: number; method: string }>(
        `select pg_column_size(events)::int as stored, octet_length(events::text)::int as text,
              pg_column_compression(events) as method
         from usage_event_batches where batch_uid = $1`,
        [events[0]?.id],
      );
      expect(row?.method).toBe(db.kind === "postgres" ? "lz4" : "pglz");
      expect(row?.text).toBe(Buffer.byteLength(plainBatchJson(events)));
      expect(row?.stored).toBeLessThan((row?.text ?? 0) / 8);
      expect((row?.stored ?? Number.POSITIVE_INFINITY) / events.length).toBeLessThan(64);
    });
  },
);
