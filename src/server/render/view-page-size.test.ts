import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync } from "node:zlib";
import type { FastifyInstance } from "fastify";
import { JSDOM } from "jsdom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BOOT_DATA_ID, CLIENT_ENTRIES, messagesAssetKey } from "../../client/entries";
import type { Database } from "../../db/client";
import { testDatabaseTargets } from "../../db/testing";
import { messagesFor } from "../../i18n/catalogues";
import { LOCALES } from "../../i18n/locales";
import { COOKIE_CONSENT_COOKIE } from "../../lib/usage-session";
import { buildApp } from "../app";
import { createSeededDatabase, TEST_CONFIG } from "../testing";

/**
 * Issue 11: an anonymous view page's HTML, raw, for every demo deck, the 50-slide one included (its
 * whole transcript stays in the page; the sidebar's promotional rows load after it, sidebar.json).
 */
const VIEW_PAGE_BUDGET_BYTES = 40 * 1024;
/** The 50-slide demo deck: the longest transcript, the largest page. */
const LONG_DECK_MIN_STEPS = 21;
/** A year, the cache life of every hashed file under /static/. */
const IMMUTABLE = "public, max-age=31536000, immutable";

/**
 * A client build shaped like a real one: each entry links 4 style sheets and 11 chunks (what
 * the view page links in a real build), and each language has its catalogue file.
 */
function fakeClientBuild(root: string): string {
  const clientDir = join(root, "client");
  mkdirSync(join(clientDir, ".vite"), { recursive: true });
  mkdirSync(join(clientDir, "static"));
  const manifest: Record<string, unknown> = {};
  const chunks = Array.from({ length: 11 }, (_, n) => `_chunk${n}`);
  for (const key of chunks) manifest[key] = { file: `static/${key.slice(1)}-Ab3dEf9h.js` };
  for (const [name, source] of Object.entries(CLIENT_ENTRIES)) {
    const css = Array.from({ length: 4 }, (_, n) => `static/${name}-style${n}-Ab3dEf9h.css`);
    manifest[source] = { file: `static/${name}-Ab3dEf9h.js`, isEntry: true, css, imports: chunks };
  }
  for (const locale of LOCALES) {
    const file = `static/messages-${locale}-Ab3dEf9h.json`;
    manifest[messagesAssetKey(locale)] = { file, src: messagesAssetKey(locale) };
    writeFileSync(join(clientDir, file), JSON.stringify(messagesFor(locale)));
    // As the build writes it (scripts/build.mjs): the best brotli beside the file.
    writeFileSync(join(clientDir, `${file}.br`), brotliCompressSync(JSON.stringify(messagesFor(locale))));
  }
  writeFileSync(join(clientDir, ".vite", "manifest.json"), JSON.stringify(manifest));
  for (const entry of Object.values(manifest) as { file: string }[])
    if (entry.file.endsWith(".js")) writeFileSync(join(clientDir, entry.file), "export const x = 1;\n");
  return clientDir;
}

function bootOf(html: string): { messagesUrl: string | null; data: { stepCount: number } } & Record<string, unknown> {
  const document = new JSDOM(html).window.document;
  return JSON.parse(document.getElementById(BOOT_DATA_ID)?.textContent ?? "null");
}

// The page's bytes don't depend on the database engine: PGlite only.
describe.each(testDatabaseTargets().filter((target) => target.name === "pglite"))(
  "issue 11: view page size on $name",
  (target) => {
    const root = mkdtempSync(join(tmpdir(), "podium-size-"));
    let app: FastifyInstance;
    let db: Database;
    let drop: () => Promise<void>;
    let viewPaths: string[] = [];

    beforeAll(async () => {
      ({ db, drop } = await createSeededDatabase(target));
      app = await buildApp({ ...TEST_CONFIG, clientDir: fakeClientBuild(root) }, db);
      const sitemap = (await app.inject({ method: "GET", url: "/sitemap.xml" })).body;
      const locations = new JSDOM(sitemap, { contentType: "text/xml" }).window.document.querySelectorAll("loc");
      viewPaths = [...locations]
        .map((loc) => new URL(loc.textContent ?? "").pathname)
        .filter((path) => path.startsWith("/p/"));
    });
    afterAll(async () => {
      await app.close();
      await drop();
      rmSync(root, { recursive: true, force: true });
    });

    // A visitor who has made the cookie choice (no cookie banner in the page).
    const get = (url: string, language?: string) =>
      app.inject({
        method: "GET",
        url,
        headers: {
          cookie: [`${COOKIE_CONSENT_COOKIE}=necessary`, ...(language ? [`language=${language}`] : [])].join("; "),
        },
      });

    it("every demo deck's view page is within 40 KB of HTML in English and German, the 50-slide deck's too", async () => {
      expect(viewPaths.length).toBeGreaterThanOrEqual(30);
      const over: string[] = [];
      let longDecks = 0;
      for (const path of viewPaths) {
        for (const language of ["en", "de"]) {
          const response = await get(path, language);
          expect(response.statusCode).toBe(200);
          const bytes = Buffer.byteLength(response.body);
          const long = bootOf(response.body).data.stepCount >= LONG_DECK_MIN_STEPS;
          if (long && language === "en") longDecks += 1;
          if (bytes > VIEW_PAGE_BUDGET_BYTES) over.push(`${path} (${language}): ${bytes} bytes`);
          // No promotional card in it: they come from sidebar.json.
          expect(response.body).not.toContain("sidebar-card");
        }
      }
      expect(over).toEqual([]);
      expect(longDecks).toBe(1);
    });

    it("a German view page links the German catalogue, which is served as an immutable file holding the same messages", async () => {
      const [path] = viewPaths;
      const html = (await get(path ?? "/", "de")).body;
      const boot = bootOf(html);
      expect(boot.messagesUrl).toBe("/static/messages-de-Ab3dEf9h.json");
      expect(boot).not.toHaveProperty("messages");
      const file = await get(boot.messagesUrl ?? "");
      expect(file.statusCode).toBe(200);
      expect(file.headers["cache-control"]).toBe(IMMUTABLE);
      expect(file.headers["content-type"]).toMatch(/^application\/json/);
      expect(JSON.parse(file.body)).toEqual(messagesFor("de"));
    });

    it("issue 30: a file under /static/ carries no header only a document obeys, but keeps nosniff, its resource policy and a year's cache", async () => {
      const [path] = viewPaths;
      const page = await get(path ?? "/");
      expect(page.headers["content-security-policy"]).toContain("default-src 'self'");
      expect(page.headers["x-frame-options"]).toBe("DENY");
      const script = /<script[^>]+src="(\/static\/[^"]+\.js)"/.exec(page.body)?.[1] ?? "";
      for (const file of [await get(script), await get(bootOf(page.body).messagesUrl ?? "")]) {
        expect(file.statusCode).toBe(200);
        expect(file.headers["cache-control"]).toBe(IMMUTABLE);
        expect(file.headers["x-content-type-options"]).toBe("nosniff");
        expect(file.headers["cross-origin-resource-policy"]).toBe("same-site");
        for (const header of [
          "content-security-policy",
          "x-frame-options",
          "cross-origin-opener-policy",
          "x-ratelimit-limit",
          "x-xss-protection",
        ])
          expect(file.headers, header).not.toHaveProperty(header);
      }
      // Issue 30: the build's best brotli, sent as it is to a browser that takes brotli.
      const catalogue = bootOf(page.body).messagesUrl ?? "";
      const compressed = await app.inject({
        method: "GET",
        url: catalogue,
        headers: { "accept-encoding": "gzip, br" },
      });
      expect(compressed.headers["content-encoding"]).toBe("br");
      expect(compressed.headers.vary).toMatch(/accept-encoding/i);
      expect(compressed.rawPayload.equals(readFileSync(join(root, "client", `${catalogue}.br`)))).toBe(true);
      // An unknown file under /static/ is a plain 404, not a page.
      expect((await get("/static/none-Ab3dEf9h.js")).statusCode).toBe(404);
    });

    it("the home page carries no catalogue either", async () => {
      const html = (await get("/", "ja")).body;
      const boot = bootOf(html);
      expect(boot.messagesUrl).toBe("/static/messages-ja-Ab3dEf9h.json");
      expect(boot).not.toHaveProperty("messages");
      expect(Buffer.byteLength(html)).toBeLessThan(VIEW_PAGE_BUDGET_BYTES);
    });
  },
);
