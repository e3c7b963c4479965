import { type ContentChanges, touches } from "./content-changes";

/**
 * The small in-process caches of issue 11 ("a cheap miss"): the header's count, the sidebar's
 * cards and the staff-pick pool are read once and kept until a write touches them, instead of
 * being queried on every render. Each belongs to one app (made from its FeatureContext), never to
 * the module, so two apps in one process (tests) don't share answers.
 */

/** Issue 11: a backstop in case a change is never heard (a trigger that doesn't tag it): a minute at most. */
export const SMALL_CACHE_TTL_MS = 60_000;

/**
 * One loaded value, kept for ttlMs or until dropped. Concurrent misses share one load. A drop
 * while a load is on its way means the load may have read what the write replaced: its answer
 * goes to those who asked for it but is not kept, and the next asker loads again.
 */
export class ValueCache<Value> {
  #kept: { value: Value; loadedAt: number } | null = null;
  #loading: Promise<Value> | null = null;
  /** Moves on every drop: a load started before it must not keep its answer. */
  #generation = 0;

  constructor(
    private readonly load: () => Promise<Value>,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(): Promise<Value> {
    const kept = this.#kept;
    if (kept && this.now() - kept.loadedAt < this.ttlMs) return Promise.resolve(kept.value);
    if (this.#loading) return this.#loading;
    const generation = this.#generation;
    // Counted from the start of the load: the value is at least this old.
    const startedAt = this.now();
    const loading = this.load()
      .then((value) => {
        if (generation === this.#generation) this.#kept = { value, loadedAt: startedAt };
        return value;
      })
      .finally(() => {
        if (this.#loading === loading) this.#loading = null;
      });
    this.#loading = loading;
    return loading;
  }

  drop(): void {
    this.#generation += 1;
    this.#kept = null;
    this.#loading = null;
  }
}

/**
 * A loader whose answer is kept until a change touches one of `tags` (or `*`), a minute at most.
 * The subscription lives as long as the app's change feed.
 */
export function cachedUntilChange<Value>(
  changes: ContentChanges,
  tags: readonly string[],
  load: () => Promise<Value>,
): () => Promise<Value> {
  const cache = new ValueCache(load, SMALL_CACHE_TTL_MS);
  changes.subscribe((changed) => {
    if (tags.some((tag) => touches(changed, tag))) cache.drop();
  });
  return () => cache.get();
}

/**
 * Values by key, each kept until a change touches one of the tags its value names (or `*`), a
 * minute at most, the least recently used going first past `maxEntries`. A value whose load was
 * still on its way when one of its tags changed goes to its askers but is not kept.
 */
export function cachedByKey<Value>(
  changes: ContentChanges,
  maxEntries: number,
  load: (key: string) => Promise<Value>,
  /** What a key's value shows; called with null before the value is known. */
  tagsOf: (key: string, value: Value | null) => readonly string[],
): (key: string) => Promise<Value> {
  const entries = new Map<string, { cache: ValueCache<Value>; tags: readonly string[] }>();
  changes.subscribe((changed) => {
    for (const [key, entry] of entries) {
      if (entry.tags.some((tag) => touches(changed, tag))) {
        entry.cache.drop();
        entries.delete(key);
      }
    }
  });
  return (key) => {
    let entry = entries.get(key);
    if (entry) entries.delete(key);
    else {
      const fresh: { cache: ValueCache<Value>; tags: readonly string[] } = {
        tags: tagsOf(key, null),
        cache: new ValueCache(async () => {
          const value = await load(key);
          fresh.tags = tagsOf(key, value);
          return value;
        }, SMALL_CACHE_TTL_MS),
      };
      entry = fresh;
    }
    // Most recently used last.
    entries.set(key, entry);
    for (const oldest of entries.keys()) {
      if (entries.size <= maxEntries) break;
      entries.delete(oldest);
    }
    return entry.cache.get();
  };
}

/**
 * After a load that took d ms, the next one starts no sooner than RELOAD_GAP_FACTOR × d ms after
 * it ended: loads take at most a fifth of a core however often changes come (at 100,000 titles
 * a load takes about a second, so a site publishing every second would otherwise reload
 * without end), and a small index (a tenth of a second) still follows a change within half a second.
 */
export const RELOAD_GAP_FACTOR = 4;

/**
 * A large value that is slow to load (issue 15's suggestion index: 100,000 titles, half a second):
 * loaded when first asked, then, after a change touches one of `tags` (or `*`) or `maxAgeMs` has
 * passed, loaded again in the background while askers keep getting the one before. Only the first
 * load is waited for; one load runs at a time, and a change heard during a load starts another
 * after it (and after RELOAD_GAP_FACTOR times the load's duration), so what a change did is
 * served once the load that follows it ends. `preload()` starts the first load without waiting.
 */
export function refreshedOnChange<Value>(
  changes: ContentChanges,
  tags: readonly string[],
  load: () => Promise<Value>,
  maxAgeMs: number,
  now: () => number = Date.now,
): (() => Promise<Value>) & { preload(): void } {
  let kept: { value: Value; loadedAt: number } | null = null;
  let loading: Promise<Value> | null = null;
  let stale = false;
  /** When the next load may start (set by the duration of the one before). */
  let notBefore = 0;
  let waiting: NodeJS.Timeout | null = null;
  const start = (): Promise<Value> => {
    stale = false;
    const startedAt = now();
    const current = load().then(
      (value) => {
        kept = { value, loadedAt: startedAt };
        return value;
      },
      (error: unknown) => {
        // The one before stays; the next asker tries again.
        stale = true;
        throw error;
      },
    );
    loading = current;
    void current
      .finally(() => {
        const ended = now();
        notBefore = ended + (ended - startedAt) * RELOAD_GAP_FACTOR;
        if (loading === current) loading = null;
        if (stale && kept) startInTime();
      })
      .catch(() => {});
    return current;
  };
  /** A load in the background, once the gap after the last one has passed. */
  const startInTime = () => {
    if (loading || waiting) return;
    const wait = notBefore - now();
    if (wait <= 0) {
      void start().catch(() => {});
      return;
    }
    waiting = setTimeout(() => {
      waiting = null;
      if (!loading) void start().catch(() => {});
    }, wait);
    waiting.unref();
  };
  changes.subscribe((changed) => {
    if (tags.some((tag) => touches(changed, tag))) stale = true;
  });
  const get = () => {
    if (!kept) return loading ?? start();
    if (stale || now() - kept.loadedAt >= maxAgeMs) startInTime();
    return Promise.resolve(kept.value);
  };
  return Object.assign(get, {
    preload() {
      if (!kept && !loading) void start().catch(() => {});
    },
  });
}
