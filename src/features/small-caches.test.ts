import { describe, expect, it, vi } from "vitest";
import { ChangeFeed } from "../server/page-cache/change-feed";
import { EVERYTHING_TAG, LISTS_TAG, SHOWCASE_TAG, VIDEOS_TAG } from "./content-changes";
import {
  cachedByKey,
  cachedUntilChange,
  RELOAD_GAP_FACTOR,
  refreshedOnChange,
  SMALL_CACHE_TTL_MS,
  ValueCache,
} from "./small-caches";

/** A load that answers when told to, counting its calls. */
function controlledLoad() {
  const pending: ((value: number) => void)[] = [];
  let calls = 0;
  return {
    load: () =>
      new Promise<number>((resolve) => {
        calls += 1;
        pending.push(resolve);
      }),
    /** Answers the oldest load still waiting, or the newest. */
    answer: (value: number, which: "oldest" | "newest" = "oldest") =>
      (which === "oldest" ? pending.shift() : pending.pop())?.(value),
    get calls() {
      return calls;
    },
  };
}

describe("issue 11: small caches", () => {
  it("keeps a value for the TTL, then loads again", async () => {
    let now = 1_000;
    let loads = 0;
    const cache = new ValueCache(
      async () => ++loads,
      SMALL_CACHE_TTL_MS,
      () => now,
    );
    expect(await cache.get()).toBe(1);
    now += SMALL_CACHE_TTL_MS - 1;
    expect(await cache.get()).toBe(1);
    now += 1;
    expect(await cache.get()).toBe(2);
    expect(loads).toBe(2);
  });

  it("concurrent misses share one load", async () => {
    const source = controlledLoad();
    const cache = new ValueCache(source.load, SMALL_CACHE_TTL_MS);
    const answers = Promise.all([cache.get(), cache.get(), cache.get()]);
    source.answer(7);
    expect(await answers).toEqual([7, 7, 7]);
    expect(await cache.get()).toBe(7);
    expect(source.calls).toBe(1);
  });

  it("a drop during a load: the load's answer is not kept, the next asker loads again", async () => {
    const source = controlledLoad();
    const cache = new ValueCache(source.load, SMALL_CACHE_TTL_MS);
    const early = cache.get();
    cache.drop();
    const late = cache.get();
    expect(source.calls).toBe(2);
    source.answer(2, "newest"); // read after the write
    source.answer(1, "oldest"); // read before it, answering last
    expect(await early).toBe(1);
    expect(await late).toBe(2);
    expect(await cache.get()).toBe(2);
    expect(source.calls).toBe(2);
  });

  it("a failed load is not kept: the next asker tries again", async () => {
    let fail = true;
    const cache = new ValueCache(async () => {
      if (fail) throw new Error("database unavailable");
      return "cards";
    }, SMALL_CACHE_TTL_MS);
    await expect(cache.get()).rejects.toThrow("database unavailable");
    fail = false;
    expect(await cache.get()).toBe("cards");
  });

  it("drops on its own tags and on *, not on others", async () => {
    const feed = new ChangeFeed();
    let loads = 0;
    const picks = cachedUntilChange(feed, [SHOWCASE_TAG], async () => ++loads);
    expect(await picks()).toBe(1);
    feed.publish([LISTS_TAG, VIDEOS_TAG, "presentation:abc"]);
    expect(await picks()).toBe(1);
    feed.publish([LISTS_TAG, SHOWCASE_TAG]);
    expect(await picks()).toBe(2);
    feed.publish([EVERYTHING_TAG]);
    expect(await picks()).toBe(3);
  });
});

describe("issue 11 values kept by key (the view page's presentation rows)", () => {
  it("keeps each key's value until a change names one of its tags, and keeps at most so many keys", async () => {
    const feed = new ChangeFeed();
    const loads: string[] = [];
    const get = cachedByKey(
      feed,
      2,
      async (key) => {
        loads.push(key);
        return `${key}@${loads.length}`;
      },
      (key, value) => (value ? [`presentation:${key}`, `user:owner-of-${key}`] : [`presentation:${key}`]),
    );
    expect(await get("a")).toBe("a@1");
    expect(await get("a")).toBe("a@1");
    expect(await get("b")).toBe("b@2");
    feed.publish(["presentation:b"]);
    expect(await get("a")).toBe("a@1");
    expect(await get("b")).toBe("b@3");
    feed.publish(["user:owner-of-a"]);
    expect(await get("a")).toBe("a@4");
    // A third key pushes out the least recently used (b).
    expect(await get("c")).toBe("c@5");
    expect(await get("a")).toBe("a@4");
    expect(await get("b")).toBe("b@6");
    feed.publish([EVERYTHING_TAG]);
    expect(await get("b")).toBe("b@7");
  });
});

describe("issue 15 item 4: a large value refreshed on change", () => {
  it("waits for the first load only; after a change or its age it serves the value before while one load runs", async () => {
    const feed = new ChangeFeed();
    const control = controlledLoad();
    let now = 0;
    const get = refreshedOnChange(feed, [LISTS_TAG], control.load, 60_000, () => now);
    const first = get();
    const second = get();
    control.answer(1);
    expect(await first).toBe(1);
    expect(await second).toBe(1);
    expect(control.calls).toBe(1);
    // Untouched by others' tags.
    feed.publish([VIDEOS_TAG]);
    expect(await get()).toBe(1);
    expect(control.calls).toBe(1);
    // A change: the value before is served at once, one load starts in the background.
    feed.publish([LISTS_TAG]);
    expect(await get()).toBe(1);
    expect(await get()).toBe(1);
    expect(control.calls).toBe(2);
    // A change heard while that load runs starts another once it ends.
    feed.publish([EVERYTHING_TAG]);
    control.answer(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await get()).toBe(2);
    expect(control.calls).toBe(3);
    control.answer(3);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await get()).toBe(3);
    // Its age: past maxAgeMs a load starts.
    now = 60_000;
    expect(await get()).toBe(3);
    expect(control.calls).toBe(4);
    control.answer(4);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await get()).toBe(4);
  });
});

describe("issue 15: the title index's reloads are spaced by their cost", () => {
  it("starts the first load on preload, and a load after a change no sooner than RELOAD_GAP_FACTOR times the last load's duration", async () => {
    vi.useFakeTimers();
    try {
      const feed = new ChangeFeed();
      const control = controlledLoad();
      const get = refreshedOnChange(feed, [LISTS_TAG], control.load, 60_000);
      get.preload();
      get.preload();
      expect(control.calls).toBe(1);
      // The first load takes 100 ms.
      await vi.advanceTimersByTimeAsync(100);
      control.answer(1);
      expect(await get()).toBe(1);
      feed.publish([LISTS_TAG]);
      expect(await get()).toBe(1);
      expect(control.calls).toBe(1);
      await vi.advanceTimersByTimeAsync(100 * RELOAD_GAP_FACTOR - 1);
      expect(control.calls).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(control.calls).toBe(2);
      control.answer(2);
      await vi.advanceTimersByTimeAsync(0);
      expect(await get()).toBe(2);
      // That load took no time: the next change is followed at once.
      feed.publish([LISTS_TAG]);
      expect(await get()).toBe(2);
      expect(control.calls).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });
});
