import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "../db/client";
import { testDatabaseTargets } from "../db/testing";
import { buildApp } from "../server/app";
import { countingDatabase, createSeededDatabase, TEST_CONFIG } from "../server/testing";

/**
 * Issue 32 item 2: with the page cache off (TEST_CONFIG), the lists around the pages — home's
 * newest, explore's newest and most watched, a profile, the sitemap, a view page's "More from" and
 * "Related" — come from the app's small caches: asked again, such a page runs no statement, so
 * its cost doesn't grow with the number of decks. A change to a listed deck drops them.
 */

describe.each(testDatabaseTargets())(
  "issue 32 item 2: pages from the small caches, page cache off ($name)",
  (target) => {
    let app: Awaited<ReturnType<typeof buildApp>>;
    let statements: string[];
    let drop: () => Promise<void>;
    let raw: Database;
    let deck: { oid: string; ownerOid: string; title: string };

    beforeAll(async () => {
      const created = await createSeededDatabase(target);
      raw = created.db;
      drop = created.drop;
      const wrapped = countingDatabase(raw);
      statements = wrapped.statements;
      expect(TEST_CONFIG.pageCacheMaxBytes).toBe(0);
      // The search index in memory reads the database in the background (its build, the changes it
      // hears): off here, so every statement counted is a page's.
      app = await buildApp({ ...TEST_CONFIG, searchIndex: "database" }, wrapped.db);
      const [row] = await raw.query<{ oid: string; owner_oid: string; title: string }>(
        `select p.oid, u.oid as owner_oid, p.title from presentations p join users u on u.id = p.owner_id
        where p.privacy = 'public' and not p.hidden and p.template_slug is null and cardinality(p.tags) > 0
        order by p.id limit 1`,
      );
      if (!row) throw new Error("the demo seed has no public deck");
      deck = { oid: row.oid, ownerOid: row.owner_oid, title: row.title };
    }, 120_000);
    afterAll(async () => {
      await app?.close();
      await drop?.();
    });

    const pages = () => ["/", "/explore/", `/user/${deck.ownerOid}/`, "/sitemap.xml", `/p/${deck.oid}/more.json`];

    it("asked again, home, explore, a profile, the sitemap and a view page's More from and Related run no statement", async () => {
      for (const url of pages()) {
        const first = await app.inject({ method: "GET", url });
        expect(first.statusCode, url).toBe(200);
        statements.length = 0;
        const again = await app.inject({ method: "GET", url });
        expect(again.statusCode, url).toBe(200);
        expect(again.body, url).toBe(first.body);
        expect(statements, url).toEqual([]);
      }
    });

    it("a listed deck's change drops them: each page shows the new title", async () => {
      for (const url of pages()) expect((await app.inject({ method: "GET", url })).statusCode).toBe(200);
      const title = `${deck.title} (issue 32, kept lists)`;
      // Written around the app, as another process would: only the change feed tells the app.
      await raw.query("update presentations set title = $1, last_modified = now() where oid = $2", [title, deck.oid]);
      for (const url of ["/", "/explore/", `/user/${deck.ownerOid}/`]) {
        await vi.waitFor(async () => expect((await app.inject({ method: "GET", url })).body, url).toContain(title), {
          timeout: 30_000,
          interval: 50,
        });
      }
    });
  },
);
