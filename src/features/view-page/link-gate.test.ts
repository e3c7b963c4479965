import { beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "../../db/testing";
import { TestAgent, useTestApp } from "../../server/testing";
import { LOGIN_FREE_FAILURES } from "../accounts/login-throttle";
import { linkGrantCookie } from "../presentation/link-gate";

const DECK = "# Quarterly numbers for Acme\n## Confidential\n---\n# Revenue\n- Up\n---\n# Costs\n- Down";
const TITLE = "Quarterly numbers for Acme";

/**
 * Issue 33 item 3: view links an owner controls. A closed link (turned off, expired, wrong or no
 * passcode) says so in words and tells nothing of the deck; every route through it answers 404.
 */
describe.each(testDatabaseTargets())("I33.3 view links an owner controls, on $name", (target) => {
  const t = useTestApp(target, { owner: "owner@links.test" });
  /** A signed-in visitor, for the like API (signed out, a like is a 401 whatever the link). */
  let liker: TestAgent;
  beforeAll(async () => {
    liker = new TestAgent(t.app);
    await liker.signUp("liker@links.test");
  });

  /** A private deck with one link; its oid and link id. */
  const deckWithLink = async (name = "Investor: Acme") => {
    const oid = await t.owner.newDeck({ name: "acme.md", content: DECK }, { privacy: "private" });
    const made = await t.owner.postForm(`/dashboard/next/presentations/${oid}/view-links`, { name });
    expect(made.statusCode).toBe(303);
    const manage = await t.owner.get(`/dashboard/next/presentations/${oid}/`);
    const linkId = /\/view\/([A-Za-z0-9_-]{32})\//.exec(manage.body)?.[1] ?? "";
    expect(linkId).not.toBe("");
    return { oid, linkId };
  };

  const settings = (oid: string, linkId: string, form: Record<string, string>) =>
    t.owner.postForm(`/dashboard/next/presentations/${oid}/view-links/${linkId}/settings`, {
      name: "Investor: Acme",
      expiresOn: "",
      passcode: "",
      enabled: "on",
      ...form,
    });

  /** Every route through the link, as a visitor holding `agent`'s cookies asks for it. */
  const linkRoutes = (linkId: string) => [
    `/view/${linkId}/document.json`,
    `/view/${linkId}/thumbnail.svg`,
    `/view/${linkId}/thumbnail-plain.svg`,
    `/view/${linkId}/presenter/`,
    `/view/${linkId}/read/`,
  ];

  const expectClosedEverywhere = async (agent: TestAgent, oid: string, linkId: string) => {
    for (const url of linkRoutes(linkId)) {
      const response = await agent.get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toContain(TITLE);
    }
    const like = await liker.api("PUT", `/api/v4/presentation/like/?auth_key=${linkId}&key_type=view_link`);
    expect(like.statusCode).toBe(404);
    expect((await agent.get(`/p/embed/${oid}/`)).statusCode).toBe(404);
  };

  const expectRevealsNothing = (body: string, oid: string) => {
    expect(body).not.toContain(TITLE);
    expect(body).not.toContain(oid);
    expect(body).not.toContain("thumbnail.svg");
  };

  it("I33.3 the owner names a link; the list shows its name, views and last view (the owner's own don't count)", async () => {
    const { oid, linkId } = await deckWithLink();
    let manage = await t.owner.get(`/dashboard/next/presentations/${oid}/`);
    expect(manage.body).toContain("Investor: Acme");
    expect(manage.body).toContain("no views");
    expect(manage.body).toContain("not opened yet");
    await t.owner.get(`/view/${linkId}/`);
    const visitor = new TestAgent(t.app);
    expect((await visitor.get(`/view/${linkId}/`)).statusCode).toBe(200);
    expect((await new TestAgent(t.app).get(`/view/${linkId}/`)).statusCode).toBe(200);
    manage = await t.owner.get(`/dashboard/next/presentations/${oid}/`);
    expect(manage.body).toContain("2 views");
    expect(manage.body).toContain("last view");
    const renamed = await settings(oid, linkId, { name: "Board: <b>Q3</b>" });
    expect(renamed.statusCode).toBe(303);
    manage = await t.owner.get(`/dashboard/next/presentations/${oid}/`);
    expect(manage.body).toContain("Board: &lt;b&gt;Q3&lt;/b&gt;");
    const tooLong = await settings(oid, linkId, { name: "x".repeat(101) });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.body).toContain("at most 100 characters");
    const badDate = await settings(oid, linkId, { expiresOn: "2026-02-30" });
    expect(badDate.statusCode).toBe(400);
    // Someone else can't change it (to whom the private deck doesn't exist), nor a form without the CSRF token.
    expect(
      (await liker.postForm(`/dashboard/next/presentations/${oid}/view-links/${linkId}/settings`, {})).statusCode,
    ).toBe(404);
    expect(
      (await t.owner.postForm(`/dashboard/next/presentations/${oid}/view-links/${linkId}/settings`, {}, { csrf: null }))
        .statusCode,
    ).toBe(403);
  });

  it("I33.3 a link turned off says so in words, reveals nothing, and every route through it is a 404; on again, it opens", async () => {
    const { oid, linkId } = await deckWithLink();
    const visitor = new TestAgent(t.app);
    expect((await visitor.get(`/view/${linkId}/document.json`)).statusCode).toBe(200);
    expect((await settings(oid, linkId, { enabled: "" })).statusCode).toBe(303);
    const page = await visitor.get(`/view/${linkId}/`);
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain("This link is turned off");
    expectRevealsNothing(page.body, oid);
    await expectClosedEverywhere(visitor, oid, linkId);
    expect((await t.owner.get(`/dashboard/next/presentations/${oid}/`)).body).toContain("Turned off: it opens nothing");
    expect((await settings(oid, linkId, { enabled: "on" })).statusCode).toBe(303);
    expect((await visitor.get(`/view/${linkId}/`)).statusCode).toBe(200);
  });

  it("I33.3 an expired link says so in words and every route through it is a 404; a later date opens it again", async () => {
    const { oid, linkId } = await deckWithLink();
    expect((await settings(oid, linkId, { expiresOn: "2020-01-31" })).statusCode).toBe(303);
    const visitor = new TestAgent(t.app);
    const page = await visitor.get(`/view/${linkId}/`);
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain("This link has expired");
    expectRevealsNothing(page.body, oid);
    await expectClosedEverywhere(visitor, oid, linkId);
    const [row] = await t.db.query<{ expiresAt: Date }>(
      `select expires_at as "expiresAt" from view_links where link_id = $1`,
      [linkId],
    );
    // The last day chosen works to its end (UTC).
    expect(row?.expiresAt.toISOString()).toBe("2020-02-01T00:00:00.000Z");
    expect((await t.owner.get(`/dashboard/next/presentations/${oid}/`)).body).toContain("Expired: it opens nothing");
    const future = new Date(Date.now() + 3 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    expect((await settings(oid, linkId, { expiresOn: future })).statusCode).toBe(303);
    expect((await visitor.get(`/view/${linkId}/`)).statusCode).toBe(200);
  });

  it("I33.3 a passcode: asked for in a form, a wrong one refused in words, the right one opens every route in this browser only", async () => {
    const { oid, linkId } = await deckWithLink();
    const short = await settings(oid, linkId, { passcode: "abc" });
    expect(short.statusCode).toBe(400);
    expect((await settings(oid, linkId, { passcode: "harbour-42" })).statusCode).toBe(303);
    const [stored] = await t.db.query<{ hash: string }>(
      "select passcode_hash as hash from view_links where link_id = $1",
      [linkId],
    );
    expect(stored?.hash).toMatch(/^scrypt\$/);
    expect(stored?.hash).not.toContain("harbour-42");

    const visitor = new TestAgent(t.app);
    const asked = await visitor.get(`/view/${linkId}/`);
    expect(asked.statusCode).toBe(401);
    expect(asked.body).toContain("Enter the passcode");
    expect(asked.body).toContain(`action="/view/${linkId}/passcode"`);
    expectRevealsNothing(asked.body, oid);
    await expectClosedEverywhere(visitor, oid, linkId);

    const wrong = await visitor.postForm(`/view/${linkId}/passcode`, { passcode: "harbour-43" });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain("That passcode isn&#x27;t right");
    expectRevealsNothing(wrong.body, oid);
    // Without the CSRF token the form is refused.
    expect(
      (await visitor.postForm(`/view/${linkId}/passcode`, { passcode: "harbour-42" }, { csrf: null })).statusCode,
    ).toBe(403);

    const right = await visitor.postForm(`/view/${linkId}/passcode`, { passcode: "harbour-42" });
    expect(right.statusCode).toBe(303);
    expect(right.headers.location).toBe(`/view/${linkId}/`);
    expect(visitor.cookies.has(linkGrantCookie(linkId))).toBe(true);
    expect((await visitor.get(`/view/${linkId}/`)).statusCode).toBe(200);
    for (const url of linkRoutes(linkId).slice(0, 3)) expect((await visitor.get(url)).statusCode, url).toBe(200);
    // Another browser still gets the form, and a made-up grant opens nothing.
    const other = new TestAgent(t.app);
    other.cookies.set(linkGrantCookie(linkId), "A".repeat(43));
    expect((await other.get(`/view/${linkId}/`)).statusCode).toBe(401);
    expect((await other.get(`/view/${linkId}/document.json`)).statusCode).toBe(404);

    // A new passcode makes the old grant worthless; removing it opens the link to all.
    expect((await settings(oid, linkId, { passcode: "lighthouse-7" })).statusCode).toBe(303);
    expect((await visitor.get(`/view/${linkId}/document.json`)).statusCode).toBe(404);
    expect((await settings(oid, linkId, { removePasscode: "on" })).statusCode).toBe(303);
    expect((await new TestAgent(t.app).get(`/view/${linkId}/`)).statusCode).toBe(200);
  });

  it("I33.3 passcode guesses are throttled like logins: after the free failures, 429 with Retry-After and words", async () => {
    const { oid, linkId } = await deckWithLink();
    expect((await settings(oid, linkId, { passcode: "harbour-42" })).statusCode).toBe(303);
    const guesser = new TestAgent(t.app);
    await guesser.get(`/view/${linkId}/`);
    for (let i = 0; i < LOGIN_FREE_FAILURES; i += 1) {
      expect((await guesser.postForm(`/view/${linkId}/passcode`, { passcode: `guess-${i}` })).statusCode).toBe(401);
    }
    const held = await guesser.postForm(`/view/${linkId}/passcode`, { passcode: "harbour-42" });
    expect(held.statusCode).toBe(429);
    expect(Number(held.headers["retry-after"])).toBeGreaterThan(0);
    expect(held.body).toContain("Too many attempts");
    expectRevealsNothing(held.body, oid);
  });
});
