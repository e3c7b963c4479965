/**
 * Counts attempts per key in a sliding window (login and signup throttling). In memory, per
 * process: behind several processes each counts its own share, which still bounds guessing.
 */
export class AttemptLimiter {
  private readonly attempts = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records an attempt; says whether it is allowed and, if not, how long to wait. */
  hit(key: string): { allowed: boolean; retryAfterSeconds: number } {
    const now = this.now();
    const recent = (this.attempts.get(key) ?? []).filter((at) => at > now - this.windowMs);
    if (recent.length >= this.limit) {
      this.attempts.set(key, recent);
      const oldest = recent[0] ?? now;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000)) };
    }
    recent.push(now);
    this.attempts.set(key, recent);
    if (this.attempts.size > 100_000) this.prune(now);
    return { allowed: true, retryAfterSeconds: 0 };
  }

  /** Whether a key is over its limit right now, without counting an attempt. */
  blocked(key: string): { blocked: boolean; retryAfterSeconds: number } {
    const now = this.now();
    const recent = (this.attempts.get(key) ?? []).filter((at) => at > now - this.windowMs);
    if (recent.length < this.limit) return { blocked: false, retryAfterSeconds: 0 };
    const oldest = recent[0] ?? now;
    return { blocked: true, retryAfterSeconds: Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000)) };
  }

  reset(key: string): void {
    this.attempts.delete(key);
  }

  private prune(now: number): void {
    for (const [key, times] of this.attempts) {
      if (times.every((at) => at <= now - this.windowMs)) this.attempts.delete(key);
    }
  }
}
