import { describe, expect, it } from "vitest";
import { EVERYTHING_TAG } from "../../features/content-changes";
import { type CachedPage, PageStore } from "./store";

function page(tags: string[], size = 1000, storedAt = 0): CachedPage {
  return {
    status: 200,
    headers: { "content-type": "text/html" },
    identity: Buffer.alloc(size),
    br: Buffer.alloc(Math.floor(size / 10)),
    gzip: Buffer.alloc(Math.floor(size / 8)),
    etag: 'W/"x"',
    tags,
    storedAt,
    wire: { br: {}, gzip: {}, identity: {} },
    hits: 0,
    best: false,
  };
}

describe("issue 11 page store", () => {
  it("serves fresh, then stale while one refresh runs, then forgets (time to live and stale-while-revalidate)", () => {
    let now = 0;
    const store = new PageStore({ maxBytes: 1_000_000, freshMs: 100, staleMs: 300, now: () => now });
    store.set("a", page(["lists"], 1000, 0), store.sequence);
    expect(store.get("a")?.state).toBe("fresh");
    now = 150;
    expect(store.get("a")?.state).toBe("stale");
    now = 300;
    expect(store.get("a")).toBeNull();
    expect(store.size).toBe(0);
    expect(store.bytes).toBe(0);
  });

  it("is bounded by bytes: the least recently used pages go first", () => {
    const store = new PageStore({ maxBytes: 21_000, freshMs: 1e9, staleMs: 1e9, now: () => 0 });
    for (const key of ["a", "b", "c", "d", "e", "f"]) store.set(key, page([], 1500), store.sequence);
    // Each entry is about 2.5 KB with its encodings and overhead: all six fit in 21 KB.
    expect(store.size).toBe(6);
    store.get("a"); // a is now the most recently used
    for (const key of ["g", "h", "i"]) store.set(key, page([], 1500), store.sequence);
    expect(store.bytes).toBeLessThanOrEqual(21_000);
    expect(store.get("a")).not.toBeNull();
    expect(store.get("b")).toBeNull();
    expect(store.get("i")).not.toBeNull();
  });

  it("refuses a page bigger than an eighth of the cache", () => {
    const store = new PageStore({ maxBytes: 21_000, freshMs: 1e9, staleMs: 1e9, now: () => 0 });
    expect(store.set("big", page([], 5000), store.sequence)).toBe(false);
    expect(store.size).toBe(0);
  });

  it("drops the pages of an invalidated tag and keeps the others", () => {
    const store = new PageStore({ maxBytes: 1_000_000, freshMs: 1e9, staleMs: 1e9, now: () => 0 });
    store.set("view-a", page(["presentation:a", "showcase"]), store.sequence);
    store.set("view-b", page(["presentation:b", "showcase"]), store.sequence);
    store.set("home", page(["lists"]), store.sequence);
    expect(store.invalidate(["presentation:a"])).toBe(1);
    expect(store.get("view-a")).toBeNull();
    expect(store.get("view-b")).not.toBeNull();
    expect(store.invalidate(["showcase"])).toBe(1);
    expect(store.get("home")).not.toBeNull();
    expect(store.invalidate([EVERYTHING_TAG])).toBe(1);
    expect(store.size).toBe(0);
    expect(store.bytes).toBe(0);
  });

  it("never stores a render that started before an invalidation of one of its tags", () => {
    const store = new PageStore({ maxBytes: 1_000_000, freshMs: 1e9, staleMs: 1e9, now: () => 0 });
    const started = store.sequence;
    store.invalidate(["presentation:a"]);
    expect(store.set("view-a", page(["presentation:a"]), started)).toBe(false);
    // Another page's render from the same moment is fine, and so is a render started afterwards.
    expect(store.set("view-b", page(["presentation:b"]), started)).toBe(true);
    expect(store.set("view-a", page(["presentation:a"]), store.sequence)).toBe(true);
    const beforeClear = store.sequence;
    store.invalidate([EVERYTHING_TAG]);
    expect(store.set("home", page(["lists"]), beforeClear)).toBe(false);
    expect(store.set("home", page(["lists"]), store.sequence)).toBe(true);
  });
});
