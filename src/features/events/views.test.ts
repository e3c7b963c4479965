import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { testDatabaseTargets } from "../../db/testing";
import { stableOid } from "../../lib/ids";
import { buildApp } from "../../server/app";
import { createTestApp, insertTestDeck, insertTestUser, TEST_CONFIG, TestAgent } from "../../server/testing";
import { findDailyActivity } from "../dashboard/repository";
import { findPresentationByOid } from "../presentation/repository";
import { pruneOldEvents } from "./retention";
import { STEP_ENGAGEMENT_EVENT } from "./step-engagement";
import { ADDRESS_VIEWS_PER_HOUR, isPlainEvent, storeEventBatch } from "./store-batch";
import { acceptedEvent } from "./testing";
import { VIEWER_EVENTS, visitorIdPath } from "./usage-event";

type Privacy = "public" | "reusable" | "unlisted" | "private";

async function addDeck(db: Database, key: string, privacy: Privacy = "public") {
  const oid = stableOid(`views:${key}`);
  const [owner] = await db.query<{ id: string }>("select id::text as id from users where email = 'owner@views.test'");
  const ownerId =
    owner?.id ??
    (
      await insertTestUser(db, {
        oid: stableOid("views:owner"),
        email: "owner@views.test",
        username: "views-owner",
        firstName: "Views",
        lastName: "Owner",
      })
    ).id;
  await insertTestDeck(db, {
    oid,
    ownerId,
    title: `Deck ${key}`,
    privacy,
  });
  const row = await findPresentationByOid(db, oid);
  if (!row) throw new Error("test presentation missing");
  return row;
}

const viewCount = async (db: Database, oid: string) =>
  (await db.query<{ n: number }>("select view_count as n from presentations where oid = $1", [oid]))[0]?.n ?? -1;
const countedEvents = async (db: Database, oid: string) =>
  (
    await db.query<{ n: number }>(
      "select count(*)::int as n from usage_events where presentation_oid = $1 and counted_view",
      [oid],
    )
  )[0]?.n ?? -1;
const chartedViews = async (db: Database, id: string) =>
  (
    await db.query<{ n: number }>(
      "select coalesce(sum(views), 0)::int as n from presentation_daily_views where presentation_id = $1",
      [id],
    )
  )[0]?.n ?? -1;

const loadedEvent = (oid: string, sessionId: string, visitorId?: unknown) => [
  {
    core: { type: "Analytics", event_type: VIEWER_EVENTS.loadedPublicViewPage },
    user: { session_id: sessionId },
    body: {
      event_name: VIEWER_EVENTS.loadedPublicViewPage,
      oid,
      ...(visitorId === undefined ? {} : { visitor_id: visitorId }),
    },
  },
];

type App = Awaited<ReturnType<typeof createTestApp>>["app"];
interface VisitOptions {
  sessionId: string;
  address: string;
  agent?: TestAgent;
}
interface SendOptions {
  sessionId: string;
  address: string;
  visitorId?: unknown;
  path?: string;
}

/** What a view page does as it loads (events/client.ts trackViewPageLoaded): asks for a visitor id for its session. */
async function visitorIdOn(app: App, oid: string, options: VisitOptions) {
  const request = {
    method: "GET" as const,
    url: `${visitorIdPath(oid)}?session_id=${encodeURIComponent(options.sessionId)}`,
    remoteAddress: options.address,
  };
  const response = options.agent ? await options.agent.request(request) : await app.inject(request);
  expect(response.statusCode).toBe(200);
  expect(response.headers["cache-control"]).toBe("private, no-store");
  return (response.json() as { visitorId: string | null }).visitorId;
}

/** …then sends its loaded event with that id (or any other, or none). */
async function sendOn(app: App, oid: string, options: SendOptions) {
  const response = await app.inject({
    method: "POST",
    url: options.path ?? "/log/json",
    remoteAddress: options.address,
    headers: { "content-type": "application/json", "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/130" },
    payload: JSON.stringify(loadedEvent(oid, options.sessionId, options.visitorId)),
  });
  // Issue 14 item 1: a 204 means queued; counts are read once the pipeline has stored it.
  await app.usageEvents.flush();
  return response;
}

/** A page load: a visitor id for the session, then the loaded event carrying it. */
async function loadOn(app: App, oid: string, options: VisitOptions) {
  const visitorId = await visitorIdOn(app, oid, options);
  const response = await sendOn(app, oid, { ...options, visitorId });
  expect(response.statusCode).toBe(204);
  return visitorId;
}

describe.each(testDatabaseTargets())(
  "honest views through /log/json on $name (issue 14 item 3, issue 28 item 4)",
  (target) => {
    let app: Awaited<ReturnType<typeof createTestApp>>["app"];
    let db: Database;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ app, db, close } = await createTestApp(target));
    });
    afterAll(() => close());

    const visitorIdFor = (oid: string, options: VisitOptions) => visitorIdOn(app, oid, options);
    const send = (oid: string, options: SendOptions) => sendOn(app, oid, options);
    const load = (oid: string, options: VisitOptions) => loadOn(app, oid, options);

    it("issue 28 done-when: 100 made-up visitor ids add nothing, nor do events without one", async () => {
      const deck = await addDeck(db, "made-up");
      const other = await addDeck(db, "made-up-other");
      const address = "203.0.113.80";
      // Real ids, used where they weren't issued: for another deck, for another session.
      const forOtherDeck = await visitorIdFor(other.oid, { sessionId: "s-other-deck", address });
      const forOtherSession = await visitorIdFor(deck.oid, { sessionId: "s-someone-else", address });
      const real = forOtherSession ?? "";
      const [, issued = "", signature = ""] = real.split(".");
      const forgeries: unknown[] = [
        undefined,
        null,
        "",
        42,
        { id: real },
        forOtherDeck,
        forOtherSession,
        `v1.${issued}.${signature.slice(0, -1)}${signature.endsWith("A") ? "B" : "A"}`,
        `v1.${(Number.parseInt(issued, 36) + 1).toString(36)}.${signature}`,
        `v2.${issued}.${signature}`,
        `${real}.extra`,
      ];
      while (forgeries.length < 100)
        forgeries.push(`v1.${issued}.${randomBytes(16).toString("base64url").slice(0, 22)}`);
      for (const [i, visitorId] of forgeries.entries()) {
        const response = await send(deck.oid, {
          sessionId: `s-forger-${i}`,
          address,
          visitorId,
          path: i % 2 === 0 ? "/log/json" : "/fallback/json",
        });
        expect(response.statusCode).toBe(204);
      }
      expect(await viewCount(db, deck.oid)).toBe(0);
      expect(await countedEvents(db, deck.oid)).toBe(0);
      // They are stored all the same (as any usage event), marked as counting nothing.
      const [stored] = await db.query<{ n: number }>(
        "select count(*)::int as n from usage_event_log where presentation_oid = $1",
        [deck.oid],
      );
      expect(stored?.n).toBe(100);
      // The id for the other session counts for that session, from the same address.
      await send(deck.oid, { sessionId: "s-someone-else", address, visitorId: forOtherSession });
      expect(await viewCount(db, deck.oid)).toBe(1);
    });

    it("issue 27 item 6: the per-address cap counts an IPv6 sender by its /64, so fresh addresses in one /64 add at most the cap", async () => {
      const deck = await addDeck(db, "ipv6-prefix");
      for (let i = 0; i < ADDRESS_VIEWS_PER_HOUR + 10; i++) {
        await load(deck.oid, {
          sessionId: `v6-${i}`,
          address: `2001:db8:27:6:${(i + 1).toString(16)}::${(i * 7 + 3).toString(16)}`,
        });
      }
      expect(await viewCount(db, deck.oid)).toBe(ADDRESS_VIEWS_PER_HOUR);
      // The next /64 is another person's.
      await load(deck.oid, { sessionId: "v6-neighbour", address: "2001:db8:27:7::1" });
      expect(await viewCount(db, deck.oid)).toBe(ADDRESS_VIEWS_PER_HOUR + 1);
    });

    it("issue 27 item 6: IPv4 is capped by the full address, and an IPv4-mapped IPv6 sender as the IPv4 address it maps", async () => {
      const deck = await addDeck(db, "ipv4-mapped");
      for (let i = 0; i < ADDRESS_VIEWS_PER_HOUR + 4; i++) {
        await load(deck.oid, {
          sessionId: `mapped-${i}`,
          address: i % 2 === 0 ? "198.51.100.27" : "::ffff:198.51.100.27",
        });
      }
      expect(await viewCount(db, deck.oid)).toBe(ADDRESS_VIEWS_PER_HOUR);
      // The address beside it is someone else: IPv4 has no prefix.
      await load(deck.oid, { sessionId: "mapped-neighbour", address: "198.51.100.28" });
      expect(await viewCount(db, deck.oid)).toBe(ADDRESS_VIEWS_PER_HOUR + 1);
    });

    it("issue 28 done-when: 100 fresh server-issued visitor ids from one script at one address add at most the cap (40)", async () => {
      const deck = await addDeck(db, "fresh-ids");
      expect(ADDRESS_VIEWS_PER_HOUR).toBe(40);
      for (let i = 0; i < 100; i++) {
        await load(deck.oid, { sessionId: `script-${i}`, address: "203.0.113.66" });
      }
      expect(await viewCount(db, deck.oid)).toBe(ADDRESS_VIEWS_PER_HOUR);
      expect(await countedEvents(db, deck.oid)).toBe(ADDRESS_VIEWS_PER_HOUR);
      // Another address still counts: the cap is per address (and per deck: another deck from the first one too).
      await load(deck.oid, { sessionId: "honest", address: "203.0.113.67" });
      expect(await viewCount(db, deck.oid)).toBe(ADDRESS_VIEWS_PER_HOUR + 1);
      const next = await addDeck(db, "fresh-ids-next");
      await load(next.oid, { sessionId: "script-0", address: "203.0.113.66" });
      expect(await viewCount(db, next.oid)).toBe(1);
    });

    it("issue 28 item 4: five browsers behind one address (same browser, same version) each count once; their reloads don't", async () => {
      const deck = await addDeck(db, "classroom");
      const address = "198.51.100.40";
      for (let i = 0; i < 5; i++) await load(deck.oid, { sessionId: `pupil-${i}`, address });
      expect(await viewCount(db, deck.oid)).toBe(5);
      // Each reloads (the usage cookie keeps its session): each gets a new visitor id, for the same visitor.
      for (let i = 0; i < 5; i++) {
        for (let reload = 0; reload < 3; reload++) await load(deck.oid, { sessionId: `pupil-${i}`, address });
      }
      expect(await viewCount(db, deck.oid)).toBe(5);
      expect(await countedEvents(db, deck.oid)).toBe(5);
    });

    it("issue 28 item 4: the owner's and collaborators' own views don't count; another signed-in person's do", async () => {
      const deck = await addDeck(db, "own-views");
      const userIdOf = async (email: string) =>
        (await db.query<{ id: string }>("select id::text as id from users where email = $1", [email]))[0]?.id ?? "";
      const owner = new TestAgent(app);
      await owner.signUp("own-views-owner@views.test");
      await db.query("update presentations set owner_id = $2 where id = $1", [
        deck.id,
        await userIdOf("own-views-owner@views.test"),
      ]);
      const editor = new TestAgent(app);
      await editor.signUp("own-views-editor@views.test");
      const commenter = new TestAgent(app);
      await commenter.signUp("own-views-commenter@views.test");
      for (const [email, right] of [
        ["own-views-editor@views.test", "edit"],
        ["own-views-commenter@views.test", "comment"],
      ] as const) {
        await db.query("insert into collaborators (presentation_id, user_id, access_right) values ($1, $2, $3)", [
          deck.id,
          await userIdOf(email),
          right,
        ]);
      }
      for (const [i, agent] of [owner, editor, commenter].entries()) {
        const address = `198.51.100.${50 + i}`;
        expect(await load(deck.oid, { sessionId: `own-${i}`, agent, address })).toBeNull();
      }
      expect(await viewCount(db, deck.oid)).toBe(0);
      const fan = new TestAgent(app);
      await fan.signUp("own-views-fan@views.test");
      expect(await load(deck.oid, { sessionId: "fan", agent: fan, address: "198.51.100.60" })).toEqual(
        expect.any(String),
      );
      expect(await viewCount(db, deck.oid)).toBe(1);
      // Signed out, the owner is a visitor like any other.
      expect(await load(deck.oid, { sessionId: "owner-signed-out", address: "198.51.100.50" })).toEqual(
        expect.any(String),
      );
      expect(await viewCount(db, deck.oid)).toBe(2);
    });

    it("issue 28 item 4: a visitor id needs a presentation id and a session id; it is never cached", async () => {
      for (const url of [
        `${visitorIdPath("not-an-oid")}?session_id=s`,
        `${visitorIdPath("abcdefghijkl")}`,
        `${visitorIdPath("abcdefghijkl")}?session_id=`,
        `${visitorIdPath("abcdefghijkl")}?session_id=${"x".repeat(101)}`,
      ]) {
        const response = await app.inject({ method: "GET", url });
        expect(response.statusCode, url).toBe(400);
      }
    });

    it("issue 14 item 3: private and unlisted presentations never count from public-page events; a deleted one doesn't either", async () => {
      const privateDeck = await addDeck(db, "private", "private");
      const unlisted = await addDeck(db, "unlisted", "unlisted");
      const reusable = await addDeck(db, "reusable", "reusable");
      const deleted = await addDeck(db, "deleted");
      await db.query("delete from presentations where id = $1", [deleted.id]);
      for (const [i, deck] of [privateDeck, unlisted, reusable, deleted].entries()) {
        await load(deck.oid, { sessionId: `s-${i}`, address: `198.51.100.${30 + i}` });
      }
      expect(await viewCount(db, privateDeck.oid)).toBe(0);
      expect(await viewCount(db, unlisted.oid)).toBe(0);
      expect(await viewCount(db, reusable.oid)).toBe(1);
      const [stored] = await db.query<{ n: number; counted: number }>(
        "select count(*)::int as n, count(*) filter (where counted_view)::int as counted from usage_event_log where presentation_oid = $1",
        [deleted.oid],
      );
      expect(stored).toEqual({ n: 1, counted: 0 });
      expect(await chartedViews(db, privateDeck.id)).toBe(0);
    });

    it("issue 14 item 3: an event PostgreSQL can't store (a NUL) is refused with 400 at acceptance, not left to fail a batch", async () => {
      const event = loadedEvent("abcdefghijkl", "nul\u0000session");
      const response = await app.inject({
        method: "POST",
        url: "/log/json",
        headers: { "content-type": "application/json" },
        payload: JSON.stringify(event),
      });
      expect(response.statusCode).toBe(400);
      const lone = await app.inject({
        method: "POST",
        url: "/log/json",
        headers: { "content-type": "application/json" },
        payload: JSON.stringify(loadedEvent("abcdefghijkl", "lone \ud800 surrogate")),
      });
      expect(lone.statusCode).toBe(400);
    });
  },
);

/** A database of its own, two apps and 100 requests, on a shared and loaded machine. */
const SEVERAL_PROCESSES_TEST_MS = 120_000;

describe.each(testDatabaseTargets())("visitor ids behind several processes on $name (issue 28 item 4)", (target) => {
  it(
    "issue 28 item 4: behind several processes an id issued by one counts on another, and the cap is one for all",
    async () => {
      const { db, drop } = await target.create();
      // Two processes on one database, each with the secret stored there (no PODIUM_SECRET): the same one.
      const a = await buildApp({ ...TEST_CONFIG, secret: null }, db);
      const b = await buildApp({ ...TEST_CONFIG, secret: null }, db);
      try {
        const deck = await addDeck(db, "processes");
        const id = await visitorIdOn(a, deck.oid, { sessionId: "across", address: "198.51.100.70" });
        expect(
          (await sendOn(b, deck.oid, { sessionId: "across", address: "198.51.100.70", visitorId: id })).statusCode,
        ).toBe(204);
        expect(await viewCount(db, deck.oid)).toBe(1);
        // 50 fresh ids from one address, fetched and sent through either process: the cap holds across them.
        for (let i = 0; i < 50; i++) {
          const [issuer, receiver] = i % 2 === 0 ? [a, b] : [b, a];
          const visitorId = await visitorIdOn(issuer, deck.oid, { sessionId: `p-${i}`, address: "198.51.100.71" });
          await sendOn(receiver, deck.oid, { sessionId: `p-${i}`, address: "198.51.100.71", visitorId });
        }
        expect(await viewCount(db, deck.oid)).toBe(1 + ADDRESS_VIEWS_PER_HOUR);
      } finally {
        await a.close();
        await b.close();
        await drop();
      }
    },
    SEVERAL_PROCESSES_TEST_MS,
  );
});

describe.each(testDatabaseTargets())("storeEventBatch on $name (issue 14 items 3–5)", (target) => {
  let db: Database;
  let drop: () => Promise<void>;
  let url: string | undefined;
  beforeAll(async () => {
    ({ db, drop, url } = await target.create());
  });
  afterAll(() => drop());

  it("issue 14 item 4: a redelivered batch is stored and counted once", async () => {
    const deck = await addDeck(db, "redelivery");
    const batch = [
      acceptedEvent({ oid: deck.oid, address: "192.0.2.1" }),
      acceptedEvent({ oid: deck.oid, address: "192.0.2.2" }),
      acceptedEvent({ oid: deck.oid, eventName: VIEWER_EVENTS.transcriptOpened, address: "192.0.2.2" }),
    ];
    expect(await storeEventBatch(db, batch)).toEqual({ stored: 3, counted: 2 });
    expect(await storeEventBatch(db, batch)).toEqual({ stored: 0, counted: 0 });
    // Part of it again, with new events beside it.
    const more = [batch[0], acceptedEvent({ oid: deck.oid, address: "192.0.2.3" })].filter((e) => e !== undefined);
    expect(await storeEventBatch(db, more)).toEqual({ stored: 1, counted: 1 });
    expect(await viewCount(db, deck.oid)).toBe(3);
    const [rows] = await db.query<{ n: number }>(
      "select count(*)::int as n from usage_event_log where presentation_oid = $1",
      [deck.oid],
    );
    expect(rows?.n).toBe(4);
  });

  it("issue 14 item 4: after batches with duplicates, redeliveries and concurrent writers, view_count equals the counted events and the chart's sum", async () => {
    const deck = await addDeck(db, "exact");
    const start = Date.parse("2025-06-01T10:00:00Z");
    // 50 visitors, each loading the page 3 times a minute apart: 45 of them behind one address (more
    // than its cap), 5 behind another.
    const events = Array.from({ length: 150 }, (_, i) => {
      const visitor = i % 50;
      return acceptedEvent({
        oid: deck.oid,
        at: start + Math.floor(i / 50) * 60_000 + i,
        address: visitor < 45 ? "192.0.2.100" : "192.0.2.101",
        sessionId: `visitor-${visitor}`,
      });
    });
    // Batches of 10 in a shuffled order, each one twice (redelivery), some with an event twice.
    const batches: (typeof events)[] = [];
    for (let i = 0; i < events.length; i += 10) batches.push(events.slice(i, i + 10));
    const deliveries = [
      ...batches,
      ...batches.map((b) => [...b, b[0] ?? b[1]].filter((e) => e !== undefined)),
    ].reverse();
    // Concurrent writers (several pool connections on PostgreSQL; PGlite takes them in turn).
    const results = await Promise.all(deliveries.map((batch) => storeEventBatch(db, batch)));
    const stored = results.reduce((sum, r) => sum + r.stored, 0);
    const counted = results.reduce((sum, r) => sum + r.counted, 0);
    expect(stored).toBe(150);
    // One view per visitor, at most ADDRESS_VIEWS_PER_HOUR (40) per address: 40 + 5.
    expect(counted).toBe(ADDRESS_VIEWS_PER_HOUR + 5);
    expect(await viewCount(db, deck.oid)).toBe(counted);
    expect(await countedEvents(db, deck.oid)).toBe(counted);
    expect(await chartedViews(db, deck.id)).toBe(counted);
  });

  it("issue 28 item 4: an event without a server-issued visitor id is stored and counts no view", async () => {
    const deck = await addDeck(db, "unsigned");
    const unsigned = Array.from({ length: 5 }, (_, i) =>
      acceptedEvent({ oid: deck.oid, address: `192.0.2.${150 + i}`, signed: false }),
    );
    expect(await storeEventBatch(db, unsigned)).toEqual({ stored: 5, counted: 0 });
    expect(await viewCount(db, deck.oid)).toBe(0);
  });

  it("issue 32 item 4: events that count nothing take the plain insert; views, steps, sources and visitor keys never do", () => {
    const oid = stableOid("views:plain-kinds");
    const plain = acceptedEvent({ oid, eventName: VIEWER_EVENTS.transcriptOpened, signed: false });
    expect(isPlainEvent(plain)).toBe(true);
    expect(isPlainEvent(acceptedEvent({ oid: null, eventName: VIEWER_EVENTS.transcriptOpened, signed: false }))).toBe(
      true,
    );
    expect(isPlainEvent(acceptedEvent({ oid }))).toBe(false);
    expect(isPlainEvent(acceptedEvent({ oid, signed: false }))).toBe(false); // asks for a view
    expect(isPlainEvent(acceptedEvent({ oid, eventName: STEP_ENGAGEMENT_EVENT }))).toBe(false);
    expect(isPlainEvent({ ...plain, source: { kind: "share", host: "linkedin" } })).toBe(false);
    // A visitor key on a stored row takes part in later visits' windows: such an event keeps the counting statement.
    expect(isPlainEvent(acceptedEvent({ oid, eventName: VIEWER_EVENTS.transcriptOpened }))).toBe(false);
  });

  it("issue 32 item 4: a batch of plain events stores each once (repeats in the batch, a batch or a unit re-sent whole, concurrent writers), with the counting statement's row", async () => {
    const deck = await addDeck(db, "plain-batch");
    const at = Date.parse("2025-06-02T08:00:00Z");
    const events = Array.from({ length: 300 }, (_, i) =>
      acceptedEvent({
        oid: i % 3 === 0 ? null : deck.oid,
        at: at + i,
        eventName: VIEWER_EVENTS.transcriptOpened,
        signed: false,
        address: `192.0.2.${i % 7}`,
      }),
    );
    expect(events.every(isPlainEvent)).toBe(true);
    // Units of 100, 120 and 80 events, as three NATS messages fetched together; the first with repeats.
    const [first, second, third] = [events.slice(0, 100), events.slice(100, 220), events.slice(220)];
    const withRepeats = [...(first ?? []), ...events.slice(0, 10), ...(second ?? []), ...(third ?? [])];
    expect(await storeEventBatch(db, withRepeats, [110, 120, 80])).toEqual({ stored: 300, counted: 0 });
    // Each unit re-sent whole, alone or beside others, at once from concurrent writers: stored once.
    const more = acceptedEvent({ oid: deck.oid, at, eventName: VIEWER_EVENTS.transcriptOpened, signed: false });
    const again = await Promise.all(
      [
        { events: second, units: undefined },
        { events: [...(third ?? []), ...(first ?? [])], units: [80, 100] },
        { events: [...(third ?? []), more], units: [80, 1] },
        { events: second, units: undefined },
      ].map((b) => storeEventBatch(db, b.events ?? [], b.units)),
    );
    expect(again.map((result) => result.stored)).toEqual([0, 0, 1, 0]);
    expect(
      await db.query("select count(*)::int as n from usage_event_batches where batch_uid = any($1::uuid[])", [
        [first?.[0]?.id, second?.[0]?.id, third?.[0]?.id, more.id],
      ]),
    ).toEqual([{ n: 4 }]);
    const ids = [...events, more].map((event) => event.id);
    const rows = await db.query<{
      id: string;
      ms: number;
      sessionId: string;
      name: string;
      oid: string | null;
      payload: unknown;
      address: string | null;
      visitor: string | null;
      counted: boolean;
      stepMs: number | null;
    }>(
      `select event_uid::text as id, (extract(epoch from received_at) * 1000)::float8 as ms, session_id as "sessionId",
              event_name as name, presentation_oid as oid, payload, address_key as address, visitor_key as visitor,
              counted_view as counted, step_ms as "stepMs"
         from usage_event_log where event_uid = any($1::uuid[])`,
      [ids],
    );
    expect(rows).toHaveLength(301);
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const event of [...events, more]) {
      expect(byId.get(event.id)).toEqual({
        id: event.id,
        ms: event.receivedAt,
        sessionId: event.sessionId,
        name: event.eventName,
        oid: event.presentationOid,
        payload: JSON.parse(event.payload),
        address: event.sender.address,
        visitor: null,
        counted: false,
        stepMs: null,
      });
    }
    expect(await viewCount(db, deck.oid)).toBe(0);
  });

  it("issue 32 item 4: plain events in a batch beside counting ones change no decision, and the batch is stored all or nothing", async () => {
    const deck = await addDeck(db, "plain-mixed");
    const at = Date.now();
    // 45 visitors behind one address (past its cap of 40), each with a plain event before and after its load.
    const events = Array.from({ length: 45 }, (_, i) => [
      acceptedEvent({ oid: deck.oid, at: at + 3 * i, eventName: VIEWER_EVENTS.transcriptOpened, signed: false }),
      acceptedEvent({ oid: deck.oid, at: at + 3 * i + 1, address: "192.0.2.220", sessionId: `mixed-${i}` }),
      acceptedEvent({ oid: deck.oid, at: at + 3 * i + 2, eventName: VIEWER_EVENTS.transcriptOpened, signed: false }),
    ]).flat();
    expect(await storeEventBatch(db, events)).toEqual({ stored: 135, counted: ADDRESS_VIEWS_PER_HOUR });
    expect(await viewCount(db, deck.oid)).toBe(ADDRESS_VIEWS_PER_HOUR);
    expect(await storeEventBatch(db, events)).toEqual({ stored: 0, counted: 0 });
    // A batch whose plain part fails (an id that isn't a UUID, as its row's key) keeps none of it: no view counted.
    const view = acceptedEvent({ oid: deck.oid, address: "192.0.2.221" });
    const broken = {
      ...acceptedEvent({ oid: deck.oid, eventName: VIEWER_EVENTS.transcriptOpened, signed: false }),
      id: "not-a-uuid",
    };
    const batchesBefore = await db.query("select count(*)::int as n from usage_event_batches");
    await expect(storeEventBatch(db, [view, broken])).rejects.toThrow();
    const [row] = await db.query<{ n: number }>(
      "select count(*)::int as n from usage_event_log where event_uid = any($1::uuid[])",
      [[view.id]],
    );
    expect(row?.n).toBe(0);
    expect(await db.query("select count(*)::int as n from usage_event_batches")).toEqual(batchesBefore);
    expect(await viewCount(db, deck.oid)).toBe(ADDRESS_VIEWS_PER_HOUR);
    expect(await storeEventBatch(db, [view])).toEqual({ stored: 1, counted: 1 });
  });

  it("issue 14 item 3: concurrent batches holding the same visitor's loads count one view", async () => {
    const deck = await addDeck(db, "concurrent-visitor");
    const now = Date.now();
    const batches = Array.from({ length: 8 }, (_, i) => [
      acceptedEvent({ oid: deck.oid, at: now + i, address: "192.0.2.200", sessionId: "same-visitor" }),
    ]);
    await Promise.all(batches.map((batch) => storeEventBatch(db, batch)));
    expect(await viewCount(db, deck.oid)).toBe(1);
    expect(await countedEvents(db, deck.oid)).toBe(1);
  });

  it("issue 14 item 3: the 30-minute window: a visitor counts again after it, also across midnight (keys under the day before's salt)", async () => {
    const deck = await addDeck(db, "window");
    const visit = (at: string) =>
      storeEventBatch(db, [acceptedEvent({ oid: deck.oid, at, address: "192.0.2.210", sessionId: "window-visitor" })]);
    expect((await visit("2025-05-01T23:50:00Z")).counted).toBe(1);
    expect((await visit("2025-05-02T00:10:00Z")).counted).toBe(0); // 20 minutes later, past midnight
    expect((await visit("2025-05-02T00:39:00Z")).counted).toBe(0); // 29 minutes after the last load
    expect((await visit("2025-05-02T01:20:00Z")).counted).toBe(1); // 41 minutes after it
  });

  it("issue 14 item 5: pruning deletes old raw events and client logs in batches, and keeps the per-day views the chart reads", async () => {
    const deck = await addDeck(db, "pruned");
    const oldDay = Date.now() - 100 * 24 * 60 * 60 * 1000;
    const old = Array.from({ length: 5 }, (_, i) =>
      acceptedEvent({ oid: deck.oid, at: oldDay + i * 1000, address: `192.0.2.${i}` }),
    );
    await storeEventBatch(db, old);
    await storeEventBatch(db, [acceptedEvent({ oid: deck.oid, address: "192.0.2.99" })]);
    // Issue 32 item 4: plain events, stored a batch to a row: three old batches of 4, one new.
    const plainAt = (at: number, i: number) =>
      acceptedEvent({ oid: deck.oid, at: at + i, eventName: VIEWER_EVENTS.transcriptOpened, signed: false });
    const oldPlain = Array.from({ length: 12 }, (_, i) => plainAt(oldDay, i));
    await storeEventBatch(db, oldPlain, [4, 4, 4]);
    await storeEventBatch(db, [plainAt(Date.now(), 0), plainAt(Date.now(), 1)]);
    await db.query(
      `insert into client_logs (received_at, levelname, msg, session_id, record)
       select now() - make_interval(days => d), 'ERROR', 'boom', 's', '{}'::jsonb from unnest(array[40, 41, 42, 1]) as d`,
    );
    const lastDay = new Date(oldDay).toISOString().slice(0, 10);
    const before = await findDailyActivity(db, deck, { lastDay, days: 1 });
    expect(before.totals.views).toBe(5);
    const deleted = await pruneOldEvents(db, { eventRetentionDays: 90, clientLogRetentionDays: 30 }, 2);
    expect(deleted?.events).toBeGreaterThanOrEqual(5 + 12);
    expect(deleted?.clientLogs).toBeGreaterThanOrEqual(3);
    const [left] = await db.query<{ n: number }>(
      "select count(*)::int as n from usage_event_log where presentation_oid = $1",
      [deck.oid],
    );
    expect(left?.n).toBe(3);
    const [logs] = await db.query<{ n: number }>(
      "select count(*)::int as n from client_logs where received_at < now() - interval '30 days'",
    );
    expect(logs?.n).toBe(0);
    expect(await findDailyActivity(db, deck, { lastDay, days: 1 })).toEqual(before);
    expect(await viewCount(db, deck.oid)).toBe(6);
  });

  it("issue 14 item 5: one pruner at a time: while another process holds the prune lock, pruning stops", async () => {
    if (!url) return; // PGlite is one connection in one process: nothing else can hold the lock.
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      await other.query("begin");
      await other.query("select pg_advisory_xact_lock(727360014)");
      expect(await pruneOldEvents(db, { eventRetentionDays: 90, clientLogRetentionDays: 30 })).toBeNull();
      await other.query("commit");
      expect(await pruneOldEvents(db, { eventRetentionDays: 90, clientLogRetentionDays: 30 })).not.toBeNull();
    } finally {
      await other.end();
    }
  });

  it("issue 14 item 5: the owner's chart reads the per-day aggregate, not the raw events", async () => {
    const deck = await addDeck(db, "aggregate-only");
    await storeEventBatch(db, [acceptedEvent({ oid: deck.oid, at: "2025-04-02T12:00:00Z", address: "192.0.2.50" })]);
    const window = { lastDay: "2025-04-02", days: 2 };
    expect((await findDailyActivity(db, deck, window)).totals.views).toBe(1);
    // Without the raw events the chart is the same; a change to the aggregate shows.
    await db.query("delete from usage_events where presentation_oid = $1", [deck.oid]);
    expect((await findDailyActivity(db, deck, window)).totals.views).toBe(1);
    await db.query("update presentation_daily_views set views = 7 where presentation_id = $1", [deck.id]);
    expect((await findDailyActivity(db, deck, window)).days).toEqual([
      { day: "2025-04-01", views: 0, likes: 0 },
      { day: "2025-04-02", views: 7, likes: 0 },
    ]);
  });
});
