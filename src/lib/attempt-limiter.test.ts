import { describe, expect, it } from "vitest";
import { AttemptLimiter, FailureBackoff, RateCounter } from "./attempt-limiter";

/** A clock the test moves by hand. */
function manualClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("AttemptLimiter", () => {
  it("allows `limit` attempts in the window, then says how long to wait", () => {
    const clock = manualClock();
    const limiter = new AttemptLimiter(2, 60_000, clock.now);
    expect(limiter.hit("a").allowed).toBe(true);
    clock.advance(10_000);
    expect(limiter.hit("a").allowed).toBe(true);
    expect(limiter.hit("a")).toEqual({ allowed: false, retryAfterSeconds: 50 });
    expect(limiter.hit("b").allowed).toBe(true);
    clock.advance(50_001);
    expect(limiter.hit("a").allowed).toBe(true);
  });

  it("hardening 8: undo takes an attempt back (a successful login doesn't count)", () => {
    const clock = manualClock();
    const limiter = new AttemptLimiter(2, 60_000, clock.now);
    for (let i = 0; i < 10; i += 1) {
      expect(limiter.hit("a").allowed).toBe(true);
      limiter.undo("a");
    }
    expect(limiter.blocked("a").blocked).toBe(false);
    limiter.hit("a");
    limiter.hit("a");
    expect(limiter.blocked("a").blocked).toBe(true);
  });

  it("keeps at most maxKeys keys, forgetting the least recently used", () => {
    const clock = manualClock();
    const limiter = new AttemptLimiter(1, 60_000, clock.now, 100);
    limiter.hit("kept");
    for (let i = 0; i < 1000; i += 1) {
      limiter.hit(`flood ${i}`);
      if (i % 50 === 0) limiter.hit("kept");
    }
    expect((limiter as unknown as { attempts: Map<string, unknown> }).attempts.size).toBeLessThanOrEqual(100);
    expect(limiter.blocked("kept").blocked).toBe(true);
  });
});

describe("RateCounter", () => {
  it("hardening 6: one budget per key in each window, whatever the call", () => {
    const clock = manualClock();
    const counter = new RateCounter(3, 60_000, clock.now);
    expect([1, 2, 3, 4].map(() => counter.hit("person").allowed)).toEqual([true, true, true, false]);
    expect(counter.hit("someone else").allowed).toBe(true);
    clock.advance(59_000);
    expect(counter.hit("person")).toEqual({ allowed: false, retryAfterSeconds: 1 });
    clock.advance(1_000);
    expect(counter.hit("person").allowed).toBe(true);
  });

  it("hardening 6: holds at most maxKeys keys however many people call", () => {
    const clock = manualClock();
    const counter = new RateCounter(1, 60_000, clock.now, 100);
    for (let i = 0; i < 1000; i += 1) counter.hit(`person ${i}`);
    expect((counter as unknown as { windows: Map<string, unknown> }).windows.size).toBeLessThanOrEqual(100);
    clock.advance(60_000);
    counter.hit("late");
    for (let i = 0; i < 100; i += 1) counter.hit(`later ${i}`);
    expect((counter as unknown as { windows: Map<string, unknown> }).windows.size).toBeLessThanOrEqual(100);
  });
});

describe("FailureBackoff", () => {
  const options = { freeFailures: 3, baseDelayMs: 1000, maxDelayMs: 8000, forgetAfterMs: 60_000 };

  it("hardening 8: free failures, then waits that double up to the cap; a success clears them", () => {
    const clock = manualClock();
    const backoff = new FailureBackoff({ ...options, now: clock.now });
    const fail = () => {
      const attempt = backoff.begin("k");
      if (attempt.allowed) backoff.end("k", "failure");
      return attempt;
    };
    for (let i = 0; i < 3; i += 1) expect(fail().allowed).toBe(true);
    const waits: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const refused = fail();
      expect(refused.allowed).toBe(false);
      waits.push(refused.retryAfterSeconds);
      clock.advance(refused.retryAfterSeconds * 1000);
      expect(fail().allowed).toBe(true);
    }
    expect(waits).toEqual([1, 2, 4, 8, 8, 8]);
    clock.advance(8000);
    expect(backoff.begin("k").allowed).toBe(true);
    backoff.end("k", "success");
    expect(backoff.begin("k").allowed).toBe(true);
    expect(backoff.begin("other").allowed).toBe(true);
  });

  it("hardening 8: attempts under way count, so parallel guesses can't pass the free ones", () => {
    const clock = manualClock();
    const backoff = new FailureBackoff({ ...options, now: clock.now });
    const started = Array.from({ length: 10 }, () => backoff.begin("k").allowed);
    expect(started).toEqual([true, true, true, false, false, false, false, false, false, false]);
    // Attempts never judged (aborted) give their place back.
    for (let i = 0; i < 3; i += 1) backoff.end("k", "aborted");
    expect(backoff.begin("k").allowed).toBe(true);
  });

  it("hardening 8: forgets a key after a quiet while", () => {
    const clock = manualClock();
    const backoff = new FailureBackoff({ ...options, now: clock.now });
    for (let i = 0; i < 3; i += 1) {
      backoff.begin("k");
      backoff.end("k", "failure");
    }
    expect(backoff.begin("k").allowed).toBe(false);
    clock.advance(60_001);
    expect(backoff.begin("k").allowed).toBe(true);
  });
});
