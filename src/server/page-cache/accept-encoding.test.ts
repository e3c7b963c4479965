import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { testDatabaseTargets } from "../../db/testing";
import { importMarkdown } from "../../document/markdown";
import { insertPresentationIfAbsent } from "../../features/presentation/repository";
import { stableOid } from "../../lib/ids";
import { buildApp } from "../app";
import { insertTestUser, TEST_CONFIG, TestAgent } from "../testing";
import { CHROME_USER_AGENT, decodedBody } from "../testing/browser";
import { acceptsGzip, encodingFor, wildcardSpelledOut } from "./plugin";

/**
 * Issue 27 item 6: `Accept-Encoding: gzip;q=0, *` says gzip is not acceptable and any other coding
 * is (RFC 9110 §12.5.3). Neither the page cache (a miss, a hit, a hit before Fastify), nor a
 * signed-in page's template, nor @fastify/compress may answer it with gzip.
 */
const NO_GZIP = "gzip;q=0, *";
const NOTHING_BUT_IDENTITY = "gzip;q=0, br;q=0, *";
const BROWSER = { accept: "text/html", "user-agent": CHROME_USER_AGENT };

const bodyOf = decodedBody;

describe("Accept-Encoding read as RFC 9110 says (issue 27 item 6)", () => {
  it("never picks a coding refused with q=0, whatever `*` says", () => {
    expect(encodingFor(NO_GZIP)).toBe("br");
    expect(acceptsGzip(NO_GZIP)).toBe(false);
    expect(encodingFor(NOTHING_BUT_IDENTITY)).toBe("identity");
    expect(encodingFor("x-gzip;q=0, *")).toBe("br");
    expect(encodingFor("br;q=0, *")).toBe("gzip");
    expect(encodingFor("*;q=0")).toBe("identity");
    expect(encodingFor("gzip, *;q=0")).toBe("gzip");
    expect(encodingFor("*")).toBe("br");
    expect(encodingFor("gzip, deflate, br")).toBe("br");
    expect(encodingFor("GZIP;Q=0.000, br;q=0")).toBe("identity");
  });

  it("spells `*` out for @fastify/compress as the codings not named, with its quality", () => {
    expect(wildcardSpelledOut(NO_GZIP)).toBe("gzip;q=0, br");
    expect(wildcardSpelledOut(NOTHING_BUT_IDENTITY)).toBe("gzip;q=0, br;q=0");
    expect(wildcardSpelledOut("*;q=0.5")).toBe("br;q=0.5, gzip;q=0.5");
    expect(wildcardSpelledOut("*;q=0")).toBe("identity");
    expect(wildcardSpelledOut("gzip, br")).toBe("gzip, br");
    expect(wildcardSpelledOut(undefined)).toBeUndefined();
  });
});

describe.each(testDatabaseTargets())("no gzip for `gzip;q=0, *` on $name (issue 27 item 6)", (target) => {
  let cached: FastifyInstance;
  let plain: FastifyInstance;
  let db: Database;
  let drop: () => Promise<void>;
  const deck = stableOid("encoding:deck");

  beforeAll(async () => {
    ({ db, drop } = await target.create());
    cached = await buildApp({ ...TEST_CONFIG, pageCacheMaxBytes: 8 * 1024 * 1024 }, db);
    // The same database without the page cache: every page goes through @fastify/compress.
    plain = await buildApp(TEST_CONFIG, db);
    const owner = await insertTestUser(db, {
      oid: stableOid("encoding:owner"),
      email: "owner@encoding.test",
      username: "encoding.owner",
      firstName: "Ada",
      lastName: "Encoding",
    });
    await insertPresentationIfAbsent(db, {
      oid: deck,
      ownerId: owner.id,
      title: "Content codings",
      descriptionHtml: "",
      privacy: "public",
      schemaVersion: "0",
      tags: [],
      document: importMarkdown("# Content codings\n---\n# Second slide", "0"),
    });
    await cached.changes.sync();
  });
  afterAll(async () => {
    await cached?.close();
    await plain?.close();
    await drop?.();
  });

  const get = (app: FastifyInstance, url: string, acceptEncoding: string, headers: Record<string, string> = {}) =>
    app.inject({ method: "GET", url, headers: { ...BROWSER, "accept-encoding": acceptEncoding, ...headers } });

  it("the page cache: a miss and a hit get brotli (any other coding), or no coding when only identity is left", async () => {
    const url = `/p/${deck}/`;
    const miss = await get(cached, url, NO_GZIP);
    expect(miss.headers["podium-cache"]).toBe("miss");
    expect(miss.headers["content-encoding"]).toBe("br");
    const hit = await get(cached, url, NO_GZIP);
    expect(hit.headers["podium-cache"]).toBe("hit");
    expect(hit.headers["content-encoding"]).toBe("br");
    expect(bodyOf(hit)).toBe(bodyOf(miss));
    const identity = await get(cached, url, NOTHING_BUT_IDENTITY);
    expect(identity.headers["podium-cache"]).toBe("hit");
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(identity.body).toBe(bodyOf(miss));

    const missIdentity = await get(cached, "/explore/", NOTHING_BUT_IDENTITY);
    expect(missIdentity.headers["podium-cache"]).toBe("miss");
    expect(missIdentity.headers["content-encoding"]).toBeUndefined();
  });

  it("a hit answered before Fastify gets no gzip either", async () => {
    const { db: ownDb, drop: dropOwn } = await target.create();
    const served = await buildApp({ ...TEST_CONFIG, pageCacheMaxBytes: 8 * 1024 * 1024 }, ownDb);
    try {
      const base = await served.listen({ port: 0, host: "127.0.0.1" });
      const fetchExplore = (acceptEncoding: string) =>
        fetch(`${base}/explore/`, { headers: { ...BROWSER, "accept-encoding": acceptEncoding } });
      expect((await fetchExplore(NO_GZIP)).headers.get("podium-cache")).toBe("miss");
      const hit = await fetchExplore(NO_GZIP);
      expect(hit.headers.get("podium-cache")).toBe("hit");
      expect(hit.headers.get("content-encoding")).toBe("br");
      const identity = await fetchExplore(NOTHING_BUT_IDENTITY);
      expect(identity.headers.get("content-encoding")).toBeNull();
    } finally {
      await served.close();
      await dropOwn();
    }
  });

  it("@fastify/compress (no page cache) answers brotli, or no coding", async () => {
    const page = await get(plain, `/p/${deck}/`, NO_GZIP);
    expect(page.statusCode).toBe(200);
    expect(page.headers["podium-cache"]).toBeUndefined();
    expect(page.headers["content-encoding"]).toBe("br");
    const identity = await get(plain, `/p/${deck}/`, NOTHING_BUT_IDENTITY);
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(identity.body).toBe(bodyOf(page));
    // What it did before stays: a browser's usual header gets brotli, gzip alone gets gzip.
    expect((await get(plain, `/p/${deck}/`, "gzip, deflate, br")).headers["content-encoding"]).toBe("br");
    expect((await get(plain, `/p/${deck}/`, "gzip")).headers["content-encoding"]).toBe("gzip");
  });

  it("a signed-in page from its template gets no gzip", async () => {
    const agent = new TestAgent(cached);
    await agent.signUp("reader@encoding.test");
    agent.cookies.set("podium_cookie_consent", "necessary");
    for (const round of ["first", "second"]) {
      const page = await agent.get(`/p/${deck}/`, { ...BROWSER, "accept-encoding": NO_GZIP });
      expect(page.statusCode, round).toBe(200);
      expect(page.headers["podium-template"], round).toMatch(/^(miss|hit)$/);
      expect(page.headers["content-encoding"], round).not.toBe("gzip");
      expect(bodyOf(page), round).toContain("Content codings");
    }
  }, 60_000);
});
