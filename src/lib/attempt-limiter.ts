/**
 * In-memory throttles (login, signup, reports, likes). Per process: behind several processes
 * each counts its own share, which still bounds guessing and flooding. Every one of them holds
 * at most `maxKeys` keys: past that, stale keys go first, then the least recently used (which
 * get a fresh start — a flood of new keys can't make the process run out of memory).
 *
 * The clock is read at each call (`Date.now()` unless one is given), so tests can move it.
 */

/** How many keys a throttle keeps before it forgets the least recently used. */
export const MAX_THROTTLE_KEYS = 100_000;

const systemClock = () => Date.now();

/** Drops the oldest-used keys of a Map kept in use order until it is back under 90 % of `max`. */
function evictOldest<K, V>(map: Map<K, V>, max: number): void {
  const target = Math.floor(max * 0.9);
  for (const key of map.keys()) {
    if (map.size <= target) return;
    map.delete(key);
  }
}

/** Counts attempts per key in a sliding window (login and signup throttling). */
export class AttemptLimiter {
  private readonly attempts = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = systemClock,
    private readonly maxKeys = MAX_THROTTLE_KEYS,
  ) {}

  /** Records an attempt; says whether it is allowed and, if not, how long to wait. */
  hit(key: string): { allowed: boolean; retryAfterSeconds: number } {
    const now = this.now();
    const recent = this.recent(key, now);
    // Re-inserted, so the Map's order is the order of use (eviction takes the oldest first).
    this.attempts.delete(key);
    this.attempts.set(key, recent);
    if (recent.length >= this.limit) return { allowed: false, retryAfterSeconds: this.waitFor(recent, now) };
    recent.push(now);
    if (this.attempts.size > this.maxKeys) this.prune(now);
    return { allowed: true, retryAfterSeconds: 0 };
  }

  /** Whether a key is over its limit right now, without counting an attempt. */
  blocked(key: string): { blocked: boolean; retryAfterSeconds: number } {
    const now = this.now();
    const recent = this.recent(key, now);
    if (recent.length < this.limit) return { blocked: false, retryAfterSeconds: 0 };
    return { blocked: true, retryAfterSeconds: this.waitFor(recent, now) };
  }

  reset(key: string): void {
    this.attempts.delete(key);
  }

  private recent(key: string, now: number): number[] {
    return (this.attempts.get(key) ?? []).filter((at) => at > now - this.windowMs);
  }

  private waitFor(recent: number[], now: number): number {
    const oldest = recent[0] ?? now;
    return Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
  }

  private prune(now: number): void {
    for (const [key, times] of this.attempts) {
      if (times.every((at) => at <= now - this.windowMs)) this.attempts.delete(key);
    }
    if (this.attempts.size > this.maxKeys) evictOldest(this.attempts, this.maxKeys);
  }
}

/**
 * A fixed-window counter per key: `limit` hits in each window, the window starting at a key's
 * first hit. One number pair per key, so it suits hot paths (the like API's budget per person).
 */
export class RateCounter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = systemClock,
    private readonly maxKeys = MAX_THROTTLE_KEYS,
  ) {}

  /** Counts a hit; says whether it is within the budget and, if not, how long until the next window. */
  hit(key: string): { allowed: boolean; retryAfterSeconds: number } {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      this.windows.delete(key);
      window = { start: now, count: 0 };
      this.windows.set(key, window);
      if (this.windows.size > this.maxKeys) this.prune(now);
    }
    if (window.count >= this.limit) {
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000)) };
    }
    window.count += 1;
    return { allowed: true, retryAfterSeconds: 0 };
  }

  private prune(now: number): void {
    // Keys are in the order their windows started: the expired ones are at the front.
    for (const [key, window] of this.windows) {
      if (now - window.start < this.windowMs) break;
      this.windows.delete(key);
    }
    if (this.windows.size > this.maxKeys) evictOldest(this.windows, this.maxKeys);
  }
}
