import { gunzipSync, gzipSync } from "node:zlib";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BOOT_DATA_ID } from "../../client/entries";
import type { Database } from "../../db/client";
import { testDatabaseTargets } from "../../db/testing";
import { importMarkdown } from "../../document/markdown";
import { hashPassword } from "../../features/accounts/password";
import { insertUser } from "../../features/accounts/repository";
import { insertPresentationIfAbsent } from "../../features/presentation/repository";
import { jsonForScript } from "../../lib/html";
import { stableOid } from "../../lib/ids";
import { buildApp } from "../app";
import { TEST_CONFIG, TestAgent } from "../testing";
import { BROWSER_HEADERS, decodedBody } from "../testing/browser";
import { fillTemplate, gzipFilledTemplate, makeTemplate, type PageTemplate, PLACEHOLDER_PERSON } from "./personal";

const BOOT = `<script type="application/json" id="${BOOT_DATA_ID}">`;
const someone = {
  label: "Grace Hopper",
  displayName: "Grace Hopper",
  email: "grace@x.test",
  oid: "abcdefgh",
  csrfToken: "tok123",
};

function templateOf(html: string): PageTemplate {
  const template = makeTemplate(html, someone, ["t"]);
  if (!template) throw new Error("no template");
  return template;
}

describe("issue 11 signed-in page templates: filling in a person", () => {
  const P = PLACEHOLDER_PERSON;
  const page = (person: typeof someone) =>
    `<div title="${person.label}"><span>${person.label}</span><input value="${person.csrfToken}"></div>` +
    `${BOOT}${jsonForScript({ name: person.label, email: person.email, csrf: person.csrfToken })}</script>`;

  it("puts each string where its placeholder was, escaped for HTML before the page data and for JSON in it", () => {
    const template = templateOf(page(P));
    const tricky = { ...someone, label: `Zoë "<b>&</b>" O'Neil </script>`, email: "z\u2028@x.test" };
    const html = fillTemplate(template, tricky).toString();
    expect(html).toContain(`<span>Zoë &quot;&lt;b&gt;&amp;&lt;/b&gt;&quot; O&#39;Neil &lt;/script&gt;</span>`);
    expect(html).toContain(`title="Zoë &quot;&lt;b&gt;&amp;&lt;/b&gt;&quot; O&#39;Neil &lt;/script&gt;"`);
    const json = html.slice(html.indexOf(BOOT) + BOOT.length, html.lastIndexOf("</script>"));
    expect(json).not.toContain("</script>");
    expect(JSON.parse(json)).toEqual({ name: tricky.label, email: tricky.email, csrf: "tok123" });
  });

  it("gzips a filled-in page from the template's deflated parts: the same bytes as filling it in", () => {
    // A page's shape: the header's name near the top, a long body, the page data at the end.
    const body = Array.from({ length: 400 }, (_, i) => `<p class="slide">Slide ${i}: punched cards carry data</p>`);
    const template = templateOf(page(P).replace("</div>", `</div>${body.join("")}`));
    for (const person of [someone, { ...someone, label: "", email: "x".repeat(70_000) }]) {
      const zipped = gzipFilledTemplate(template, person);
      const filled = fillTemplate(template, person);
      expect(gunzipSync(zipped).equals(filled)).toBe(true);
      // Compressed for real: within a tenth of gzipping the whole page.
      if (person === someone) expect(zipped.length).toBeLessThan(gzipSync(filled).length * 1.1);
    }
  });

  it("refuses a page where a placeholder was taken apart (a component used a letter of the name)", () => {
    expect(makeTemplate(`<span>${P.label.slice(0, 1)}</span>${page(P)}`, someone, [])).toBeNull();
  });

  it("refuses a page that shows the person's own strings anyway (a field the mask missed)", () => {
    expect(makeTemplate(`${page(P)}<p>${someone.email}</p>`, someone, [])).toBeNull();
    expect(makeTemplate(`${page(P)}<p>${someone.label}</p>`, someone, [])).toBeNull();
  });
});

const PASSWORD = "correct horse battery staple";
const BROWSER = BROWSER_HEADERS;

const bodyOf = decodedBody;

function bootOf(html: string): { session: { viewerName: string; csrfToken: string }; data: Record<string, unknown> } {
  const start = html.lastIndexOf(BOOT) + BOOT.length;
  return JSON.parse(html.slice(start, html.indexOf("</script>", start)));
}

describe.each(testDatabaseTargets())("issue 11 signed-in page templates on $name", (target) => {
  let app: FastifyInstance;
  let plain: FastifyInstance;
  let db: Database;
  let drop: () => Promise<void>;
  const deck = stableOid("personal:deck");
  const path = `/p/${deck}/`;
  let ada: TestAgent;
  let grace: TestAgent;
  let tim: TestAgent;

  let passwordHash = "";
  const person = async (key: string, email: string, firstName: string, lastName: string) =>
    insertUser(db, {
      oid: stableOid(`personal:${key}`),
      email,
      username: key,
      firstName,
      lastName,
      publicDisplayName: null,
      passwordHash,
      isAdmin: false,
      isCurator: false,
    });

  const signIn = async (email: string) => {
    const agent = new TestAgent(app);
    await agent.get("/login/");
    const response = await agent.postForm("/login/", { email, password: PASSWORD, next: "/" });
    expect(response.statusCode).toBe(303);
    agent.cookies.set("podium_cookie_consent", "necessary");
    return agent;
  };

  beforeAll(async () => {
    ({ db, drop } = await target.create());
    // One hash for everyone: hashing is slow on purpose, and this test is about pages.
    passwordHash = await hashPassword(PASSWORD);
    app = await buildApp({ ...TEST_CONFIG, pageCacheMaxBytes: 8 * 1024 * 1024 }, db);
    // The same database and secret without templates: what a plain render gives.
    plain = await buildApp(TEST_CONFIG, db);
    const owner = await person("ada", "ada@personal.test", "Ada", "Lovelace");
    await person("grace", "grace@personal.test", "Grace", "Hopper");
    await person("tim", "tim@personal.test", "Tim", "Berners-Lee");
    await insertPresentationIfAbsent(db, {
      oid: deck,
      ownerId: owner.id,
      title: "Punched cards for beginners",
      descriptionHtml: "<p>Cards.</p>",
      privacy: "public",
      schemaVersion: "0",
      tags: ["cards"],
      document: importMarkdown("# Punched cards\n\nHoles carry data.\n---\n# Looms\n\nJacquard's idea.", "0"),
      viewCount: 5,
      lastModified: new Date("2026-11-01T00:00:00Z"),
    });
    await app.changes.sync();
    ada = await signIn("ada@personal.test");
    grace = await signIn("grace@personal.test");
    tim = await signIn("tim@personal.test");
  });
  afterAll(async () => {
    await plain.close();
    await app.close();
    await drop();
  });

  const view = (agent: TestAgent) => agent.get(path, BROWSER);

  it("renders a page once and fills it in for the next person: byte for byte what a plain render gives", async () => {
    const first = await view(tim);
    expect(first.statusCode).toBe(200);
    expect(first.headers["cache-control"]).toMatch(/private/);
    expect(first.headers["podium-template"]).toBe("miss");
    // The owner's page shows their name as the deck's owner too: it can't be anyone else's template.
    expect((await view(ada)).headers["podium-template"]).toBe("refused");
    const second = await view(grace);
    expect(second.headers["podium-template"]).toBe("hit");
    const html = bodyOf(second);
    const boot = bootOf(html);
    expect(boot.session.viewerName).toBe("Grace Hopper");
    expect(boot.session.csrfToken).toBe(grace.cookies.get("XSRF-TOKEN"));
    expect(boot.data.viewerEmail).toBe("grace@personal.test");
    expect(html).toContain(">Grace Hopper<");
    // Nothing of the person the template was first rendered for.
    expect(html).not.toContain("tim@personal.test");
    expect(html).not.toContain("Berners-Lee");
    expect(html).not.toContain(String(tim.cookies.get("XSRF-TOKEN")));
    const reference = await plain.inject({
      method: "GET",
      url: path,
      headers: { ...BROWSER, cookie: [...grace.cookies].map(([name, value]) => `${name}=${value}`).join("; ") },
    });
    expect(reference.headers["podium-template"]).toBeUndefined();
    expect(html).toBe(bodyOf(reference));
  });

  it("keeps one template per situation: after a like the person sees it, others see the count", async () => {
    await view(grace);
    const like = await grace.api("PUT", `/api/v4/presentation/${deck}/like/`);
    expect(like.statusCode).toBeLessThan(300);
    await app.changes.sync();
    const liked = bootOf(bodyOf(await view(grace)));
    expect(liked.data.hasLikedPrezi).toBe(true);
    expect(liked.data.likesCount).toBe(1);
    const other = bootOf(bodyOf(await view(ada)));
    expect(other.data.hasLikedPrezi).toBe(false);
    expect(other.data.likesCount).toBe(1);
    expect(other.session.viewerName).toBe("Ada Lovelace");
  });

  it("shows an edit on the next signed-in request, and a deck made private is a 404 at once", async () => {
    await view(grace);
    expect((await view(grace)).headers["podium-template"]).toBe("hit");
    await db.query("update presentations set title = $1 where oid = $2", ["Punched cards, revised", deck]);
    await app.changes.sync();
    expect(bodyOf(await view(grace))).toContain("Punched cards, revised");
    await db.query("update presentations set privacy = 'private' where oid = $1", [deck]);
    await app.changes.sync();
    expect((await view(grace)).statusCode).toBe(404);
    // The owner still sees it.
    expect((await view(ada)).statusCode).toBe(200);
    await db.query("update presentations set privacy = 'public' where oid = $1", [deck]);
    await app.changes.sync();
  });
});
