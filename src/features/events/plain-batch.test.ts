import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { testDatabaseTargets } from "../../db/testing";
import type { AcceptedEvent } from "./accepted-event";
import { timeOrderedId } from "./event-id";
import { isPlainEvent, plainBatchJson, plainBatchJsonb, storeEventBatch } from "./store-batch";

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
  it("is a JSON array of the rows PLAIN_SQL reads, each payload as it is", () => {
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

describe("the plain events' batch as jsonb's binary form (issue 32 item 4)", () => {
  it("is a version byte (1) and the same JSON as UTF-8", () => {
    const events = [
      plain(timeOrderedId(1), JSON.stringify({ body: { event_name: "x", note: MIXED } }), { sessionId: MIXED }),
      plain(timeOrderedId(2), JSON.stringify({ body: { event_name: "y" } }), { presentationOid: null }),
    ];
    const expected = Buffer.concat([Buffer.from([1]), Buffer.from(plainBatchJson(events), "utf8")]);
    expect(plainBatchJsonb(events).equals(expected)).toBe(true);
    expect(plainBatchJsonb([]).equals(Buffer.from([1, 0x5b, 0x5d]))).toBe(true);
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
    const rows = await db.query<{ id: string; ms: number; sessionId: string; oid: string | null; payload: unknown }>(
      `select event_uid::text as id, (extract(epoch from received_at) * 1000)::float8 as ms, session_id as "sessionId",
              presentation_oid as oid, payload
         from usage_events where event_uid = any($1::uuid[]) order by event_uid`,
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
