import type { BinaryLike, ScryptOptions } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { testDatabaseTargets } from "../../db/testing";
import { createTestApp, TestAgent } from "../../server/testing";
import {
  hashPassword,
  MAX_CONCURRENT_HASHES,
  MAX_WAITING_HASHES,
  PASSWORD_HASH_LOG2N,
  PasswordHashingBusyError,
  passwordHashingStats,
  passwordHashLog2N,
  verifyPassword,
} from "./password";

/**
 * node:crypto's scrypt, watched: how many derivations run at once, and (when `hold` is on)
 * derivations that wait to be released by the test instead of computing (a zero key).
 */
const watch = vi.hoisted(() => ({ inFlight: 0, peak: 0, hold: false, held: [] as Array<() => void> }));

vi.mock("node:crypto", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:crypto")>();
  const scrypt = (
    password: BinaryLike,
    salt: BinaryLike,
    keyLength: number,
    options: ScryptOptions,
    callback: (error: Error | null, key: Buffer) => void,
  ) => {
    watch.inFlight += 1;
    watch.peak = Math.max(watch.peak, watch.inFlight);
    const done = (error: Error | null, key: Buffer) => {
      watch.inFlight -= 1;
      callback(error, key);
    };
    if (watch.hold) watch.held.push(() => done(null, Buffer.alloc(keyLength)));
    else actual.scrypt(password, salt, keyLength, options, done);
  };
  return { ...actual, default: { ...actual, scrypt }, scrypt };
});

/** Releases held derivations until every one of these calls has settled. */
async function releaseAll(calls: Promise<unknown>[]): Promise<void> {
  let settled = false;
  const all = Promise.allSettled(calls).then(() => {
    settled = true;
  });
  while (!settled) {
    watch.held.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  }
  await all;
}

/** Fills the queue: one derivation held running, MAX_WAITING_HASHES waiting behind it. */
function fillQueue(): Promise<unknown>[] {
  watch.hold = true;
  const calls = Array.from({ length: MAX_CONCURRENT_HASHES + MAX_WAITING_HASHES }, (_, i) =>
    hashPassword(`filler ${i}`),
  );
  expect(passwordHashingStats()).toEqual({ running: MAX_CONCURRENT_HASHES, waiting: MAX_WAITING_HASHES });
  return calls;
}

afterEach(() => {
  watch.hold = false;
  watch.peak = 0;
});

describe("password hashing", () => {
  it("issue 29: real passwords get OWASP's full cost; the cheap test cost only where no real password can be stored", () => {
    expect(PASSWORD_HASH_LOG2N).toBe(17);
    // Nothing set: the full cost, whatever the database.
    expect(passwordHashLog2N({})).toBe(17);
    expect(passwordHashLog2N({ PODIUM_DATA_DIR: "/srv/podium" })).toBe(17);
    // Asked for: under Vitest, or a server on an in-memory database only.
    expect(passwordHashLog2N({ PODIUM_TEST_PASSWORD_HASH_COST: "10", VITEST: "true" })).toBe(10);
    expect(passwordHashLog2N({ PODIUM_TEST_PASSWORD_HASH_COST: "10", PODIUM_DATA_DIR: "memory://" })).toBe(10);
    expect(() => passwordHashLog2N({ PODIUM_TEST_PASSWORD_HASH_COST: "10" })).toThrow(/in-memory database only/);
    expect(() => passwordHashLog2N({ PODIUM_TEST_PASSWORD_HASH_COST: "10", PODIUM_DATA_DIR: "./data" })).toThrow(
      /in-memory database only/,
    );
    expect(() =>
      passwordHashLog2N({
        PODIUM_TEST_PASSWORD_HASH_COST: "10",
        PODIUM_DATA_DIR: "memory://",
        DATABASE_URL: "postgres://db/podium",
      }),
    ).toThrow(/in-memory database only/);
    // Out of range or not a number: refused, never a weaker hash.
    for (const bad of ["4", "9", "18", "ten", "10.5"]) {
      expect(() => passwordHashLog2N({ PODIUM_TEST_PASSWORD_HASH_COST: bad, VITEST: "true" })).toThrow(
        /whole number from 10 to 17/,
      );
    }
  });

  it("hardening 7: never more than one scrypt at a time, for hashes and verifications alike", async () => {
    const stored = await hashPassword("a password to verify");
    watch.peak = 0;
    const results = await Promise.all([
      hashPassword("one password"),
      verifyPassword("a password to verify", stored),
      hashPassword("two passwords"),
      verifyPassword("not the password", stored),
      hashPassword("three passwords"),
      verifyPassword("a password to verify", stored),
    ]);
    expect(MAX_CONCURRENT_HASHES).toBe(1);
    expect(watch.peak).toBe(1);
    expect(watch.inFlight).toBe(0);
    expect(results.slice(1).filter((result) => typeof result === "boolean")).toEqual([true, false, true]);
    expect(results.filter((result) => typeof result === "string")).toHaveLength(3);
  });

  it("hardening 7: takes turns in order (first come, first served)", async () => {
    watch.hold = true;
    const order: number[] = [];
    const calls = Array.from({ length: 6 }, (_, i) => hashPassword(`in order ${i}`).then(() => order.push(i)));
    expect(watch.inFlight).toBe(1);
    expect(passwordHashingStats()).toEqual({ running: 1, waiting: 5 });
    await releaseAll(calls);
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
    expect(passwordHashingStats()).toEqual({ running: 0, waiting: 0 });
  });

  it("hardening 7: a full queue refuses at once, and takes work again once it drains", async () => {
    const calls = fillQueue();
    await expect(hashPassword("one too many")).rejects.toBeInstanceOf(PasswordHashingBusyError);
    await expect(verifyPassword("one too many", "scrypt$16$8$1$c2FsdA$a2V5")).rejects.toBeInstanceOf(
      PasswordHashingBusyError,
    );
    expect(watch.inFlight).toBe(1);
    await releaseAll(calls);
    watch.hold = false;
    expect(await hashPassword("room again")).toMatch(/^scrypt\$/);
  });
});

describe.each(testDatabaseTargets().slice(0, 1))("a busy password queue on $name", (target) => {
  it("hardening 7: login and signup answer 503 with Retry-After and say the server is busy", async () => {
    const { app, close } = await createTestApp(target);
    try {
      await new TestAgent(app).signUp("queued@podium.test", "a real password");
      const calls = fillQueue();
      const busy = "The server is busy; please try again in a few seconds.";
      const agent = new TestAgent(app);
      await agent.get("/login/");
      const login = await agent.postForm("/login/", { email: "queued@podium.test", password: "a real password" });
      expect(login.statusCode).toBe(503);
      expect(login.headers["retry-after"]).toBe("5");
      expect(login.body).toContain(busy);
      // An unknown email (the decoy hash) is refused alike ...
      const unknown = await agent.postForm("/login/", { email: "nobody@podium.test", password: "a real password" });
      expect(unknown.statusCode).toBe(503);
      await agent.get("/signup/");
      const signup = await agent.postSignUp({ email: "new.queued@podium.test", password: "a real password" });
      expect(signup.statusCode).toBe(503);
      expect(signup.headers["retry-after"]).toBe("5");
      expect(signup.body).toContain(busy);
      await releaseAll(calls);
      watch.hold = false;
      // ... and, once the queue drains, answered as usual (the refused decoy isn't kept), and
      // the refused attempts didn't count as failures.
      expect(
        (await agent.postForm("/login/", { email: "nobody@podium.test", password: "a real password" })).statusCode,
      ).toBe(401);
      expect(
        (await agent.postForm("/login/", { email: "queued@podium.test", password: "a real password" })).statusCode,
      ).toBe(303);
    } finally {
      await close();
    }
  });
});
