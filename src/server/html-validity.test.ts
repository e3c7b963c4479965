import type { LightMyRequestResponse } from "fastify";
import { HtmlValidate, type Message } from "html-validate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/client";
import { testDatabaseTargets } from "../db/testing";
import { documentFromPages } from "../document/pdf-pages";
import { findUserByEmail } from "../features/accounts/repository";
import { insertReport } from "../features/moderation/repository";
import { insertViewLinkIfAbsent } from "../features/presentation/repository";
import type { Locale } from "../i18n/locales";
import { stableOid } from "../lib/ids";
import { DEMO_PASSWORD, DEMO_VIEW_LINKS } from "./seed/seed";
import { createTestApp, insertTestDeck, TestAgent } from "./testing";
import { HTML_VALIDATE_CONFIG } from "./testing/html-validate-config";

/**
 * Issue 12: every page kind Podium serves is valid HTML, as the server sends it (html-validate's
 * recommended preset, `html-validate-config.ts`). A page kind is one row of PAGE_KINDS: a name,
 * who asks (nobody, or a demo account) and the address, which may depend on the seeded data.
 * Add a row when a page kind is added.
 */

type Who = "anonymous" | "ada" | "grace" | "tim";

interface Fixture {
  /** An oid by the demo deck's slug. */
  deck(slug: string): string;
  pdfDeck: string;
  /** One of Ada's decks (she is the admin and curator). */
  adaDeck: string;
  adaClassicDeck: string;
  adaUserOid: string;
  viewLink: string;
  /** Issue 28: a view link made for presenting Ada's pitch deck (which has speaker notes). */
  presentingLink: string;
}

interface PageKind {
  page: string;
  who: Who;
  path: (fixture: Fixture) => string;
  /** The status the page is answered with (200 unless told). */
  status?: number;
  /** The language cookie the visitor has (none: English). */
  language?: Locale;
}

const PDF_DECK = stableOid("issue12:pdf-deck");
/** Issue 35: a live session of Ada's pitch deck, and an ended one (codes of the live alphabet). */
const LIVE_CODE = "HTMV4ABC";
const ENDED_LIVE_CODE = "ENDED234";
const PRESENTING_LINK = "html-validity-presenting-link";

const PAGE_KINDS: PageKind[] = [
  { page: "live follow page (issue 35)", who: "anonymous", path: () => `/live/${LIVE_CODE}` },
  { page: "live follow page, German (issue 35)", who: "anonymous", path: () => `/live/${LIVE_CODE}`, language: "de" },
  { page: "live session ended (issue 35)", who: "anonymous", path: () => `/live/${ENDED_LIVE_CODE}`, status: 404 },
  { page: "live join page (issue 35)", who: "anonymous", path: () => "/live/" },
  { page: "live join page, a wrong code (issue 35)", who: "anonymous", path: () => "/live/?code=nope", status: 400 },
  { page: "home", who: "anonymous", path: () => "/" },
  { page: "home (signed in)", who: "tim", path: () => "/" },
  { page: "home (signed in as admin and curator)", who: "ada", path: () => "/" },
  { page: "explore", who: "anonymous", path: () => "/explore/" },
  { page: "search results", who: "anonymous", path: () => "/explore/search/?search=bread" },
  { page: "search without results", who: "anonymous", path: () => "/explore/search/?search=zzqqxx" },
  { page: "view page (Markdown, classic)", who: "anonymous", path: (f) => `/p/${f.deck("sourdough-basics")}/` },
  {
    page: "view page (rich text, pitch)",
    who: "anonymous",
    path: (f) => `/p/${f.deck("typescript-generics-in-practice")}/`,
  },
  { page: "view page (PDF-imported)", who: "anonymous", path: (f) => `/p/${f.pdfDeck}/` },
  { page: "view page (signed in)", who: "tim", path: (f) => `/p/${f.deck("sourdough-basics")}/` },
  { page: "view page (owner, admin and curator)", who: "ada", path: (f) => `/p/${f.adaDeck}/` },
  {
    page: "view page (German)",
    who: "anonymous",
    language: "de",
    path: (f) => `/p/${f.deck("sourdough-basics")}/`,
  },
  { page: "view page (Japanese, signed in)", who: "tim", language: "ja", path: (f) => `/p/${f.pdfDeck}/` },
  { page: "embed page", who: "anonymous", path: (f) => `/p/embed/${f.deck("sourdough-basics")}/` },
  { page: "embed page (PDF-imported)", who: "anonymous", path: (f) => `/p/embed/${f.pdfDeck}/` },
  { page: "view-link page", who: "anonymous", path: (f) => `/view/${f.viewLink}/` },
  { page: "view-link page (collaborator)", who: "grace", path: () => `/view/${DEMO_VIEW_LINKS[1].linkId}/` },
  // Issue 28: the presenter view is its editors' (and a presenting link's).
  // Issue 35: with its live session's panel (code, QR code, a question).
  { page: "presenter view", who: "ada", path: (f) => `/p/presenter/${f.adaDeck}/` },
  { page: "presenter view (view link)", who: "anonymous", path: (f) => `/view/${f.presentingLink}/presenter/` },
  { page: "reading mode", who: "anonymous", path: (f) => `/p/read/${f.deck("sourdough-basics")}/` },
  { page: "reading mode (signed in, PDF-imported)", who: "tim", path: (f) => `/p/read/${f.pdfDeck}/` },
  { page: "reading mode (view link)", who: "anonymous", path: (f) => `/view/${f.viewLink}/read/` },
  { page: "staff picks", who: "anonymous", path: () => "/gallery/" },
  { page: "templates", who: "anonymous", path: () => "/presentation-template/" },
  { page: "template", who: "anonymous", path: () => "/presentation-template/product-launch/" },
  { page: "template (signed in)", who: "tim", path: () => "/presentation-template/product-launch/" },
  { page: "videos", who: "anonymous", path: () => "/video/explore/" },
  { page: "video page", who: "anonymous", path: () => "/video" },
  { page: "education page", who: "anonymous", path: () => "/edu/prezi-video-edu" },
  { page: "product page", who: "anonymous", path: () => "/product/" },
  // Issue 34: the embed API's documentation, a step link, and an embed with every option.
  { page: "developers: embed API", who: "anonymous", path: () => "/developers/embed/" },
  { page: "view page, step link", who: "anonymous", path: (f) => `/p/${f.deck("sourdough-basics")}/?step=2` },
  {
    page: "embed with options",
    who: "anonymous",
    path: (f) => `/p/embed/${f.deck("sourdough-basics")}/?start=2&loop=1&controls=0&title=0&chrome=light`,
  },
  { page: "profile", who: "anonymous", path: (f) => `/user/${f.adaUserOid}/` },
  { page: "profile (signed in)", who: "tim", path: (f) => `/user/${f.adaUserOid}/` },
  { page: "login", who: "anonymous", path: () => "/login/" },
  { page: "signup", who: "anonymous", path: () => "/signup/" },
  { page: "signup (Korean)", who: "anonymous", language: "ko", path: () => "/signup/" },
  // Issue 13, R2.8: plain /signup/ is the segmentation step; with a next it is the form.
  {
    page: "signup after segmentation",
    who: "anonymous",
    path: () => `/signup/?next=${encodeURIComponent("/dashboard/next?after_segmentation_url=/v/create/")}`,
  },
  { page: "new presentation", who: "tim", path: () => "/v/create/" },
  { page: "settings", who: "tim", path: () => "/settings/" },
  { page: "settings (saved)", who: "tim", path: () => "/settings/?saved=profile" },
  { page: "dashboard", who: "ada", path: () => "/dashboard/next/" },
  { page: "dashboard (no presentations)", who: "tim", path: () => "/dashboard/next/" },
  { page: "dashboard details", who: "ada", path: (f) => `/dashboard/next/presentations/${f.adaDeck}/` },
  { page: "editor (pitch)", who: "ada", path: (f) => `/p/edit/${f.adaDeck}/` },
  { page: "editor (classic)", who: "ada", path: (f) => `/${f.adaClassicDeck}/edit/` },
  { page: "report page", who: "tim", path: (f) => `/contact/abuse/${f.deck("sourdough-basics")}/` },
  { page: "moderation queue (one open report)", who: "ada", path: () => "/admin/reports/" },
  { page: "curation", who: "ada", path: (f) => `/curation/${f.deck("sourdough-basics")}/` },
  { page: "404 page", who: "anonymous", path: () => "/no-such-page/", status: 404 },
  { page: "404 page (signed in)", who: "tim", path: () => "/no-such-page/", status: 404 },
  { page: "404 page (unknown presentation)", who: "anonymous", path: () => "/p/zzzzzzzzzzzz/", status: 404 },
  { page: "403 page (moderation, not an admin)", who: "tim", path: () => "/admin/reports/", status: 403 },
  { page: "400 page (malformed address)", who: "anonymous", path: () => "/p/%E0%A4%A/", status: 400 },
];

/** One line per error: where it is and what it says, to read in a failing test's output. */
function describeMessages(messages: Message[]): string[] {
  return messages.map(
    (message) => `${message.line}:${message.column} ${message.ruleId}: ${message.message} (${message.selector ?? ""})`,
  );
}

describe("issue 12 HTML validity", () => {
  const target = testDatabaseTargets()[0];
  if (!target) throw new Error("no test database");
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  let db: Database;
  let fixture: Fixture;
  const agents = new Map<string, TestAgent>();
  const validator = new HtmlValidate(HTML_VALIDATE_CONFIG);

  async function agentFor(who: Who, language: Locale | undefined): Promise<TestAgent> {
    const key = `${who} ${language ?? ""}`;
    const known = agents.get(key);
    if (known) return known;
    const agent = new TestAgent(harness.app);
    if (language) agent.cookies.set("language", language);
    if (who !== "anonymous") {
      await agent.get("/login/");
      const response = await agent.postForm("/login/", {
        email: `${who}@podium.test`,
        password: DEMO_PASSWORD,
        next: "/",
      });
      expect(response.statusCode).toBe(303);
    }
    agents.set(key, agent);
    return agent;
  }

  beforeAll(async () => {
    harness = await createTestApp(target, {}, { seeded: true });
    db = harness.db;
    const ada = await findUserByEmail(db, "ada@podium.test");
    if (!ada) throw new Error("the seed has no Ada");
    await insertTestDeck(db, {
      oid: PDF_DECK,
      ownerId: ada.id,
      title: "A PDF-imported deck",
      descriptionHtml: "<p>Three pages of a PDF.</p>",
      tags: ["pdf"],
      document: documentFromPages(
        [1, 2, 3].map((page) => ({
          width: 595,
          height: 842,
          lines: [`Page ${page} heading`, `The text of page ${page}.`],
          src: `/assets/${String(page).repeat(64)}.webp`,
        })),
        "2",
      ),
    });
    const reported = await db.query<{ id: string }>("select id from presentations where oid = $1", [
      stableOid("deck:sourdough-basics"),
    ]);
    await insertReport(db, {
      presentationId: String(reported[0]?.id),
      reporterId: null,
      reason: "copyright",
      details: "It copies my <slides> & notes.",
    });
    const adaDecks = await db.query<{ oid: string; schema_version: string }>(
      "select oid, schema_version from presentations where owner_id = $1 and oid <> $2 order by oid",
      [ada.id, PDF_DECK],
    );
    const pitch = adaDecks.find((row) => row.schema_version === "2");
    const classic = adaDecks.find((row) => row.schema_version === "0");
    if (!pitch || !classic) throw new Error("Ada needs a pitch and a classic deck");
    // Issue 28: speaker notes on her pitch deck (its manage page shows their choice) and a link for presenting it.
    await db.query(
      `update presentations set document = jsonb_set(document, '{topics,0,notes}', to_jsonb('Speak slowly.'::text)) where oid = $1`,
      [pitch.oid],
    );
    await insertViewLinkIfAbsent(db, { linkId: PRESENTING_LINK, presentationOid: pitch.oid, forPresenting: true });
    await db.query(
      `insert into live_sessions (presentation_id, code, started_by, ended_at)
       select id, unnest($2::text[]), owner_id, unnest($3::timestamptz[]) from presentations where oid = $1`,
      [pitch.oid, [LIVE_CODE, ENDED_LIVE_CODE], [null, new Date()]],
    );
    await db.query(
      `insert into live_questions (session_id, text, votes, answered, follower_id)
       select id, 'Why <b>tides</b>?', 3, true, 'html-validity-follow' from live_sessions where code = $1`,
      [LIVE_CODE],
    );
    fixture = {
      deck: (slug) => stableOid(`deck:${slug}`),
      pdfDeck: PDF_DECK,
      adaDeck: pitch.oid,
      adaClassicDeck: classic.oid,
      adaUserOid: ada.oid,
      viewLink: DEMO_VIEW_LINKS[0].linkId,
      presentingLink: PRESENTING_LINK,
    };
  }, 120_000);

  afterAll(async () => {
    await harness.close();
  });

  for (const { page, who, path, status, language } of PAGE_KINDS)
    it(`issue 12 HTML validity: ${page} has 0 errors`, async () => {
      const agent = await agentFor(who, language);
      const url = path(fixture);
      let response: LightMyRequestResponse = await agent.get(url);
      // Follow the page's own redirects (an editor of the other style), as a browser would.
      for (let hops = 0; hops < 3 && response.statusCode >= 300 && response.statusCode < 400; hops += 1) {
        response = await agent.get(String(response.headers.location));
      }
      expect(response.statusCode, `${url}: ${response.body.slice(0, 200)}`).toBe(status ?? 200);
      expect(String(response.headers["content-type"])).toMatch(/^text\/html/);
      expect(response.body).toContain(`<html lang="${language ?? "en"}"`);
      const report = await validator.validateString(response.body, url);
      const errors = report.results.flatMap((result) => result.messages);
      expect(describeMessages(errors), url).toEqual([]);
    });
});
