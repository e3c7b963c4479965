import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../../db/client";
import { testDatabaseTargets } from "../../../db/testing";
import { TEST_CONFIG } from "../../../server/testing";
import {
  appKeepingDatabase,
  CuttableProxy,
  deleteStream,
  NATS_TEST_URL,
  natsAvailable,
  postEvent,
  storedEvents,
} from "../../../server/testing/event-pipeline";

/**
 * Issue 14 "Done when": PostgreSQL stops for 10 s under load (a TCP proxy between Podium and
 * PostgreSQL is cut, then restored). Without NATS the in-process queue fills and the API
 * answers 503; with NATS it keeps answering 204 and the consumer catches up. Either way every
 * event answered 204 is stored once the database is back, and none twice.
 */

const OUTAGE_MS = 10_000;
/** Events in flight at once, the load during the outage. */
const CONCURRENCY = 10;

const postgres = testDatabaseTargets().find((target) => target.name === "postgres");
const nats = await natsAvailable();

async function readiness(app: FastifyInstance): Promise<{ status: number; body: Record<string, string> }> {
  const response = await app.inject({ method: "GET", url: "/readyz" });
  return { status: response.statusCode, body: response.json() };
}

/** Posts events, CONCURRENCY at a time, until stop() is called; counts the answers by status. */
function load(app: FastifyInstance, tag: string) {
  const statuses = new Map<number, number>();
  let running = true;
  let next = 0;
  const worker = async () => {
    while (running) {
      const response = await postEvent(app, `${tag}${next++}`);
      statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
      // A 503 asks for a pause (Retry-After); the load keeps trying, a little slower.
      if (response.statusCode !== 204) await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const workers = Array.from({ length: CONCURRENCY }, worker);
  return {
    statuses,
    count: (status: number) => statuses.get(status) ?? 0,
    async stop() {
      running = false;
      await Promise.all(workers);
    },
  };
}

describe.runIf(postgres)("issue 14 Done when: a 10 s database outage under load", () => {
  let created: Awaited<ReturnType<NonNullable<typeof postgres>["create"]>>;
  let proxy: CuttableProxy;
  let proxied: Database;
  const streams: string[] = [];

  beforeAll(async () => {
    created = await (postgres as NonNullable<typeof postgres>).create();
    const url = new URL(created.url as string);
    proxy = new CuttableProxy(url.hostname, Number(url.port || 5432));
    await proxy.up();
    url.hostname = "127.0.0.1";
    url.port = String(proxy.port);
    proxied = await openDatabase({ url: url.toString(), queryTimeoutMs: 1_000 });
  });
  afterAll(async () => {
    await proxied?.close();
    await proxy?.cut();
    for (const stream of streams) await deleteStream(stream);
    await created?.drop();
  });

  /** Load before, during and after a 10 s cut; returns the answers' counts. */
  async function outageUnderLoad(app: FastifyInstance, tag: string, duringCut: () => Promise<void> = async () => {}) {
    const running = load(app, tag);
    await expect.poll(() => running.count(204), { timeout: 10_000 }).toBeGreaterThan(100);
    await proxy.cut();
    const cutAt = Date.now();
    await duringCut();
    const during = { before204: running.count(204), before503: running.count(503) };
    await expect.poll(() => Date.now() - cutAt >= OUTAGE_MS, { timeout: OUTAGE_MS + 5_000 }).toBe(true);
    const atReturn = { ok: running.count(204) - during.before204, busy: running.count(503) - during.before503 };
    await proxy.up();
    const backAt = running.count(204);
    await expect.poll(() => running.count(204), { timeout: 20_000 }).toBeGreaterThan(backAt + 100);
    await running.stop();
    return { running, duringOutage: atReturn };
  }

  it("issue 14 item 1: without NATS the API answers 503 once the queue is full, and every 204'd event is stored after the database returns", async () => {
    const app = await appKeepingDatabase(proxied, { events: { ...TEST_CONFIG.events, queueLimit: 500 } });
    const tag = `o${randomBytes(5).toString("hex")}-`;
    const { running, duringOutage } = await outageUnderLoad(app, tag, async () => {
      // /readyz says why events are refused (the database is away too, so the process is not ready).
      await expect.poll(async () => (await readiness(app)).body.events, { timeout: OUTAGE_MS / 2 }).toBe("full");
    });
    // The queue filled during the outage: 503s, and no more than the queue's room in 204s.
    expect(duringOutage.busy).toBeGreaterThan(0);
    expect(duringOutage.ok).toBeLessThanOrEqual(500);
    expect([...running.statuses.keys()].sort()).toEqual([204, 503]);
    await app.close();
    expect(await storedEvents(created.db, tag)).toEqual({ rows: running.count(204), distinct: running.count(204) });
  }, 90_000);

  it.runIf(nats)(
    "issue 14 item 2: with NATS every acknowledged event is stored once the database returns, each once",
    async () => {
      const stream = `PODIUM_TEST_${randomBytes(5).toString("hex")}`;
      streams.push(stream);
      const app = await appKeepingDatabase(proxied, {
        events: { ...TEST_CONFIG.events, natsUrl: NATS_TEST_URL, stream },
      });
      const tag = `n${randomBytes(5).toString("hex")}-`;
      const { running, duringOutage } = await outageUnderLoad(app, tag);
      // JetStream holds the events: the API kept answering 204 while the database was away.
      expect(duringOutage.ok).toBeGreaterThan(0);
      expect(running.count(204)).toBeGreaterThan(0);
      const accepted = running.count(204);
      await expect
        .poll(() => storedEvents(created.db, tag), { timeout: 30_000 })
        .toEqual({ rows: accepted, distinct: accepted });
      await app.close();
      expect(await storedEvents(created.db, tag)).toEqual({ rows: accepted, distinct: accepted });
    },
    120_000,
  );
});

describe.runIf(nats)("issue 14: /readyz reports the event stream", () => {
  it("says events are unreachable while NATS is away and ok once it is back; pages are still served, so the process stays ready", async () => {
    const natsUrl = new URL(NATS_TEST_URL);
    const natsProxy = new CuttableProxy(natsUrl.hostname, Number(natsUrl.port || 4222));
    await natsProxy.up();
    const pglite = testDatabaseTargets().find((target) => target.name === "pglite");
    if (!pglite) throw new Error("PGlite is always a target");
    const { db, drop } = await pglite.create();
    const stream = `PODIUM_TEST_${randomBytes(5).toString("hex")}`;
    const app = await appKeepingDatabase(db, {
      events: { ...TEST_CONFIG.events, natsUrl: `nats://127.0.0.1:${natsProxy.port}`, stream },
    });
    const state = async () => {
      const { status, body } = await readiness(app);
      return { status, events: body.events };
    };
    try {
      expect(await state()).toEqual({ status: 200, events: "ok" });
      await natsProxy.cut();
      await expect.poll(state, { timeout: 10_000 }).toEqual({ status: 200, events: "unreachable" });
      expect((await postEvent(app, `r${randomBytes(5).toString("hex")}`)).statusCode).toBe(503);
      await natsProxy.up();
      await expect.poll(state, { timeout: 20_000 }).toEqual({ status: 200, events: "ok" });
      expect((await postEvent(app, `r${randomBytes(5).toString("hex")}`)).statusCode).toBe(204);
    } finally {
      await app.close();
      await natsProxy.cut();
      await deleteStream(stream);
      await drop();
    }
  }, 60_000);
});
