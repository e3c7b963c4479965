import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { testDatabaseTargets } from "../../db/testing";
import { stableOid } from "../../lib/ids";
import { createTestApp } from "../../server/testing";
import { insertUser } from "../accounts/repository";
import { findDailyActivity } from "../dashboard/repository";
import { importMarkdown } from "../presentation/document/markdown";
import { findPresentationByOid, insertPresentationIfAbsent } from "../presentation/repository";
import { pruneOldEvents } from "./retention";
import { ADDRESS_VIEWS_PER_HOUR, storeEventBatch } from "./store-batch";
import { acceptedEvent } from "./testing";
import { VIEWER_EVENTS } from "./usage-event";

type Privacy = "public" | "reusable" | "unlisted" | "private";

async function addDeck(db: Database, key: string, privacy: Privacy = "public") {
  const oid = stableOid(`views:${key}`);
  const [owner] = await db.query<{ id: string }>("select id::text as id from users where email = 'owner@views.test'");
  const ownerId =
    owner?.id ??
    (
      await insertUser(db, {
        oid: stableOid("views:owner"),
        email: "owner@views.test",
        username: "views-owner",
        firstName: "Views",
        lastName: "Owner",
        publicDisplayName: null,
        passwordHash: "x",
        isAdmin: false,
        isCurator: false,
      })
    ).id;
  await insertPresentationIfAbsent(db, {
    oid,
    ownerId,
    title: `Deck ${key}`,
    descriptionHtml: "",
    privacy,
    schemaVersion: "2",
    tags: [],
    document: importMarkdown("# One\n---\n# Two", "2"),
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

const loadedEvent = (oid: string, sessionId: string) => [
  {
    core: { type: "Analytics", event_type: VIEWER_EVENTS.loadedPublicViewPage },
    user: { session_id: sessionId },
    body: { event_name: VIEWER_EVENTS.loadedPublicViewPage, oid },
  },
];

describe.each(testDatabaseTargets())("honest views through /log/json on $name (issue 14 item 3)", (target) => {
  let app: Awaited<ReturnType<typeof createTestApp>>["app"];
  let db: Database;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ app, db, close } = await createTestApp(target));
  });
  afterAll(() => close());

  const send = async (
    oid: string,
    options: { sessionId: string; address: string; userAgent?: string; cookie?: string; path?: string },
  ) => {
    const response = await app.inject({
      method: "POST",
      url: options.path ?? "/log/json",
      remoteAddress: options.address,
      headers: {
        "content-type": "application/json",
        "user-agent": options.userAgent ?? "Mozilla/5.0 (X11; Linux x86_64) Chrome/130",
        ...(options.cookie ? { cookie: options.cookie } : {}),
      },
      payload: JSON.stringify(loadedEvent(oid, options.sessionId)),
    });
    // Issue 14 item 1: a 204 means queued; counts are read once the pipeline has stored it.
    await app.usageEvents.flush();
    return response;
  };

  it("issue 14 done-when: 100 forged events with fresh ids from one address raise a view count by at most 3", async () => {
    const deck = await addDeck(db, "forged");
    for (let i = 0; i < 100; i++) {
      // Fresh session ids, fresh user agents, both routes: all from one address.
      const response = await send(deck.oid, {
        sessionId: `forged-${i}`,
        userAgent: `Forger/${i}`,
        address: "203.0.113.66",
        path: i % 2 === 0 ? "/log/json" : "/fallback/json",
      });
      expect(response.statusCode).toBe(204);
    }
    expect(ADDRESS_VIEWS_PER_HOUR).toBe(3);
    expect(await viewCount(db, deck.oid)).toBe(ADDRESS_VIEWS_PER_HOUR);
    expect(await countedEvents(db, deck.oid)).toBe(ADDRESS_VIEWS_PER_HOUR);
    // Another address still counts: the cap is per address.
    await send(deck.oid, { sessionId: "honest", address: "203.0.113.67" });
    expect(await viewCount(db, deck.oid)).toBe(ADDRESS_VIEWS_PER_HOUR + 1);
  });

  it("issue 27 item 6: the per-address cap counts an IPv6 sender by its /64, so fresh addresses in one /64 add at most the cap", async () => {
    const deck = await addDeck(db, "ipv6-prefix");
    for (let i = 0; i < 20; i++) {
      const response = await send(deck.oid, {
        sessionId: `v6-${i}`,
        userAgent: `Rotator/${i}`,
        address: `2001:db8:27:6:${(i + 1).toString(16)}::${(i * 7 + 3).toString(16)}`,
      });
      expect(response.statusCode).toBe(204);
    }
    expect(await viewCount(db, deck.oid)).toBe(ADDRESS_VIEWS_PER_HOUR);
    // The next /64 is another person's.
    await send(deck.oid, { sessionId: "v6-neighbour", address: "2001:db8:27:7::1" });
    expect(await viewCount(db, deck.oid)).toBe(ADDRESS_VIEWS_PER_HOUR + 1);
  });

  it("issue 27 item 6: IPv4 is capped by the full address, and an IPv4-mapped IPv6 sender as the IPv4 address it maps", async () => {
    const deck = await addDeck(db, "ipv4-mapped");
    for (let i = 0; i < 6; i++) {
      await send(deck.oid, {
        sessionId: `mapped-${i}`,
        userAgent: `Mapped/${i}`,
        address: i % 2 === 0 ? "198.51.100.27" : "::ffff:198.51.100.27",
      });
    }
    expect(await viewCount(db, deck.oid)).toBe(ADDRESS_VIEWS_PER_HOUR);
    // The address beside it is someone else: IPv4 has no prefix.
    await send(deck.oid, { sessionId: "mapped-neighbour", address: "198.51.100.28" });
    expect(await viewCount(db, deck.oid)).toBe(ADDRESS_VIEWS_PER_HOUR + 1);
  });

  it("issue 14 done-when: 10 reloads by one visitor count once, without the consent cookie (a fresh session id each time)", async () => {
    const deck = await addDeck(db, "reloads-no-cookie");
    for (let i = 0; i < 10; i++) {
      expect((await send(deck.oid, { sessionId: `page-load-${i}`, address: "198.51.100.20" })).statusCode).toBe(204);
    }
    expect(await viewCount(db, deck.oid)).toBe(1);
    expect(await countedEvents(db, deck.oid)).toBe(1);
  });

  it("issue 14 done-when: 10 reloads by one visitor count once with the consent cookie (the same session id)", async () => {
    const deck = await addDeck(db, "reloads-cookie");
    for (let i = 0; i < 10; i++) {
      const response = await send(deck.oid, {
        sessionId: "cookie-session-1",
        address: "198.51.100.21",
        cookie: "podium_usage=cookie-session-1",
      });
      expect(response.statusCode).toBe(204);
    }
    expect(await viewCount(db, deck.oid)).toBe(1);
    // Another browser at the same address (another user agent) is another visitor.
    await send(deck.oid, { sessionId: "cookie-session-2", address: "198.51.100.21", userAgent: "Firefox/131" });
    expect(await viewCount(db, deck.oid)).toBe(2);
  });

  it("issue 14 item 3: private and unlisted presentations never count from public-page events; a deleted one doesn't either", async () => {
    const privateDeck = await addDeck(db, "private", "private");
    const unlisted = await addDeck(db, "unlisted", "unlisted");
    const reusable = await addDeck(db, "reusable", "reusable");
    const deleted = await addDeck(db, "deleted");
    await db.query("delete from presentations where id = $1", [deleted.id]);
    for (const [i, deck] of [privateDeck, unlisted, reusable, deleted].entries()) {
      expect((await send(deck.oid, { sessionId: `s-${i}`, address: `198.51.100.${30 + i}` })).statusCode).toBe(204);
    }
    expect(await viewCount(db, privateDeck.oid)).toBe(0);
    expect(await viewCount(db, unlisted.oid)).toBe(0);
    expect(await viewCount(db, reusable.oid)).toBe(1);
    const [stored] = await db.query<{ n: number; counted: number }>(
      "select count(*)::int as n, count(*) filter (where counted_view)::int as counted from usage_events where presentation_oid = $1",
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
      "select count(*)::int as n from usage_events where presentation_oid = $1",
      [deck.oid],
    );
    expect(rows?.n).toBe(4);
  });

  it("issue 14 item 4: after batches with duplicates, redeliveries and concurrent writers, view_count equals the counted events and the chart's sum", async () => {
    const deck = await addDeck(db, "exact");
    const start = Date.parse("2025-06-01T10:00:00Z");
    // 40 visitors at 8 addresses (5 browsers each); each loads the page 3 times, a minute apart.
    const events = Array.from({ length: 120 }, (_, i) =>
      acceptedEvent({
        oid: deck.oid,
        at: start + Math.floor(i / 40) * 60_000 + i,
        address: `192.0.2.${100 + (i % 8)}`,
        userAgent: `Browser/${i % 40}`,
      }),
    );
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
    expect(stored).toBe(120);
    // One view per visitor (40), at most 3 per address: 8 addresses × 3.
    expect(counted).toBe(8 * ADDRESS_VIEWS_PER_HOUR);
    expect(await viewCount(db, deck.oid)).toBe(counted);
    expect(await countedEvents(db, deck.oid)).toBe(counted);
    expect(await chartedViews(db, deck.id)).toBe(counted);
  });

  it("issue 14 item 3: concurrent batches holding the same visitor's loads count one view", async () => {
    const deck = await addDeck(db, "concurrent-visitor");
    const now = Date.now();
    const batches = Array.from({ length: 8 }, (_, i) => [
      acceptedEvent({ oid: deck.oid, at: now + i, address: "192.0.2.200", userAgent: "Same/1" }),
    ]);
    await Promise.all(batches.map((batch) => storeEventBatch(db, batch)));
    expect(await viewCount(db, deck.oid)).toBe(1);
    expect(await countedEvents(db, deck.oid)).toBe(1);
  });

  it("issue 14 item 3: the 30-minute window: a visitor counts again after it, also across midnight (keys under the day before's salt)", async () => {
    const deck = await addDeck(db, "window");
    const visit = (at: string) => storeEventBatch(db, [acceptedEvent({ oid: deck.oid, at, address: "192.0.2.210" })]);
    expect((await visit("2025-05-01T23:50:00Z")).counted).toBe(1);
    expect((await visit("2025-05-02T00:10:00Z")).counted).toBe(0); // 20 minutes later, past midnight
    expect((await visit("2025-05-02T00:39:00Z")).counted).toBe(0); // 29 minutes after the last load
    expect((await visit("2025-05-02T01:20:00Z")).counted).toBe(1); // 41 minutes after it
  });

  it("issue 14 item 5: pruning deletes old raw events and client logs in batches, and keeps the per-day views the chart reads", async () => {
    const deck = await addDeck(db, "pruned");
    const oldDay = Date.now() - 100 * 24 * 60 * 60 * 1000;
    const old = Array.from({ length: 5 }, (_, i) =>
      acceptedEvent({ oid: deck.oid, at: oldDay + i * 1000, address: `192.0.2.${i}`, userAgent: "Old/1" }),
    );
    await storeEventBatch(db, old);
    await storeEventBatch(db, [acceptedEvent({ oid: deck.oid, address: "192.0.2.99" })]);
    await db.query(
      `insert into client_logs (received_at, levelname, msg, session_id, record)
       select now() - make_interval(days => d), 'ERROR', 'boom', 's', '{}'::jsonb from unnest(array[40, 41, 42, 1]) as d`,
    );
    const lastDay = new Date(oldDay).toISOString().slice(0, 10);
    const before = await findDailyActivity(db, deck, { lastDay, days: 1 });
    expect(before.totals.views).toBe(5);
    const deleted = await pruneOldEvents(db, { eventRetentionDays: 90, clientLogRetentionDays: 30 }, 2);
    expect(deleted?.events).toBeGreaterThanOrEqual(5);
    expect(deleted?.clientLogs).toBeGreaterThanOrEqual(3);
    const [left] = await db.query<{ n: number }>(
      "select count(*)::int as n from usage_events where presentation_oid = $1",
      [deck.oid],
    );
    expect(left?.n).toBe(1);
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
