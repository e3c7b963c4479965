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

/** A budget of `limit` hits per key in `windowMs`, read on the clock `now`, over at most `maxKeys` keys. */
abstract class KeyedBudget {
  constructor(
    protected readonly limit: number,
    protected readonly windowMs: number,
    protected readonly now: () => number = systemClock,
    protected readonly maxKeys = MAX_THROTTLE_KEYS,
  ) {}
}

/** Counts attempts per key in a sliding window (login and signup throttling). */
export class AttemptLimiter extends KeyedBudget {
  private readonly attempts = new Map<string, number[]>();

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

  /** Takes back the latest attempt of a key (one that turned out not to count, e.g. a successful login). */
  undo(key: string): void {
    const times = this.attempts.get(key);
    times?.pop();
    if (times?.length === 0) this.attempts.delete(key);
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
export class RateCounter extends KeyedBudget {
  private readonly windows = new Map<string, { start: number; count: number }>();

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

export interface BackoffOptions {
  /** Failures allowed without waiting. */
  freeFailures: number;
  /** The wait after the first failure beyond the free ones; each further failure doubles it. */
  baseDelayMs: number;
  /** The longest wait. */
  maxDelayMs: number;
  /** A key with no failure for this long starts afresh. */
  forgetAfterMs: number;
  now?: () => number;
  maxKeys?: number;
}

/**
 * Growing delays after repeated failures of one key (login: an account from one client). After
 * `freeFailures` failures the next attempt waits `baseDelayMs` from the last failure, then twice
 * as long after each further failure, up to `maxDelayMs`: a person who mistypes is barely
 * slowed, a guesser soon gets one try per `maxDelayMs`, and nobody is ever locked out for good.
 * Attempts still under way count as failures until they end, so a burst of parallel guesses
 * can't slip past the count.
 */
export class FailureBackoff {
  private readonly entries = new Map<string, { failures: number; inFlight: number; lastFailure: number }>();
  private readonly now: () => number;
  private readonly maxKeys: number;

  constructor(private readonly options: BackoffOptions) {
    this.now = options.now ?? systemClock;
    this.maxKeys = options.maxKeys ?? MAX_THROTTLE_KEYS;
  }

  /** The wait after `failures` failures (0 while they are free). */
  delayMs(failures: number): number {
    const beyond = failures - this.options.freeFailures;
    return beyond < 0 ? 0 : Math.min(this.options.maxDelayMs, this.options.baseDelayMs * 2 ** beyond);
  }

  /** Starts an attempt if the key may try now; an allowed attempt must be ended with `end()`. */
  begin(key: string): { allowed: boolean; retryAfterSeconds: number } {
    const now = this.now();
    let entry = this.entries.get(key);
    if (entry && entry.inFlight === 0 && now - entry.lastFailure > this.options.forgetAfterMs) entry = undefined;
    entry ??= { failures: 0, inFlight: 0, lastFailure: 0 };
    const pending = entry.failures + entry.inFlight;
    if (pending >= this.options.freeFailures) {
      const delay = this.delayMs(pending);
      const readyAt = entry.inFlight > 0 ? now + delay : entry.lastFailure + this.delayMs(entry.failures);
      if (now < readyAt) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((readyAt - now) / 1000)) };
    }
    entry.inFlight += 1;
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.maxKeys) this.prune(now);
    return { allowed: true, retryAfterSeconds: 0 };
  }

  /** Ends an attempt: a failure counts, a success clears the key, "aborted" (never judged) counts nothing. */
  end(key: string, outcome: "failure" | "success" | "aborted"): void {
    const entry = this.entries.get(key);
    if (outcome === "success") {
      this.entries.delete(key);
      return;
    }
    if (!entry) {
      if (outcome === "failure") this.entries.set(key, { failures: 1, inFlight: 0, lastFailure: this.now() });
      return;
    }
    entry.inFlight = Math.max(0, entry.inFlight - 1);
    if (outcome === "failure") {
      entry.failures += 1;
      entry.lastFailure = this.now();
    } else if (entry.failures === 0 && entry.inFlight === 0) {
      this.entries.delete(key);
    }
  }

  private prune(now: number): void {
    for (const [key, entry] of this.entries) {
      if (entry.inFlight === 0 && now - entry.lastFailure > this.options.forgetAfterMs) this.entries.delete(key);
    }
    if (this.entries.size > this.maxKeys) evictOldest(this.entries, this.maxKeys);
  }
}
