import { AttemptLimiter, type BackoffOptions, FailureBackoff, RateCounter } from "./attempt-limiter";

/**
 * The limits features count against (issue 16 item 1): in this process (memoryLimits, below) or in
 * Redis shared by every process (server/shared/redis-limits.ts). Asynchronous, because Redis is.
 * `name` keeps one limit's keys apart from another's.
 */

export interface LimitVerdict {
  allowed: boolean;
  retryAfterSeconds: number;
}

/** Counts attempts per key; an attempt that turned out not to count can be taken back. */
export interface WindowLimit {
  hit(key: string): Promise<LimitVerdict>;
  /** Takes back the latest attempt of a key (a sliding window; a fixed window ignores it). */
  undo(key: string): Promise<void>;
}

/** Growing delays after repeated failures of a key (attempt-limiter.ts FailureBackoff). */
export interface BackoffLimit {
  begin(key: string): Promise<LimitVerdict>;
  end(key: string, outcome: "failure" | "success" | "aborted"): Promise<void>;
}

export interface Limits {
  /** Where the counts live, for logs and /readyz: "process" or "redis". */
  readonly where: "process" | "redis";
  /** `limit` attempts in any `windowMs` (a sliding window: login and signup throttles). */
  sliding(name: string, limit: number, windowMs: number): WindowLimit;
  /** `limit` hits per window starting at a key's first hit (one counter per key: the like budget). */
  fixed(name: string, limit: number, windowMs: number): WindowLimit;
  backoff(name: string, options: Omit<BackoffOptions, "now" | "maxKeys">): BackoffLimit;
}

/** Limits counted in this process only (no REDIS_URL; tests; the fallback while Redis is away). */
export function memoryLimits(now?: () => number): Limits {
  return {
    where: "process",
    sliding(_name, limit, windowMs) {
      const limiter = new AttemptLimiter(limit, windowMs, now);
      return {
        hit: async (key) => limiter.hit(key),
        undo: async (key) => limiter.undo(key),
      };
    },
    fixed(_name, limit, windowMs) {
      const counter = new RateCounter(limit, windowMs, now);
      return {
        hit: async (key) => counter.hit(key),
        undo: async () => {},
      };
    },
    backoff(_name, options) {
      const backoff = new FailureBackoff({ ...options, now });
      return {
        begin: async (key) => backoff.begin(key),
        end: async (key, outcome) => backoff.end(key, outcome),
      };
    },
  };
}
