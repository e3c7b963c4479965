import type { FastifyInstance } from "fastify";
import { JSDOM } from "jsdom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/client";
import { listMigrations, migrate } from "../db/migrate";
import { testDatabaseTargets } from "../db/testing";
import { importMarkdown } from "../document/markdown";
import { parseDocument } from "../document/schema";
import { sanitizeDescription } from "../features/presentation/description";
import type { PresentationBootData } from "../features/presentation/page-data";
import {
  findPresentationByOid,
  insertPresentationIfAbsent,
  insertViewLinkIfAbsent,
  type Privacy,
  revokeViewLink,
} from "../features/presentation/repository";
import { stableOid } from "../lib/ids";
import { buildApp } from "./app";
import { type Config, DEFAULT_ACCOUNT_LIMITS, DEFAULT_FEATURES } from "./config";
import { securityHeaders } from "./plugins/security-headers";
import { insertTestUser, TEST_CONFIG, TestAgent } from "./testing";

const testConfig: Config = { ...TEST_CONFIG, accountLimits: DEFAULT_ACCOUNT_LIMITS, likeRateLimitPerMinute: 1000 };

const oids = {
  public: stableOid("t:public"),
  reusable: stableOid("t:reusable"),
  unlisted: stableOid("t:unlisted"),
  private: stableOid("t:private"),
  hostile: stableOid("t:hostile"),
  noViews: stableOid("t:noviews"),
};

const LAST_MODIFIED = new Date("2026-03-04T23:30:00Z");

async function addFixtures(db: Database) {
  const owner = await insertTestUser(db, {
    oid: stableOid("t:owner"),
    email: "grace@podium.test",
    username: "grace.lindqvist",
    firstName: "Grace",
    lastName: "Lindqvist",
  });
  const named = await insertTestUser(db, {
    oid: stableOid("t:named"),
    email: "kat@podium.test",
    username: "kat",
    firstName: "Katherine",
    lastName: "Ito",
    publicDisplayName: "Dr. Katherine Ito",
  });
  const add = (
    oid: string,
    title: string,
    privacy: Privacy,
    extra: Partial<{ ownerId: string; description: string; views: number }> = {},
  ) =>
    insertPresentationIfAbsent(db, {
      oid,
      ownerId: extra.ownerId ?? owner.id,
      title,
      descriptionHtml: sanitizeDescription(extra.description ?? "<p>A <strong>real</strong> description.</p>"),
      privacy,
      schemaVersion: "0",
      tags: ["baking", "bread"],
      document: importMarkdown(
        `# ${title}\n## Subtitle of ${title}\n---\n# Second slide\n- point one\n- point two`,
        "0",
      ),
      viewCount: extra.views ?? 1234,
      lastModified: LAST_MODIFIED,
    });
  await add(oids.public, "Sourdough basics", "public");
  await add(oids.reusable, "Reusable deck", "reusable", { ownerId: named.id });
  await add(oids.unlisted, "Unlisted deck", "unlisted");
  await add(oids.private, "Private deck", "private");
  await add(oids.noViews, "Brand new deck", "public", { views: 0 });
  await insertViewLinkIfAbsent(db, { linkId: "private-deck-view-link-1", presentationOid: oids.private });
  await insertViewLinkIfAbsent(db, { linkId: "private-deck-view-link-2", presentationOid: oids.private });
  await add(oids.hostile, '</script><script>alert("x")</script>', "public", {
    description: `<p>ok</p><img src=x onerror="alert(1)"><script>alert(2)</script><a href="javascript:alert(3)">link</a>`,
  });
}

function pageData(html: string): PresentationBootData {
  const match = /<script type="application\/json" id="podium-boot">([^<]*)<\/script>/.exec(html);
  if (!match?.[1]) throw new Error("no boot data in page");
  return JSON.parse(match[1]).data;
}

describe.each(testDatabaseTargets())("Podium app on $name", (target) => {
  let app: FastifyInstance;
  let db: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const created = await target.create();
    db = created.db;
    drop = created.drop;
    await addFixtures(db);
    // The app closes the database with itself; drop() afterwards removes a PostgreSQL test database.
    app = await buildApp(testConfig, db);
  });
  afterAll(async () => {
    await app.close();
    await drop();
  });

  it("R2.15 serves the public view page with title, owner, last modified and description", async () => {
    const response = await app.inject({ method: "GET", url: `/p/${oids.public}/` });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    const html = response.body;
    expect(html).toMatch(
      /<html lang="en" data-env="production" data-cookies="consent" data-cookie-domain="podium.example">/,
    );
    expect(html).toContain("<h1");
    expect(html).toContain("Sourdough basics");
    expect(html).toContain("Grace Lindqvist");
    expect(html).toContain('dateTime="2026-03-04T23:30:00.000Z"');
    // Formatted in UTC, whatever the server's zone (the tests run in Pacific/Auckland).
    expect(html).toContain("March 4, 2026");
    expect(html).toContain("<p>A <strong>real</strong> description.</p>");
    // The transcript's text is in the HTML for readers without JavaScript.
    expect(html).toContain("point two");
  });

  it("R3.5 puts every field of the spec's page data into the page as JSON", async () => {
    const response = await app.inject({ method: "GET", url: `/p/${oids.public}/sourdough-basics/` });
    expect(response.statusCode).toBe(200);
    const data = pageData(response.body);
    for (const field of [
      "oid",
      "title",
      "description",
      "owner",
      "lastModifiedDateString",
      "privacy",
      "isAuthenticated",
      "isMobile",
      "isPublicView",
      "viewCount",
      "likesCount",
      "hasLikedPrezi",
      "viewLink",
      "makeACopyRedirectUrl",
      "showMakeACopyButton",
      "tags",
      "schemaVersion",
      "embedMode",
      "viewerRights",
      "transcriptData",
      "nativeApp",
      "topPicks",
      "evaluatedFeatures",
      "shouldAutoplay",
      "forceAutoplay",
      "showWatermark",
      "teaseContent",
      "viewerEmail",
      "viewerName",
    ]) {
      expect(data, field).toHaveProperty(field);
    }
    expect(data).toMatchObject({
      oid: oids.public,
      title: "Sourdough basics",
      privacy: "public",
      isAuthenticated: false,
      isPublicView: true,
      viewCount: 1234,
      likesCount: 0,
      tags: "baking,bread",
      schemaVersion: "0",
      viewerRights: { edit: false, comment: false },
      lastModifiedDateString: "2026-03-04T23:30:00.000Z",
    });
    expect(data.evaluatedFeatures).toEqual(DEFAULT_FEATURES);
    // The owner's email never reaches the page: only the avatar colour it picked.
    expect(data.owner.email).toBeNull();
    expect(response.body).not.toContain("grace@podium.test");
    // Issue 11, issue 28: the transcript travels once, as markup (its text is in the HTML, see above),
    // not in the JSON too; transcriptData says where that markup is and what it holds.
    expect(data.transcriptData).toMatchObject({ format: "markup", elementId: "transcript-content", sections: 2 });
    expect(data.transcriptData?.lastStep).toBeGreaterThanOrEqual(2);
    expect(data.transcriptData?.lastStep).toBeLessThanOrEqual(data.stepCount);
    expect(JSON.stringify(data)).not.toContain("point two");
    const transcript = new JSDOM(response.body).window.document.getElementById(data.transcriptData?.elementId ?? "");
    expect(transcript?.textContent).toContain("point two");
  });

  it("issue 30: the view and embed pages ask for their poster first, at high priority, before any style sheet or script", async () => {
    for (const url of [`/p/${oids.public}/sourdough-basics/`, `/p/embed/${oids.public}/`]) {
      const html = (await app.inject({ method: "GET", url })).body;
      const head = html.slice(0, html.indexOf("</head>"));
      const preload = `<link rel="preload" as="image" href="/p/${oids.public}/thumbnail.svg" fetchpriority="high">`;
      expect(head, url).toContain(preload);
      const firstFile = head.search(/<link rel="(stylesheet|modulepreload)"|<script/);
      if (firstFile >= 0) expect(head.indexOf(preload), url).toBeLessThan(firstFile);
      // The poster itself is in the page (not hidden) while it loads, so it paints as soon as it comes.
      expect(html, url).toMatch(/<img[^>]*class="overlay__preview"[^>]*fetchPriority="high"(?![^>]*hidden)[^>]*>/i);
    }
  });

  it("R3.1 shows publicDisplayName instead of first and last name", async () => {
    const response = await app.inject({ method: "GET", url: `/p/${oids.reusable}/` });
    expect(response.body).toContain(">Dr. Katherine Ito</span>");
    expect(response.body).not.toContain(">Katherine Ito</span>");
  });

  it("R2.1 links the owner to /user/{oid}/", async () => {
    const response = await app.inject({ method: "GET", url: `/p/${oids.public}/` });
    expect(response.body).toContain(`href="/user/${stableOid("t:owner")}/"`);
  });

  it("R5.5 R9.8 shows views (in locale number format) only when greater than 0", async () => {
    const shown = await app.inject({ method: "GET", url: `/p/${oids.public}/` });
    expect(shown.body.replaceAll("<!-- -->", "")).toContain("1,234 views");
    const hidden = await app.inject({ method: "GET", url: `/p/${oids.noViews}/` });
    expect(hidden.body).not.toMatch(/\d views?</);
    const unlisted = await app.inject({ method: "GET", url: `/p/${oids.unlisted}/` });
    expect(unlisted.body).not.toContain("1,234 views");
  });

  it("escapes page data and sanitises the description", async () => {
    const response = await app.inject({ method: "GET", url: `/p/${oids.hostile}/` });
    expect(response.statusCode).toBe(200);
    const html = response.body;
    expect(html).not.toContain('<script>alert("x")</script>');
    expect(html).not.toContain("onerror");
    expect(html).not.toContain("javascript:");
    expect(html).not.toContain("<script>alert(2)</script>");
    // Exactly two script elements: the boot data and (with a build) the entry.
    expect(html.match(/<script/g)?.length).toBe(1);
    expect(pageData(html).title).toBe('</script><script>alert("x")</script>');
  });

  it("answers 404 pages for unknown, private and malformed oids, never a stack trace", async () => {
    const urls = [
      `/p/${stableOid("t:nobody")}/`,
      `/p/${oids.private}/`,
      "/p/NOT-AN-OID/",
      "/p/%3Cscript%3E/",
      "/p/..%2F..%2Fetc%2Fpasswd/",
      "/p/abc/def/ghi/jkl/",
    ];
    for (const url of urls) {
      const response = await app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toMatch(/at .*\.(ts|js):\d+/);
      if (response.headers["content-type"]?.toString().startsWith("text/html")) {
        expect(response.body, url).toContain("Page not found");
      }
    }
  });

  it("answers a 400 page for a malformed address", async () => {
    const response = await app.inject({ method: "GET", url: "/p/%E0%A4%A/" });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain("That request didn&#x27;t work");
  });

  it("answers 414 for an absurdly long path", async () => {
    const response = await app.inject({ method: "GET", url: `/p/${"a".repeat(5000)}/` });
    expect(response.statusCode).toBe(414);
  });

  it("marks unlisted presentations noindex and keeps them out of the sitemap", async () => {
    const page = await app.inject({ method: "GET", url: `/p/${oids.unlisted}/` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<meta name="robots" content="noindex">');
    const sitemap = await app.inject({ method: "GET", url: "/sitemap.xml" });
    expect(sitemap.statusCode).toBe(200);
    expect(sitemap.headers["content-type"]).toContain("application/xml");
    const locs = [...sitemap.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toContain(`https://podium.example/p/${oids.public}/sourdough-basics/`);
    expect(locs).toContain(`https://podium.example/p/${oids.reusable}/reusable-deck/`);
    expect(locs.some((loc) => loc?.includes(oids.unlisted))).toBe(false);
    expect(locs.some((loc) => loc?.includes(oids.private))).toBe(false);
  });

  it("serves generated SVG thumbnails, escaped", async () => {
    const response = await app.inject({ method: "GET", url: `/p/${oids.hostile}/thumbnail.svg` });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("image/svg+xml");
    expect(response.body).not.toContain("<script");
    expect((await app.inject({ method: "GET", url: `/p/${oids.private}/thumbnail.svg` })).statusCode).toBe(404);
  });

  it("lists recent public presentations on the home page", async () => {
    const response = await app.inject({ method: "GET", url: "/" });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("Sourdough basics");
    expect(response.body).not.toContain("Private deck");
    expect(response.body).not.toContain("Unlisted deck");
  });

  it("sends security headers: CSP, no framing, no sniffing", async () => {
    const response = await app.inject({ method: "GET", url: `/p/${oids.public}/` });
    const csp = String(response.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("issue 32 item 5: every page, error pages and signed-in pages too, carries the security headers helmet set; a beacon's 204 none", async () => {
    const expected = {
      "cross-origin-opener-policy": "same-origin",
      "cross-origin-resource-policy": "same-site",
      "origin-agent-cluster": "?1",
      "referrer-policy": "strict-origin-when-cross-origin",
      "x-content-type-options": "nosniff",
      "x-dns-prefetch-control": "off",
      "x-download-options": "noopen",
      "x-permitted-cross-domain-policies": "none",
      "x-xss-protection": "0",
      "x-frame-options": "DENY",
    };
    const agent = new TestAgent(app);
    await agent.signUp("headers@podium.test");
    for (const answer of [
      await app.inject({ method: "GET", url: `/p/${oids.public}/` }),
      await app.inject({ method: "GET", url: "/no-such-page" }),
      await agent.get(`/p/${oids.public}/`),
      await agent.get("/settings/"),
    ]) {
      expect(answer.headers, answer.raw.req.url).toMatchObject(expected);
      // TEST_CONFIG's public address is https: a year of HSTS.
      expect(answer.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    }
    const beacon = await app.inject({
      method: "POST",
      url: "/log/json",
      headers: { "content-type": "application/json" },
      payload: "[]",
    });
    expect(beacon.statusCode).toBe(400);
    const accepted = await app.inject({
      method: "POST",
      url: "/log/json",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify([
        { core: { type: "Analytics", event_type: "x" }, user: { session_id: "s1" }, body: { event_name: "x" } },
      ]),
    });
    expect(accepted.statusCode).toBe(204);
    expect(accepted.headers["x-content-type-options"]).toBeUndefined();
    expect(accepted.headers["cross-origin-opener-policy"]).toBeUndefined();
  });

  it("issue 32 item 5: HSTS only for a public address over https (it would pin a host that has none)", () => {
    expect(securityHeaders(true)["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    expect(securityHeaders(false)["strict-transport-security"]).toBeUndefined();
  });

  it("answers JSON errors for API paths and refuses oversized bodies", async () => {
    const missing = await app.inject({ method: "GET", url: "/api/v4/nothing" });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ statusCode: 404 });
    const big = await app.inject({
      method: "POST",
      url: "/api/v4/nothing",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ x: "y".repeat(300 * 1024) }),
    });
    expect([404, 413]).toContain(big.statusCode);
  });

  it("exports the document as JSON that imports back equal (JSON export/import round trip)", async () => {
    const response = await app.inject({ method: "GET", url: `/p/${oids.public}/document.json` });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("application/json");
    const stored = await findPresentationByOid(db, oids.public);
    expect(parseDocument(response.json())).toEqual(stored?.document);
    expect((await app.inject({ method: "GET", url: `/p/${oids.private}/document.json` })).statusCode).toBe(404);
    expect((await app.inject({ method: "GET", url: "/p/not-an-oid/document.json" })).statusCode).toBe(404);
  });

  it("R2.2 the embed page may be framed by any site; every other page refuses framing", async () => {
    const embed = await app.inject({ method: "GET", url: `/p/embed/${oids.public}/?autoplay=1` });
    expect(embed.statusCode).toBe(200);
    expect(String(embed.headers["content-security-policy"])).toContain("frame-ancestors *");
    expect(embed.headers["x-frame-options"]).toBeUndefined();
    expect(pageData(embed.body)).toMatchObject({ embedMode: true, shouldAutoplay: true, isPublicView: false });
    const still = await app.inject({ method: "GET", url: `/p/embed/${oids.public}/` });
    expect(pageData(still.body).shouldAutoplay).toBe(false);
    for (const url of [`/p/${oids.public}/`, "/", "/sitemap.xml", "/p/zzzzzzzzzzzz/"]) {
      const response = await app.inject({ method: "GET", url });
      expect(String(response.headers["content-security-policy"]), url).toContain("frame-ancestors 'none'");
      expect(response.headers["x-frame-options"], url).toBe("DENY");
    }
    expect((await app.inject({ method: "GET", url: `/p/embed/${oids.private}/` })).statusCode).toBe(404);
  });

  it("R2.20 a view link opens a private presentation; revoking it makes it 404 at once", async () => {
    const page = await app.inject({ method: "GET", url: "/view/private-deck-view-link-1/" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["cache-control"]).toBe("private, no-store");
    expect(page.body).toContain('<meta name="robots" content="noindex">');
    const data = pageData(page.body);
    expect(data).toMatchObject({
      oid: oids.private,
      isPublicView: false,
      viewLink: { link_id: "private-deck-view-link-1", key_type: "view_link" },
      documentUrl: "/view/private-deck-view-link-1/document.json",
    });
    const document = await app.inject({ method: "GET", url: "/view/private-deck-view-link-1/document.json" });
    expect(document.statusCode).toBe(200);
    expect((await app.inject({ method: "GET", url: "/view/private-deck-view-link-1/thumbnail.svg" })).statusCode).toBe(
      200,
    );

    expect(await revokeViewLink(db, "private-deck-view-link-1")).toBe(true);
    for (const url of ["/view/private-deck-view-link-1/", "/view/private-deck-view-link-1/document.json"]) {
      expect((await app.inject({ method: "GET", url })).statusCode, url).toBe(404);
    }
    // Another link to the same presentation still works.
    expect((await app.inject({ method: "GET", url: "/view/private-deck-view-link-2/" })).statusCode).toBe(200);
    for (const url of ["/view/unknown-link-unknown-link/", "/view/short/", "/view/<script>/"]) {
      expect((await app.inject({ method: "GET", url })).statusCode, url).toBe(404);
    }
  });

  it("reports health: 200 with the database reachable; ready (issue 16 item 6) once migrated", async () => {
    const response = await app.inject({ method: "GET", url: "/healthz" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ok", database: "ok" });
    const ready = await app.inject({ method: "GET", url: "/readyz" });
    expect(ready.statusCode).toBe(200);
    expect(ready.headers["cache-control"]).toBe("no-store");
    expect(ready.json()).toEqual({ status: "ready", database: "ok", events: "ok" });
  });
});

describe("health without a database", () => {
  it("issue 16 item 6: not ready (503) when the database is unreachable, but alive (200)", async () => {
    const [pglite] = testDatabaseTargets();
    if (!pglite) throw new Error("no PGlite target");
    const { db } = await pglite.create();
    const app = await buildApp(testConfig, db);
    await db.close();
    const ready = await app.inject({ method: "GET", url: "/readyz" });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: "unavailable", database: "unreachable", events: "ok" });
    const response = await app.inject({ method: "GET", url: "/healthz" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ok", database: "unreachable" });
    await app.close();
  });

  it("issue 16 item 6: not ready until every migration is applied, and 503 while draining", async () => {
    const [pglite] = testDatabaseTargets();
    if (!pglite) throw new Error("no PGlite target");
    const { db, drop } = await pglite.create(listMigrations().slice(0, -1));
    const app = await buildApp(testConfig, db);
    try {
      const early = await app.inject({ method: "GET", url: "/readyz" });
      expect(early.statusCode).toBe(503);
      expect(early.json()).toEqual({ status: "unavailable", database: "not-migrated", events: "ok" });
      await migrate(db);
      expect((await app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);
      app.startDraining();
      const draining = await app.inject({ method: "GET", url: "/readyz" });
      expect(draining.statusCode).toBe(503);
      expect(draining.json()).toEqual({ status: "draining", database: "ok", events: "ok" });
      // Still serving while draining.
      expect((await app.inject({ method: "GET", url: "/robots.txt" })).statusCode).toBe(200);
      expect((await app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
    } finally {
      await app.close();
      await drop();
    }
  });
});
