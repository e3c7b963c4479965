import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "../db/testing";
import { createTestApp, TEST_CONFIG, TestAgent } from "./testing";

/**
 * Issue 16 item 1 through the routes: two apps (two processes) with one REDIS_URL and prefix share
 * the signup limit; with Redis unreachable an app is not ready, still serves, and still limits
 * signups in its own process. The machine's Redis, a random prefix, removed afterwards.
 */

const REDIS_URL = process.env.TEST_REDIS_URL;
/** A port nothing listens on: Redis "down" from the start. */
const UNREACHABLE_REDIS_URL = "redis://127.0.0.1:9";
/** Two databases, signups (scrypt) and a 5 s wait for Redis on a shared, loaded machine. */
const SLOW_TEST_MS = 120_000;

describe.skipIf(!REDIS_URL).each(testDatabaseTargets())("shared limits with REDIS_URL on $name", (target) => {
  let prefix: string;
  let admin: Redis;
  const closers: (() => Promise<void>)[] = [];
  beforeEach(() => {
    prefix = `podium-test-${randomBytes(5).toString("hex")}:`;
    admin = new Redis(String(REDIS_URL));
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
    const keys = await admin.keys(`${prefix}*`);
    if (keys.length > 0) await admin.del(...keys);
    await admin.quit();
  });

  /** `seeded`: on a database with the demo content. */
  const appWith = async (redisUrl: string, signupsPerAddress: number, seeded = false) => {
    const made = await createTestApp(
      target,
      {
        redisUrl,
        redisPrefix: prefix,
        accountLimits: { ...TEST_CONFIG.accountLimits, signupsPerAddress },
      },
      { seeded },
    );
    closers.push(made.close);
    return made.app;
  };

  const signUp = async (agent: TestAgent, email: string) => {
    await agent.get("/signup/?next=%2F");
    return agent.postSignUp({ email });
  };

  it(
    "issue 16 item 1: two processes share one signup limit per address",
    async () => {
      const a = await appWith(String(REDIS_URL), 2);
      const b = await appWith(String(REDIS_URL), 2);
      expect((await signUp(new TestAgent(a), "one@example.com")).statusCode).toBe(303);
      expect((await signUp(new TestAgent(b), "two@example.com")).statusCode).toBe(303);
      // Each process has taken one signup; the address has used its two.
      const third = await signUp(new TestAgent(a), "three@example.com");
      expect(third.statusCode).toBe(429);
      expect(Number(third.headers["retry-after"])).toBeGreaterThan(3500);
      expect(await admin.zcard(`${prefix}limit:signup-address:127.0.0.1`)).toBe(2);
      const ready = await a.inject({ method: "GET", url: "/readyz" });
      expect(ready.json()).toEqual({ status: "ready", database: "ok", redis: "ok", events: "ok" });
    },
    SLOW_TEST_MS,
  );

  it(
    "issue 16 item 1: two processes share one abuse-report limit per address (20 an hour)",
    async () => {
      const reportTo = async (app: Awaited<ReturnType<typeof appWith>>) => {
        const sitemap = (await app.inject({ method: "GET", url: "/sitemap.xml" })).body;
        const oid = /\/p\/([a-z0-9]{12})\//.exec(sitemap)?.[1] ?? "";
        const agent = new TestAgent(app);
        await agent.get(`/contact/abuse/${oid}/`);
        return () => agent.postForm(`/contact/abuse/${oid}/`, { reason: "spam", details: "Spam links" });
      };
      const a = await appWith(String(REDIS_URL), 2, true);
      const b = await appWith(String(REDIS_URL), 2, true);
      const [reportA, reportB] = [await reportTo(a), await reportTo(b)];
      for (let n = 0; n < 10; n += 1) {
        expect((await reportA()).statusCode).toBe(200);
        expect((await reportB()).statusCode).toBe(200);
      }
      // 10 in each process: the address has made its 20.
      const refused = await reportA();
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(3500);
      expect((await reportB()).statusCode).toBe(429);
    },
    SLOW_TEST_MS,
  );

  it(
    "issue 27 item 3: two processes share one request limit per address in Redis, unknown paths included, and both refuse past it",
    async () => {
      const limit = 4;
      const apps = [];
      for (let i = 0; i < 2; i += 1) {
        const made = await createTestApp(target, {
          redisUrl: String(REDIS_URL),
          redisPrefix: prefix,
          rateLimitPerMinute: limit,
        });
        closers.push(made.close);
        apps.push(made.app);
      }
      const [a, b] = apps;
      if (!a || !b) throw new Error("two apps expected");
      const from = "203.0.113.27";
      const statuses: number[] = [];
      for (let i = 0; i < limit + 2; i += 1) {
        const app = i % 2 === 0 ? a : b;
        statuses.push((await app.inject({ method: "GET", url: `/nonexistent-${i}`, remoteAddress: from })).statusCode);
      }
      expect(statuses).toEqual([404, 404, 404, 404, 429, 429]);
      expect(Number(await admin.get(`${prefix}requests:${from}`))).toBeGreaterThanOrEqual(limit);
    },
    SLOW_TEST_MS,
  );

  it(
    "issue 16 item 1: with Redis unreachable the process stays ready (reporting redis unreachable), serves pages, and limits signups itself",
    async () => {
      const app = await appWith(UNREACHABLE_REDIS_URL, 1);
      const ready = await app.inject({ method: "GET", url: "/readyz" });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: "ready", database: "ok", redis: "unreachable", events: "ok" });
      expect((await app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
      // The request limit fails open: pages are served.
      expect((await app.inject({ method: "GET", url: "/" })).statusCode).toBe(200);
      expect((await signUp(new TestAgent(app), "one@example.com")).statusCode).toBe(303);
      expect((await signUp(new TestAgent(app), "two@example.com")).statusCode).toBe(429);
    },
    SLOW_TEST_MS,
  );
});
