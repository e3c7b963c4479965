import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { testDatabaseTargets } from "../../db/testing";
import en from "../../i18n/messages/en.json";
import { createTestApp, TEST_CONFIG, TestAgent } from "../../server/testing";
import { linkGrantCookie, linkGrantFor } from "../link-grant";
import { DEFAULT_EVENT_RETENTION_DAYS } from "./retention";
import { STEP_ENGAGEMENT_EVENT, STEP_TIME_SLACK_MS, type StepBatch } from "./step-engagement";
import { ADDRESS_VIEWS_PER_HOUR, storeEventBatch, VIEW_WINDOW_MINUTES } from "./store-batch";
import { acceptedEvent, PERFORMANCE_CONSENT, postStepBatch } from "./testing";
import { createVisitorIds } from "./visitor-id";

const DECK = "# One\n---\n# Two\n---\n# Three";

/**
 * Issue 33, the step events' honesty: a script can't inflate a deck's figures (only a visitor the
 * server signed an id for, never more time than has passed since, steps within the deck, an
 * address's visitors capped like views), events through a passcode link count only with the
 * link's grant, and events without consent are not stored (issue 33 item 6).
 */
describe.each(testDatabaseTargets())("I33 step events are bounded on $name", (target) => {
  let app: FastifyInstance;
  let db: Database;
  let close: () => Promise<void>;
  let owner: TestAgent;
  let oid = "";
  let linkId = "";
  const visitorIds = createVisitorIds(TEST_CONFIG.secret ?? "");
  beforeAll(async () => {
    ({ app, db, close } = await createTestApp(target));
    owner = new TestAgent(app);
    await owner.signUp("owner@step-bounds.test");
    await owner.get("/dashboard/next/");
    const created = await owner.importDeck({ name: "three.md", content: DECK }, { privacy: "public" });
    oid = /presentations\/([a-z0-9]{12})\//.exec(String(created.headers.location))?.[1] ?? "";
    await owner.postForm(`/dashboard/next/presentations/${oid}/view-links`, { name: "Board" });
    linkId =
      /\/view\/([A-Za-z0-9_-]{32})\//.exec((await owner.get(`/dashboard/next/presentations/${oid}/`)).body)?.[1] ?? "";
  });
  afterAll(() => close());

  const send = (
    session: string,
    batch: StepBatch,
    options: { cookie?: string; issuedAgoMs?: number | null; address?: string } = {},
  ) => {
    const issuedAgo = options.issuedAgoMs === undefined ? 10 * 60_000 : options.issuedAgoMs;
    const visitorId = issuedAgo === null ? null : visitorIds.issue(oid, session, Date.now() - issuedAgo);
    return postStepBatch(app, { oid, session, visitorId, batch }, options);
  };
  /** Visits that reached step 0 (all audiences, or one link). */
  const reached = async (link = "") => {
    await app.usageEvents.flush();
    const [row] = await db.query<{ n: number }>(
      `select coalesce(sum(reached), 0)::int as n from presentation_step_daily d
         join presentations p on p.id = d.presentation_id
        where p.oid = $1 and d.step = 0 and d.link_id = $2`,
      [oid, link],
    );
    return row?.n ?? 0;
  };
  const stored = async (session: string) => {
    await app.usageEvents.flush();
    const [row] = await db.query<{ n: number }>(
      "select count(*)::int as n from usage_event_log where session_id = $1 and event_name = $2",
      [session, STEP_ENGAGEMENT_EVENT],
    );
    return row?.n ?? 0;
  };
  const one = { stays: [{ s: 0, ms: 1_000, f: 1 as const }] };

  it("I33.2 a step event counts only with the visitor id the server signed for its session and deck", async () => {
    const before = await reached();
    expect((await send("signed", one)).statusCode).toBe(204);
    expect(await reached()).toBe(before + 1);
    // No id, an id made up, another session's id: stored, and they add nothing.
    expect((await send("unsigned", one, { issuedAgoMs: null })).statusCode).toBe(204);
    await send("made-up", { ...one, visitor_id: "v1.abc.0123456789012345678901" });
    await send("borrowed", { ...one, visitor_id: visitorIds.issue(oid, "signed", Date.now() - 60_000) });
    expect(await stored("unsigned")).toBe(1);
    expect(await reached()).toBe(before + 1);
  });

  it("I33.2 a visitor claims no more time than has passed since its id was issued (plus slack), however it splits it", async () => {
    const before = await reached();
    // Issued a minute ago: 50 s fits, then 40 s more doesn't (90 s > 60 s + slack, however long
    // the request takes to arrive on a busy machine, up to 15 s).
    const minute = { issuedAgoMs: 60_000 };
    await send("clock", { stays: [{ s: 0, ms: 50_000, f: 1 }] }, minute);
    await send("clock", { stays: [{ s: 1, ms: 40_000, f: 1 }] }, minute);
    // Issued just now (its id says half a minute ahead, within the clocks' allowed skew, so no time
    // has passed for it however slow the machine): an hour's stay, or a thousand 0 ms stays (each
    // charged a minimum), add nothing.
    const justNow = { issuedAgoMs: -30_000 };
    await send("fresh", { stays: [{ s: 0, ms: 3_600_000, f: 1 }] }, justNow);
    const many = Array.from({ length: 100 }, (_, i) => ({ s: 0, ms: 0, ...(i === 0 ? { f: 1 as const } : {}) }));
    for (let i = 0; i < 10; i++) await send("zeros", { stays: many }, justNow);
    expect(await reached()).toBe(before + 1);
    const [row] = await db.query<{ n: number }>(
      `select count(*)::int as n from presentation_step_daily d join presentations p on p.id = d.presentation_id
        where p.oid = $1 and d.step = 1`,
      [oid],
    );
    expect(row?.n ?? 0).toBe(0);
    expect(STEP_TIME_SLACK_MS).toBeLessThan(25_000);
  });

  it("I33.2 issue 29 one visitor's claims in one batch are judged in the order they arrived, even in the same millisecond", async () => {
    const before = await reached();
    const at = Date.now();
    const sessionId = "same-millisecond";
    const claim = (id: string, stay: { s: number; ms: number; f?: 1 }) => {
      const event = acceptedEvent({
        oid,
        eventName: STEP_ENGAGEMENT_EVENT,
        sessionId,
        at,
        id,
        step: { claimedMs: stay.ms, budgetMs: 75_000, link: null, linkGrant: null },
      });
      event.payload = JSON.stringify({ body: { event_name: STEP_ENGAGEMENT_EVENT, oid, stays: [stay] } });
      return event;
    };
    // 50 s of a 75 s budget arrives first and counts; 40 s more doesn't. The later claim's id sorts
    // first: judged by id, it counted and the first didn't.
    await storeEventBatch(db, [
      claim("ffffffff-ffff-4fff-bfff-ffffffffffff", { s: 0, ms: 50_000, f: 1 }),
      claim("00000000-0000-4000-8000-000000000000", { s: 1, ms: 40_000, f: 1 }),
    ]);
    expect(await reached()).toBe(before + 1);
    const [row] = await db.query<{ n: number }>(
      `select coalesce(sum(d.reached), 0)::int as n from presentation_step_daily d join presentations p on p.id = d.presentation_id
        where p.oid = $1 and d.step = 1 and d.link_id = ''`,
      [oid],
    );
    expect(row?.n ?? 0).toBe(0);
  });

  it("I33.2 steps beyond the deck's path add nothing", async () => {
    const before = await reached();
    await send("beyond", {
      stays: [
        { s: 0, ms: 1_000, f: 1 },
        { s: 3, ms: 1_000, f: 1 },
      ],
    });
    expect(await reached()).toBe(before);
  });

  it("I33.2 one address adds at most ADDRESS_VIEWS_PER_HOUR visitors of a deck an hour (a script's fresh ids count no more)", async () => {
    const before = await reached();
    for (let i = 0; i <= ADDRESS_VIEWS_PER_HOUR + 4; i++) {
      await send(`script-${i}`, one, { address: "198.51.100.77" });
    }
    expect(await reached()).toBe(before + ADDRESS_VIEWS_PER_HOUR);
    // A visitor it already added goes on counting; another address is not held back.
    await send("script-0", { stays: [{ s: 1, ms: 1_000, f: 1 }] }, { address: "198.51.100.77" });
    await send("elsewhere", one, { address: "198.51.100.78" });
    expect(await reached()).toBe(before + ADDRESS_VIEWS_PER_HOUR + 1);
  });

  it("I33.3 through a view link with a passcode, step events count only with the link's grant cookie", async () => {
    const settings = await owner.postForm(`/dashboard/next/presentations/${oid}/view-links/${linkId}/settings`, {
      name: "Board",
      expiresOn: "",
      passcode: "open sesame",
      enabled: "on",
    });
    expect(settings.statusCode).toBe(303);
    const [link] = await db.query<{ passcodeHash: string }>(
      `select passcode_hash as "passcodeHash" from view_links where link_id = $1`,
      [linkId],
    );
    const grant = linkGrantFor({ linkId, passcodeHash: link?.passcodeHash ?? "" });
    const viaLink = { ...one, link: linkId };
    await send("no-grant", viaLink);
    await send("wrong-grant", viaLink, {
      cookie: `${PERFORMANCE_CONSENT}; ${linkGrantCookie(linkId)}=${"x".repeat(43)}`,
    });
    expect(await reached(linkId)).toBe(0);
    await send("granted", viaLink, { cookie: `${PERFORMANCE_CONSENT}; ${linkGrantCookie(linkId)}=${grant}` });
    expect(await reached(linkId)).toBe(1);
  });

  it("I33.6 without consent to performance cookies a step event is not stored at all (answered 204)", async () => {
    const before = await reached();
    expect((await send("no-consent", one, { cookie: "" })).statusCode).toBe(204);
    expect((await send("refused", one, { cookie: "podium_cookie_consent=necessary" })).statusCode).toBe(204);
    expect(await stored("no-consent")).toBe(0);
    expect(await stored("refused")).toBe(0);
    expect(await reached()).toBe(before);
  });
});

describe("I33.6 the analytics page's privacy text says what the code does", () => {
  it("I33.6 its figures are the code's: the view window, the address cap, how long raw events are kept; step events only with consent", () => {
    const text = en["engagement.privacy"];
    expect(text).toContain(`once in ${VIEW_WINDOW_MINUTES} minutes`);
    expect(text).toContain(`at most ${ADDRESS_VIEWS_PER_HOUR} views from one address in an hour`);
    expect(text).toContain(`kept for ${DEFAULT_EVENT_RETENTION_DAYS} days`);
    expect(text).toContain("only from visitors who allowed performance cookies");
    expect(text).toContain("The address itself is never kept");
  });
});
