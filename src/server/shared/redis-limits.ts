import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import { type BackoffLimit, type Limits, type LimitVerdict, memoryLimits, type WindowLimit } from "../../lib/limits";
import type { SharedRedis } from "./redis";

/**
 * Limits counted in Redis, shared by every process (issue 16 item 1): the same rules as the
 * in-process ones in lib/attempt-limiter.ts, each step one Lua script (atomic in Redis), with
 * Redis's clock so processes with drifting clocks agree. While Redis is away a limit counts in
 * this process instead (the in-process twin each one keeps), and a warning is logged: login and
 * signup keep being throttled, per process, rather than open to guessing or closed to everyone.
 */

/** A login attempt still "in flight" after this long was lost (its process stopped): it no longer counts. */
export const BACKOFF_IN_FLIGHT_STALE_MS = 60_000;

/** Redis's clock in ms, inside a script. */
const NOW = `local t = redis.call('TIME'); local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** A sorted set of attempt times: `limit` in any `window` ms. Returns {allowed, ms to wait}. */
const SLIDING_HIT = `${NOW}
local window = tonumber(ARGV[1]); local limit = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, tonumber(oldest[2]) + window - now}
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window)
return {1, 0}`;

/** Takes back the latest attempt. */
const SLIDING_UNDO = `redis.call('ZPOPMAX', KEYS[1]) return 1`;

/** One counter per window starting at the first hit. Returns {allowed, ms to wait}. */
const FIXED_HIT = `local window = tonumber(ARGV[1]); local limit = tonumber(ARGV[2])
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count >= limit then
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl < 0 then redis.call('PEXPIRE', KEYS[1], window); ttl = window end
  return {0, ttl}
end
if redis.call('INCR', KEYS[1]) == 1 then redis.call('PEXPIRE', KEYS[1], window) end
return {1, 0}`;

/** FailureBackoff.delayMs in Lua. */
const DELAY = `local function delay(failures)
  local beyond = failures - free
  if beyond < 0 then return 0 end
  return math.min(maxDelay, base * 2 ^ beyond)
end`;

/** FailureBackoff.begin: a hash of failures, attempts in flight, the last failure and the last begin. */
const BACKOFF_BEGIN = `${NOW}
local free = tonumber(ARGV[1]); local base = tonumber(ARGV[2]); local maxDelay = tonumber(ARGV[3])
local forget = tonumber(ARGV[4]); local stale = tonumber(ARGV[5])
${DELAY}
local h = redis.call('HMGET', KEYS[1], 'failures', 'inFlight', 'last', 'began')
local failures = tonumber(h[1]) or 0; local inFlight = tonumber(h[2]) or 0
local last = tonumber(h[3]) or 0; local began = tonumber(h[4]) or 0
if inFlight > 0 and now - began > stale then inFlight = 0 end
if inFlight == 0 and now - last > forget then failures = 0; last = 0 end
local pending = failures + inFlight
if pending >= free then
  local readyAt
  if inFlight > 0 then readyAt = now + delay(pending) else readyAt = last + delay(failures) end
  if now < readyAt then return {0, readyAt - now} end
end
redis.call('HSET', KEYS[1], 'failures', failures, 'inFlight', inFlight + 1, 'last', last, 'began', now)
redis.call('PEXPIRE', KEYS[1], forget + maxDelay)
return {1, 0}`;

/** FailureBackoff.end. ARGV[1]: failure, success or aborted. */
const BACKOFF_END = `${NOW}
local outcome = ARGV[1]; local ttl = tonumber(ARGV[2])
if outcome == 'success' then redis.call('DEL', KEYS[1]) return 1 end
local h = redis.call('HMGET', KEYS[1], 'failures', 'inFlight')
local failures = tonumber(h[1]) or 0; local inFlight = math.max(0, (tonumber(h[2]) or 0) - 1)
if outcome == 'failure' then
  redis.call('HSET', KEYS[1], 'failures', failures + 1, 'inFlight', inFlight, 'last', now)
  redis.call('PEXPIRE', KEYS[1], ttl)
elseif failures == 0 and inFlight == 0 then
  redis.call('DEL', KEYS[1])
else
  redis.call('HSET', KEYS[1], 'inFlight', inFlight)
end
return 1`;

interface LimitCommands {
  podiumSlidingHit(key: string, windowMs: number, limit: number, member: string): Promise<[number, number]>;
  podiumSlidingUndo(key: string): Promise<number>;
  podiumFixedHit(key: string, windowMs: number, limit: number): Promise<[number, number]>;
  podiumBackoffBegin(
    key: string,
    free: number,
    base: number,
    maxDelay: number,
    forget: number,
    stale: number,
  ): Promise<[number, number]>;
  podiumBackoffEnd(key: string, outcome: string, ttl: number): Promise<number>;
}

function defineCommands(client: Redis): LimitCommands {
  const scripts: [keyof LimitCommands, string][] = [
    ["podiumSlidingHit", SLIDING_HIT],
    ["podiumSlidingUndo", SLIDING_UNDO],
    ["podiumFixedHit", FIXED_HIT],
    ["podiumBackoffBegin", BACKOFF_BEGIN],
    ["podiumBackoffEnd", BACKOFF_END],
  ];
  for (const [name, lua] of scripts) {
    if (!(name in client)) client.defineCommand(name, { numberOfKeys: 1, lua });
  }
  return client as unknown as LimitCommands;
}

const verdict = ([allowed, waitMs]: [number, number]): LimitVerdict => ({
  allowed: allowed === 1,
  retryAfterSeconds: allowed === 1 ? 0 : Math.max(1, Math.ceil(waitMs / 1000)),
});

/** Limits in Redis (keys `limit:<name>:<key>` under PODIUM_REDIS_PREFIX), each with an in-process fallback. */
export function redisLimits(redis: SharedRedis): Limits {
  const commands = defineCommands(redis.client);
  const local = memoryLimits();
  /** Runs the Redis step; while Redis is away, the in-process one (and says so, now and then). */
  const shared = async <T>(name: string, inRedis: () => Promise<T>, inProcess: () => Promise<T>): Promise<T> => {
    if (!redis.connected()) {
      redis.warn(`Redis unreachable; the ${name} limit counts in this process until it is back`);
      return inProcess();
    }
    try {
      return await inRedis();
    } catch (error) {
      redis.warn(`Redis failed (${(error as Error).message}); the ${name} limit counts in this process`);
      return inProcess();
    }
  };
  const keyOf = (name: string, key: string) => `limit:${name}:${key}`;

  return {
    where: "redis",
    sliding(name, limit, windowMs): WindowLimit {
      const fallback = local.sliding(name, limit, windowMs);
      return {
        hit: (key) =>
          shared(
            name,
            async () =>
              verdict(
                await commands.podiumSlidingHit(
                  keyOf(name, key),
                  windowMs,
                  limit,
                  randomBytes(9).toString("base64url"),
                ),
              ),
            () => fallback.hit(key),
          ),
        undo: (key) =>
          shared(
            name,
            async () => {
              await commands.podiumSlidingUndo(keyOf(name, key));
            },
            () => fallback.undo(key),
          ),
      };
    },
    fixed(name, limit, windowMs): WindowLimit {
      const fallback = local.fixed(name, limit, windowMs);
      return {
        hit: (key) =>
          shared(
            name,
            async () => verdict(await commands.podiumFixedHit(keyOf(name, key), windowMs, limit)),
            () => fallback.hit(key),
          ),
        undo: async () => {},
      };
    },
    backoff(name, options): BackoffLimit {
      const fallback = local.backoff(name, options);
      const ttl = options.forgetAfterMs + options.maxDelayMs;
      return {
        begin: (key) =>
          shared(
            name,
            async () =>
              verdict(
                await commands.podiumBackoffBegin(
                  keyOf(name, key),
                  options.freeFailures,
                  options.baseDelayMs,
                  options.maxDelayMs,
                  options.forgetAfterMs,
                  BACKOFF_IN_FLIGHT_STALE_MS,
                ),
              ),
            () => fallback.begin(key),
          ),
        end: (key, outcome) =>
          shared(
            name,
            async () => {
              await commands.podiumBackoffEnd(keyOf(name, key), outcome, ttl);
            },
            () => fallback.end(key, outcome),
          ),
      };
    },
  };
}
