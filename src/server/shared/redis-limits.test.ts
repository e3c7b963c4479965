import { randomBytes } from "node:crypto";
import { connect, createServer, type Server, type Socket } from "node:net";
import { Redis } from "ioredis";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Limits } from "../../lib/limits";
import { openRedis, type SharedRedis } from "./redis";
import { redisLimits } from "./redis-limits";

/**
 * Issue 16 item 1: the login, signup and like limits counted in the machine's Redis, shared by
 * every process (two `redisLimits` on two connections stand for two processes), under a random
 * key prefix removed afterwards; and what happens while Redis is away.
 */

const REDIS_URL = process.env.TEST_REDIS_URL;

async function removeKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== "0");
}

/** A TCP relay in front of Redis that the test can cut (Redis "goes down") and restore. */
async function cuttableRelay(target: URL): Promise<{ url: string; cut(): Promise<void>; restore(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const listen = async () => {
    server = createServer((client) => {
      const upstream = connect(Number(target.port || 6379), target.hostname);
      sockets.add(client).add(upstream);
      client.pipe(upstream).pipe(client);
      const drop = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on("error", drop).on("close", drop);
      upstream.on("error", drop).on("close", drop);
    });
    await new Promise<void>((resolve) => server?.listen(port, "127.0.0.1", resolve));
    const address = server.address();
    port = typeof address === "object" && address ? address.port : 0;
  };
  await listen();
  return {
    url: `redis://127.0.0.1:${port}`,
    async cut() {
      const closing = new Promise<void>((resolve) => server?.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      await closing;
    },
    restore: listen,
  };
}

describe.skipIf(!REDIS_URL)("limits in Redis (issue 16 item 1)", () => {
  let admin: Redis;
  let prefix: string;
  const opened: SharedRedis[] = [];
  const warnings: string[] = [];
  const open = (url = String(REDIS_URL)) => {
    const redis = openRedis(url, prefix, (message) => warnings.push(message));
    opened.push(redis);
    return redis;
  };
  /** Two "processes": two connections, two sets of limits, one prefix. */
  const twoProcesses = async (): Promise<[Limits, Limits]> => {
    const first = open();
    const second = open();
    expect(await first.waitUntilConnected(5_000)).toBe(true);
    expect(await second.waitUntilConnected(5_000)).toBe(true);
    return [redisLimits(first), redisLimits(second)];
  };

  beforeEach(() => {
    admin = new Redis(String(REDIS_URL));
    prefix = `podium-test-${randomBytes(5).toString("hex")}:`;
    warnings.length = 0;
  });
  afterEach(async () => {
    for (const redis of opened.splice(0)) await redis.close();
    await removeKeys(admin, prefix);
    await admin.quit();
  });

  it("a sliding window (login, signup) counts one budget across processes and takes back an undone attempt", async () => {
    const [a, b] = await twoProcesses();
    const inA = a.sliding("signup-address", 3, 60_000);
    const inB = b.sliding("signup-address", 3, 60_000);
    expect((await inA.hit("203.0.113.9")).allowed).toBe(true);
    expect((await inB.hit("203.0.113.9")).allowed).toBe(true);
    expect((await inA.hit("203.0.113.9")).allowed).toBe(true);
    const refused = await inB.hit("203.0.113.9");
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBeGreaterThan(55);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    // Another key has its own budget.
    expect((await inB.hit("203.0.113.10")).allowed).toBe(true);
    // A login that succeeded is taken back, in either process.
    await inB.undo("203.0.113.9");
    expect((await inA.hit("203.0.113.9")).allowed).toBe(true);
    expect(await admin.zcard(`${prefix}limit:signup-address:203.0.113.9`)).toBe(3);
    expect(await admin.pttl(`${prefix}limit:signup-address:203.0.113.9`)).toBeGreaterThan(0);
  });

  it("a fixed window (the like budget) is one count across processes", async () => {
    const [a, b] = await twoProcesses();
    const inA = a.fixed("like", 4, 60_000);
    const inB = b.fixed("like", 4, 60_000);
    const verdicts = await Promise.all([inA, inB, inA, inB, inA, inB].map((limit) => limit.hit("user:7")));
    expect(verdicts.filter((verdict) => verdict.allowed)).toHaveLength(4);
    expect(verdicts.filter((verdict) => !verdict.allowed).every((verdict) => verdict.retryAfterSeconds >= 59)).toBe(
      true,
    );
    expect(await admin.get(`${prefix}limit:like:user:7`)).toBe("4");
  });

  it("login delays (backoff) follow one account's failures from one client across processes; a success clears them", async () => {
    const [a, b] = await twoProcesses();
    const options = { freeFailures: 2, baseDelayMs: 10_000, maxDelayMs: 60_000, forgetAfterMs: 3_600_000 };
    const inA = a.backoff("login-client", options);
    const inB = b.backoff("login-client", options);
    const key = "ada@podium.test\naddress:203.0.113.9";
    expect((await inA.begin(key)).allowed).toBe(true);
    await inA.end(key, "failure");
    expect((await inB.begin(key)).allowed).toBe(true);
    await inB.end(key, "failure");
    // Two failures, one in each process: the next attempt anywhere waits 10 s.
    const waiting = await inA.begin(key);
    expect(waiting).toEqual({ allowed: false, retryAfterSeconds: 10 });
    expect((await inB.begin(key)).allowed).toBe(false);
    // Attempts in flight count: two parallel first tries of a fresh key leave the third waiting.
    const fresh = "grace@podium.test\naddress:203.0.113.9";
    expect((await inA.begin(fresh)).allowed).toBe(true);
    expect((await inB.begin(fresh)).allowed).toBe(true);
    expect((await inA.begin(fresh)).allowed).toBe(false);
    await inB.end(fresh, "success");
    expect(await admin.exists(`${prefix}limit:login-client:${fresh}`)).toBe(0);
    expect((await inA.begin(fresh)).allowed).toBe(true);
  });

  it("while Redis is away the limits count in each process and a warning is logged; back, they are shared again", async () => {
    const relay = await cuttableRelay(new URL(String(REDIS_URL)));
    const redis = open(relay.url);
    expect(await redis.waitUntilConnected(5_000)).toBe(true);
    const limits = redisLimits(redis);
    const signup = limits.sliding("signup-address", 2, 60_000);
    expect((await signup.hit("203.0.113.9")).allowed).toBe(true);
    await relay.cut();
    await expect.poll(() => redis.connected()).toBe(false);
    // In this process: still limited (2 an hour here), never open to everyone, never closed to all.
    expect((await signup.hit("203.0.113.20")).allowed).toBe(true);
    expect((await signup.hit("203.0.113.20")).allowed).toBe(true);
    expect((await signup.hit("203.0.113.20")).allowed).toBe(false);
    expect(warnings.some((warning) => warning.includes("Redis unreachable"))).toBe(true);
    await relay.restore();
    expect(await redis.waitUntilConnected(10_000)).toBe(true);
    // Shared again: the count made before the cut is still there.
    expect((await signup.hit("203.0.113.9")).allowed).toBe(true);
    expect((await signup.hit("203.0.113.9")).allowed).toBe(false);
    expect(warnings.some((warning) => warning.includes("reachable again"))).toBe(true);
  });
});
