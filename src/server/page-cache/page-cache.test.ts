import { brotliCompressSync, brotliDecompressSync, gunzipSync, constants as zlib } from "node:zlib";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type Database, openDatabase } from "../../db/client";
import { testDatabaseTargets } from "../../db/testing";
import { importMarkdown } from "../../document/markdown";
import { insertPresentationIfAbsent } from "../../features/presentation/repository";
import { stableOid } from "../../lib/ids";
import { buildApp } from "../app";
import { insertTestUser, TEST_CONFIG, TestAgent } from "../testing";
import { BROTLI_BEST_AFTER_HITS, PAGE_CACHE_FRESH_MS } from "./plugin";

/** Background work (the best brotli, a refresh) on a busy machine: wait for it, not for a quick machine's second. */
const WAIT_FOR_BACKGROUND = { timeout: 30_000, interval: 20 };

const CACHE = { pageCacheMaxBytes: 8 * 1024 * 1024 };
const BROWSER = {
  accept: "text/html,application/xhtml+xml",
  "accept-encoding": "gzip, deflate, br",
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
};

function bodyOf(response: LightMyRequestResponse): string {
  const raw = response.rawPayload;
  const encoding = response.headers["content-encoding"];
  if (encoding === "br") return brotliDecompressSync(raw).toString("utf8");
  if (encoding === "gzip") return gunzipSync(raw).toString("utf8");
  return raw.toString("utf8");
}

async function addDeck(db: Database, ownerId: string, oid: string, title: string, privacy = "public") {
  await insertPresentationIfAbsent(db, {
    oid,
    ownerId,
    title,
    descriptionHtml: "",
    privacy: privacy as "public",
    schemaVersion: "0",
    tags: ["cache"],
    document: importMarkdown(`# ${title}\n---\n# Second slide`, "0"),
    viewCount: 5,
    lastModified: new Date("2026-11-01T00:00:00Z"),
  });
}

describe.each(testDatabaseTargets())("issue 11 page cache on $name", (target) => {
  let app: FastifyInstance;
  let db: Database;
  let drop: () => Promise<void>;
  let ownerId: string;
  const deck = stableOid("cache:deck");

  beforeAll(async () => {
    ({ db, drop } = await target.create());
    app = await buildApp({ ...TEST_CONFIG, ...CACHE }, db);
    const owner = await insertTestUser(db, {
      oid: stableOid("cache:owner"),
      email: "owner@podium.test",
      username: "cache.owner",
      firstName: "Ada",
      lastName: "Cache",
    });
    ownerId = owner.id;
    await addDeck(db, ownerId, deck, "Sourdough at scale");
    // The setup's own changes are heard before the first request (PostgreSQL delivers them a moment later).
    await app.changes.sync();
  });
  afterAll(async () => {
    await app.close();
    await drop();
  });
  afterEach(() => vi.useRealTimers());

  const get = (url: string, headers: Record<string, string> = {}) =>
    app.inject({ method: "GET", url, headers: { ...BROWSER, ...headers } });

  it("serves the second anonymous request from memory, byte for byte, in the encoding asked for", async () => {
    const first = await get("/explore/");
    expect(first.statusCode).toBe(200);
    expect(first.headers["podium-cache"]).toBe("miss");
    const second = await get("/explore/");
    expect(second.headers["podium-cache"]).toBe("hit");
    expect(second.headers["content-encoding"]).toBe("br");
    expect(bodyOf(second)).toBe(bodyOf(first));
    const gzip = await get("/explore/", { "accept-encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(bodyOf(gzip)).toBe(bodyOf(first));
    const plain = await get("/explore/", { "accept-encoding": "br;q=0, identity" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(bodyOf(first));
    // The replayed headers are the first answer's: security headers, caching rules, Vary.
    for (const name of ["content-security-policy", "x-content-type-options", "cache-control", "content-type"]) {
      expect(second.headers[name]).toBe(first.headers[name]);
    }
    expect(second.headers.vary).toMatch(/Accept-Encoding/);
  });

  it("answers a hit from Node's HTTP server before Fastify, with the same bytes and headers", async () => {
    const { db: ownDb, drop: dropOwn } = await target.create();
    const served = await buildApp({ ...TEST_CONFIG, ...CACHE }, ownDb);
    try {
      const address = await served.listen({ port: 0, host: "127.0.0.1" });
      const fetchHome = (headers: Record<string, string> = {}) =>
        fetch(`${address}/explore/`, { headers: { ...BROWSER, ...headers } });
      const miss = await fetchHome();
      expect(miss.headers.get("podium-cache")).toBe("miss");
      const missText = await miss.text();
      const hit = await fetchHome();
      expect(hit.headers.get("podium-cache")).toBe("hit");
      expect(hit.headers.get("content-encoding")).toBe("br");
      expect(await hit.text()).toBe(missText);
      for (const name of ["content-security-policy", "x-frame-options", "cache-control", "vary", "etag"]) {
        expect(hit.headers.get(name)).toBe(miss.headers.get(name));
      }
      // A hit isn't counted by the rate limit, so it doesn't carry one address's counters.
      expect(hit.headers.get("x-ratelimit-remaining")).toBeNull();
      const notModified = await fetchHome({ "if-none-match": String(miss.headers.get("etag")) });
      expect(notModified.status).toBe(304);
      const signedIn = await fetchHome({ cookie: "podium_session=not-a-real-session" });
      expect(signedIn.headers.get("podium-cache")).toBeNull();
    } finally {
      await served.close();
      await dropOwn();
    }
  });

  it("swaps in the best brotli once a page is asked for often, without making anyone wait for it", async () => {
    const url = `/p/${deck}/embed-check/`;
    const first = await get(url);
    const quick = first.rawPayload.length;
    const best = brotliCompressSync(Buffer.from(bodyOf(first)), {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT },
    }).length;
    expect(best).toBeLessThan(quick);
    // Quality 11 costs a core 40 ms for a search page: a page asked for once or twice keeps the quick one.
    for (let hit = 1; hit < BROTLI_BEST_AFTER_HITS; hit += 1) {
      const again = await get(url);
      expect(again.headers["podium-cache"]).toBe("hit");
      expect(again.rawPayload.length).toBe(quick);
    }
    await vi.waitFor(async () => {
      const later = await get(url);
      expect(later.headers["podium-cache"]).toBe("hit");
      expect(later.rawPayload.length).toBe(best);
      expect(Number(later.headers["content-length"])).toBe(best);
      expect(bodyOf(later)).toBe(bodyOf(first));
    }, WAIT_FOR_BACKGROUND);
  });

  it("keeps the compressed bodies (and the ETag) when a refresh renders the same bytes", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const url = `/p/${deck}/same-bytes/`;
    const start = Date.now();
    const first = await get(url);
    for (let hit = 0; hit < BROTLI_BEST_AFTER_HITS; hit += 1) await get(url);
    let best: Buffer = Buffer.alloc(0);
    await vi.waitFor(async () => {
      const later = await get(url);
      expect(later.rawPayload.length).toBeLessThan(first.rawPayload.length);
      best = later.rawPayload;
    }, WAIT_FOR_BACKGROUND);
    vi.setSystemTime(start + PAGE_CACHE_FRESH_MS + 100);
    expect((await get(url)).headers["podium-cache"]).toBe("stale");
    // The refresh rendered the same page: stored again, and its first hit has the best brotli it had.
    const fresh = await vi.waitFor(
      async () => {
        const answer = await get(url);
        expect(answer.headers["podium-cache"]).toBe("hit");
        return answer;
      },
      { timeout: 30_000 },
    );
    expect(fresh.headers.etag).toBe(first.headers.etag);
    expect(fresh.rawPayload.equals(best)).toBe(true);
  });

  it("answers 304 to a request that already has the page (ETag, If-None-Match)", async () => {
    const first = await get("/");
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/"/);
    const again = await get("/", { "if-none-match": etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    const other = await get("/", { "if-none-match": 'W/"something-else"' });
    expect(other.statusCode).toBe(200);
  });

  it("keys pages by language, device class and cookie choice", async () => {
    const english = await get(`/p/${deck}/`);
    const german = await get(`/p/${deck}/`, { cookie: "language=de" });
    expect(german.headers["podium-cache"]).toBe("miss");
    expect(bodyOf(german)).toContain('lang="de"');
    expect(bodyOf(english)).toContain('lang="en"');
    const phone = await get(`/p/${deck}/`, { "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Mobile/15E148" });
    expect(phone.headers["podium-cache"]).toBe("miss");
    expect(bodyOf(phone)).toContain('"isMobile":true');
    const chose = await get(`/p/${deck}/`, { cookie: "podium_cookie_consent=necessary" });
    expect(chose.headers["podium-cache"]).toBe("miss");
    expect((await get(`/p/${deck}/`, { cookie: "language=de" })).headers["podium-cache"]).toBe("hit");
  });

  it("never serves a cached page to someone signed in, and never caches what they get", async () => {
    await get("/explore/");
    const agent = new TestAgent(app);
    await agent.signUp(`reader-${target.name}@podium.test`);
    const signedIn = await agent.request({ method: "GET", url: "/explore/", headers: BROWSER });
    expect(signedIn.headers["podium-cache"]).toBeUndefined();
    expect(signedIn.headers["cache-control"]).toBe("private, no-store");
    expect(bodyOf(signedIn)).toContain('"isAuthenticated":true');
    expect(bodyOf(await get("/explore/"))).not.toContain('"isAuthenticated":true');
  });

  it("renders a page once for many visitors arriving together (single flight)", async () => {
    const { db: countedDb, drop: dropCounted } = await target.create();
    let searches = 0;
    const counting: Database = Object.assign(Object.create(countedDb) as Database, {
      query: <Row>(sql: string, params?: readonly unknown[]) => {
        // The search statement (explore/repository.ts), not the statistics' read of its common words.
        if (sql.includes("search_vector @@")) searches += 1;
        return countedDb.query<Row>(sql, params);
      },
    });
    // Every search a statement (the index in memory, once built, would answer without one): the
    // statements counted are the renders.
    const counted = await buildApp({ ...TEST_CONFIG, ...CACHE, searchIndex: "database" }, counting);
    try {
      const url = "/explore/search/?search=sourdough";
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => counted.inject({ method: "GET", url, headers: BROWSER })),
      );
      expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
      expect(searches).toBe(1);
      const how = answers.map((answer) => answer.headers["podium-cache"]);
      expect(how.filter((h) => h === "miss")).toHaveLength(1);
      expect(how.filter((h) => h === "shared")).toHaveLength(19);
      expect(new Set(answers.map(bodyOf)).size).toBe(1);
    } finally {
      await counted.close();
      await dropCounted();
    }
  }, 30_000);

  it("shows an edit on the very next request, and a presentation made private answers 404 at once", async () => {
    const agent = new TestAgent(app);
    await agent.signUp(`editor-${target.name}@podium.test`);
    const [me] = await db.query<{ id: string }>("select id from users where email = $1", [
      `editor-${target.name}@podium.test`,
    ]);
    const mine = stableOid(`cache:mine:${target.name}`);
    await addDeck(db, String(me?.id), mine, "Before the edit");
    await app.changes.sync();
    expect((await get(`/p/${mine}/`)).headers["podium-cache"]).toBe("miss");
    expect((await get(`/p/${mine}/`)).headers["podium-cache"]).toBe("hit");
    expect((await get(`/p/${mine}/document.json`)).statusCode).toBe(200);

    const save = (title: string, privacy: string) =>
      agent.postForm(`/dashboard/next/presentations/${mine}/details`, { title, description: "", tags: "", privacy });
    expect((await save("After the edit", "public")).statusCode).toBe(303);
    const edited = await get(`/p/${mine}/`);
    expect(edited.headers["podium-cache"]).toBe("miss");
    expect(bodyOf(edited)).toContain("After the edit");

    await get(`/p/${mine}/document.json`);
    expect((await get(`/p/${mine}/document.json`)).headers["podium-cache"]).toBe("hit");
    expect((await save("After the edit", "private")).statusCode).toBe(303);
    expect((await get(`/p/${mine}/`)).statusCode).toBe(404);
    expect((await get(`/p/${mine}/document.json`)).statusCode).toBe(404);
    expect((await get(`/p/embed/${mine}/`)).statusCode).toBe(404);
  });

  it("drops an unlisted deck's pages and thumbnail when it is made private, and a renamed owner's pages", async () => {
    const quiet = stableOid(`cache:unlisted:${target.name}`);
    await addDeck(db, ownerId, quiet, "Unlisted for now", "unlisted");
    await app.changes.sync();
    for (const url of [`/p/${quiet}/`, `/p/embed/${quiet}/`, `/p/${quiet}/thumbnail.svg`]) {
      await get(url);
      expect((await get(url)).headers["podium-cache"], url).toBe("hit");
    }
    await db.query("update presentations set privacy = 'private' where oid = $1", [quiet]);
    await app.changes.sync();
    for (const url of [`/p/${quiet}/`, `/p/embed/${quiet}/`, `/p/${quiet}/thumbnail.svg`]) {
      expect((await get(url)).statusCode, url).toBe(404);
    }

    await get(`/p/${deck}/`);
    expect(bodyOf(await get(`/p/${deck}/`))).toContain('"firstName":"Ada"');
    await db.query("update users set first_name = 'Augusta' where id = $1", [ownerId]);
    await app.changes.sync();
    const renamed = await get(`/p/${deck}/`);
    expect(renamed.headers["podium-cache"]).toBe("miss");
    expect(bodyOf(renamed)).toContain('"firstName":"Augusta"');
  });

  it("drops other decks' sidebar rows when the staff picks change (they show a handful of them; issue 11: sidebar.json)", async () => {
    const rows = `/p/${deck}/sidebar.json`;
    await get(rows);
    expect((await get(rows)).headers["podium-cache"]).toBe("hit");
    const pick = stableOid(`cache:pick:${target.name}`);
    await addDeck(db, ownerId, pick, "Picked by staff");
    await db.query("update presentations set is_staff_pick = true where oid = $1", [pick]);
    await app.changes.sync();
    const after = await get(rows);
    expect(after.headers["podium-cache"]).toBe("miss");
    expect(bodyOf(after)).toContain("Picked by staff");
    // The page itself doesn't carry the picks.
    expect(bodyOf(await get(`/p/${deck}/`))).not.toContain("Picked by staff");
  });

  it("drops what a write straight to the database changed (the triggers' change feed)", async () => {
    const other = stableOid(`cache:direct:${target.name}`);
    await addDeck(db, ownerId, other, "Hidden soon");
    await app.changes.sync();
    await get(`/p/${other}/`);
    expect((await get(`/p/${other}/`)).headers["podium-cache"]).toBe("hit");
    await db.query("update presentations set hidden = true where oid = $1", [other]);
    // Issue 29: dropped by the feed (a 404 before any answer is "stale"), however busy the machine.
    const answers: string[] = [];
    await vi.waitFor(
      async () => {
        const response = await get(`/p/${other}/`);
        answers.push(String(response.headers["podium-cache"]));
        expect(response.statusCode).toBe(404);
      },
      { timeout: 30_000, interval: 10 },
    );
    expect(answers).not.toContain("stale");
    // A count moving is not a change: the page stays cached (and shows the count within its time to live).
    await get("/explore/");
    await db.query("update presentations set view_count = view_count + 1 where oid = $1", [deck]);
    expect((await get("/explore/")).headers["podium-cache"]).toBe("hit");
  });

  it("issue 12: a first visit gets the browser's language (Accept-Language), and the cache keys on the negotiated one", async () => {
    const url = `/p/${deck}/accept-language/`;
    const english = await get(url, { "accept-language": "en-US,en;q=0.9" });
    expect(bodyOf(english)).toContain('<html lang="en"');
    expect(String(english.headers.vary)).toMatch(/\bAccept-Language\b/);
    // An Austrian browser: German, rendered (not the English page from the cache).
    const austrian = await get(url, { "accept-language": "de-AT,de;q=0.9,en;q=0.5" });
    expect(austrian.headers["podium-cache"]).toBe("miss");
    expect(bodyOf(austrian)).toContain('<html lang="de"');
    expect(String(austrian.headers.vary)).toMatch(/\bAccept-Language\b/);
    // A Swiss German browser negotiates the same language: the German page from the cache.
    const swiss = await get(url, { "accept-language": "de-CH" });
    expect(swiss.headers["podium-cache"]).toBe("hit");
    expect(bodyOf(swiss)).toContain('<html lang="de"');
    // …and an English browser after them still gets English, never the cached German page.
    const englishAgain = await get(url, { "accept-language": "en-GB" });
    expect(englishAgain.headers["podium-cache"]).toBe("hit");
    expect(bodyOf(englishAgain)).toContain('<html lang="en"');
    // Qualities: Japanese is preferred to Korean; an unsupported first choice is skipped.
    expect(bodyOf(await get(url, { "accept-language": "zh-CN, ko;q=0.3, ja;q=0.8" }))).toContain('<html lang="ja"');
    // Nothing Podium speaks: the default language, the same cached page as English.
    const unsupported = await get(url, { "accept-language": "nl-NL, zh;q=0.5" });
    expect(unsupported.headers["podium-cache"]).toBe("hit");
    expect(bodyOf(unsupported)).toContain('<html lang="en"');
    // No header at all: English too.
    expect(bodyOf(await get(url))).toContain('<html lang="en"');
    // The language cookie, once chosen, wins over the browser's wish.
    const chosen = await get(url, { "accept-language": "de-AT", cookie: "language=fr" });
    expect(bodyOf(chosen)).toContain('<html lang="fr"');
  });

  it("issue 12: a stale page's refresh renders the language its key was negotiated for", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const url = `/p/${deck}/refresh-language/`;
    const korean = { "accept-language": "ko-KR,ko;q=0.9" };
    const start = Date.now();
    expect(bodyOf(await get(url, korean))).toContain('<html lang="ko"');
    await db.query("update presentations set view_count = 5151 where oid = $1", [deck]);
    vi.setSystemTime(start + PAGE_CACHE_FRESH_MS + 100);
    expect((await get(url, korean)).headers["podium-cache"]).toBe("stale");
    await vi.waitFor(
      async () => {
        const fresh = await get(url, korean);
        expect(fresh.headers["podium-cache"]).toBe("hit");
        expect(bodyOf(fresh)).toContain('"viewCount":5151');
        expect(bodyOf(fresh)).toContain('<html lang="ko"');
      },
      { timeout: 30_000 },
    );
  });

  it("serves a stale page while one refresh runs, then the refreshed one (stale-while-revalidate)", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const url = `/p/${deck}/`;
    const start = Date.now();
    await get(url, { cookie: "language=fr" });
    await db.query("update presentations set view_count = 4242 where oid = $1", [deck]);
    vi.setSystemTime(start + PAGE_CACHE_FRESH_MS + 100);
    const stale = await get(url, { cookie: "language=fr" });
    expect(stale.headers["podium-cache"]).toBe("stale");
    expect(bodyOf(stale)).not.toContain('"viewCount":4242');
    await vi.waitFor(
      async () => {
        const fresh = await get(url, { cookie: "language=fr" });
        expect(fresh.headers["podium-cache"]).toBe("hit");
        expect(bodyOf(fresh)).toContain('"viewCount":4242');
      },
      { timeout: 30_000 },
    );
  });

  it("holds no more bytes than its bound", async () => {
    const { db: smallDb, drop: dropSmall } = await target.create();
    const small = await buildApp({ ...TEST_CONFIG, pageCacheMaxBytes: 512 * 1024 }, smallDb);
    try {
      for (let i = 0; i < 40; i += 1) {
        await small.inject({ method: "GET", url: `/explore/search/?search=word${i}`, headers: BROWSER });
      }
      const store = small.pageCache?.store;
      expect(store?.bytes).toBeGreaterThan(0);
      expect(store?.bytes).toBeLessThanOrEqual(512 * 1024);
      expect(store?.size).toBeLessThan(40);
      const firstAgain = await small.inject({ method: "GET", url: "/explore/search/?search=word0", headers: BROWSER });
      expect(firstAgain.headers["podium-cache"]).toBe("miss");
    } finally {
      await small.close();
      await dropSmall();
    }
  }, 60_000);
});

const postgres = testDatabaseTargets().find((target) => target.name === "postgres");

describe.skipIf(!postgres)("issue 11 page cache across processes on PostgreSQL", () => {
  it("shows an edit made through one server to anonymous visitors of another: the change feed drops the other's page before it goes stale", async () => {
    if (!postgres) return;
    const { db, drop, url } = await postgres.create();
    // Two servers on one database, each with its own connections and its own change-feed listener.
    const other = await openDatabase({ url: String(url) });
    const first = await buildApp({ ...TEST_CONFIG, ...CACHE }, db);
    const second = await buildApp({ ...TEST_CONFIG, ...CACHE }, other);
    try {
      const agent = new TestAgent(first);
      await agent.signUp("two-servers@podium.test");
      const [me] = await db.query<{ id: string }>("select id from users where email = $1", ["two-servers@podium.test"]);
      const oid = stableOid("cache:two-servers");
      await addDeck(db, String(me?.id), oid, "Seen everywhere");
      await second.changes.sync();
      const view = (app: FastifyInstance) => app.inject({ method: "GET", url: `/p/${oid}/`, headers: BROWSER });
      await view(second);
      expect((await view(second)).headers["podium-cache"]).toBe("hit");

      const saved = await agent.postForm(`/dashboard/next/presentations/${oid}/details`, {
        title: "Edited on the first server",
        description: "",
        tags: "",
        privacy: "public",
      });
      expect(saved.statusCode).toBe(303);
      // Issue 29: proved by how the page is answered, not by a time a busy machine can miss (1 s
      // quiet): the change feed drops the cached page, so the edit comes from a render of its own
      // ("miss") before any answer is "stale" (PAGE_CACHE_FRESH_MS, the refresh that would otherwise bring it).
      const answers: string[] = [];
      await vi.waitFor(
        async () => {
          const response = await view(second);
          answers.push(String(response.headers["podium-cache"]));
          expect(bodyOf(response)).toContain("Edited on the first server");
        },
        { timeout: 30_000, interval: 10 },
      );
      expect(answers.at(-1)).toBe("miss");
      expect(answers).not.toContain("stale");

      await agent.postForm(`/dashboard/next/presentations/${oid}/details`, {
        title: "Edited on the first server",
        description: "",
        tags: "",
        privacy: "private",
      });
      answers.length = 0;
      await vi.waitFor(
        async () => {
          const response = await view(second);
          answers.push(String(response.headers["podium-cache"]));
          expect(response.statusCode).toBe(404);
        },
        { timeout: 30_000, interval: 10 },
      );
      expect(answers).not.toContain("stale");
    } finally {
      await second.close();
      await first.close();
      await drop();
    }
  }, 90_000);
});

describe.skipIf(!postgres)("issue 11 change feed connection on PostgreSQL", () => {
  it("serves nothing from the cache while its listener is cut off, and comes back by itself", async () => {
    if (!postgres) return;
    const { db, drop } = await postgres.create();
    const app = await buildApp({ ...TEST_CONFIG, ...CACHE }, db);
    try {
      const home = () => app.inject({ method: "GET", url: "/", headers: BROWSER });
      await home();
      expect((await home()).headers["podium-cache"]).toBe("hit");
      // Cut the listening connection the way a network failure or a server restart would.
      await db.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'listen%'",
      );
      await vi.waitFor(() => expect(app.changes.live).toBe(false), { timeout: 2000, interval: 5 });
      expect((await home()).headers["podium-cache"]).toBeUndefined();
      await vi.waitFor(() => expect(app.changes.live).toBe(true), { timeout: 5000, interval: 20 });
      // Everything was dropped on the way back: writes made meanwhile could have been missed.
      expect((await home()).headers["podium-cache"]).toBe("miss");
      expect((await home()).headers["podium-cache"]).toBe("hit");
    } finally {
      await app.close();
      await drop();
    }
  }, 30_000);
});
