import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "../../db/client";
import { testDatabaseTargets } from "../../db/testing";
import { createTestApp } from "../../server/testing";
import { SITEMAP_PAGE_IDS } from "./routes";

/**
 * Issue 32: the sitemap in pages. While every listed presentation's id fits one page,
 * /sitemap.xml is that page; past it, a sitemap index of /sitemap-{n}.xml pages, each listing the
 * listed presentations of one range of ids (the protocol allows 50,000 URLs a file).
 */
const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);

describe.each(testDatabaseTargets())("issue 32 the sitemap in pages ($name)", (target) => {
  let app: FastifyInstance;
  let db: Database;
  let close: () => Promise<void>;

  const insert = (id: number | null, oid: string, privacy = "public") =>
    db.query(
      `insert into presentations (${id === null ? "" : "id, "}oid, owner_id, title, privacy, schema_version, document)
       ${id === null ? "" : "overriding system value"}
       values (${id === null ? "" : `${id}, `}$1, (select min(id) from users), $2, $3, '2', '{}'::jsonb)`,
      [oid, `Deck ${oid}`, privacy],
    );

  beforeAll(async () => {
    ({ app, db, close } = await createTestApp(target));
    await db.query(
      "insert into users (oid, email, username, first_name) values ('sitemapowner', 's@x.test', 's', 'S')",
    );
    await insert(null, "nearbydeck01");
    await insert(null, "secretdeck01", "private");
  });
  afterAll(async () => close());

  it("issue 32: one page while every listed id fits it: the home page and the listed decks, nothing private", async () => {
    const sitemap = await app.inject({ method: "GET", url: "/sitemap.xml" });
    expect(sitemap.statusCode).toBe(200);
    expect(sitemap.body).toContain("<urlset");
    expect(locs(sitemap.body)).toEqual([
      "https://podium.example/",
      "https://podium.example/p/nearbydeck01/deck-nearbydeck01/",
    ]);
    expect((await app.inject({ method: "GET", url: "/sitemap-1.xml" })).statusCode).toBe(404);
  });

  it("issue 32: past one page, an index of pages, each with the decks of its ids; no page past the last", async () => {
    await insert(2 * SITEMAP_PAGE_IDS + 5, "farawaydeck1");
    await insert(3 * SITEMAP_PAGE_IDS + 5, "hiddendeck01", "unlisted");
    // Written around the app (as another process would): the kept page count hears of it through
    // the change feed, so the index shows once that has come (issue 32 item 2).
    const index = await vi.waitFor(
      async () => {
        const answer = await app.inject({ method: "GET", url: "/sitemap.xml" });
        expect(answer.body).toContain("<sitemapindex");
        return answer;
      },
      { timeout: 30_000, interval: 50 },
    );
    expect(index.statusCode).toBe(200);
    expect(locs(index.body)).toEqual([0, 1, 2].map((n) => `https://podium.example/sitemap-${n}.xml`));

    const first = await app.inject({ method: "GET", url: "/sitemap-0.xml" });
    expect(first.headers["content-type"]).toContain("application/xml");
    expect(locs(first.body)).toEqual([
      "https://podium.example/",
      "https://podium.example/p/nearbydeck01/deck-nearbydeck01/",
    ]);
    expect(locs((await app.inject({ method: "GET", url: "/sitemap-1.xml" })).body)).toEqual([]);
    expect(locs((await app.inject({ method: "GET", url: "/sitemap-2.xml" })).body)).toEqual([
      "https://podium.example/p/farawaydeck1/deck-farawaydeck1/",
    ]);
    for (const url of ["/sitemap-3.xml", "/sitemap-x.xml", "/sitemap--1.xml", "/sitemap-9999999.xml"]) {
      expect((await app.inject({ method: "GET", url })).statusCode, url).toBe(404);
    }
  });
});
