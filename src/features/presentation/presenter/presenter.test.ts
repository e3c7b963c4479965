import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../../db/client";
import { testDatabaseTargets } from "../../../db/testing";
import { importMarkdown } from "../../../document/markdown";
import { stableOid } from "../../../lib/ids";
import { createTestApp, insertTestDeck, signUpRoles, TestAgent } from "../../../server/testing";
import { playerPropsOf } from "../components/player/player-props";
import type { PresentationPageData } from "../page-data";
import { insertViewLinkIfAbsent, type Privacy, revokeViewLink, upsertCollaborator } from "../repository";
import type { PresenterPageData } from "./page-data";

const oids = {
  public: stableOid("presenter:public"),
  unlisted: stableOid("presenter:unlisted"),
  private: stableOid("presenter:private"),
  hidden: stableOid("presenter:hidden"),
};
/** Issue 28: made for presenting (its holder may open the presenter view). */
const LINK = "presenterLink_0123456789abcdef";
/** An ordinary view link: it shows the deck, not the presenter view. */
const WATCH_LINK = "watchLink_0123456789abcdef";
const REVOKED_LINK = "presenterLink_revoked_0123456789";

function bootData(html: string): PresenterPageData {
  const json = /<script type="application\/json" id="podium-boot">([\s\S]*?)<\/script>/.exec(html)?.[1];
  if (!json) throw new Error("no boot data on the page");
  const data = (JSON.parse(json) as { data: PresenterPageData | { presenter: PresenterPageData } }).data;
  // Issue 35: the presenter view's data comes with its live panel's (features/live).
  return "presenter" in data ? data.presenter : data;
}

describe.each(testDatabaseTargets())("issue 10: the presenter view's routes on $name", (target) => {
  let app: FastifyInstance;
  let db: Database;
  let close: () => Promise<void>;
  const owner = {} as TestAgent;
  const agents = { owner, collaborator: owner, stranger: owner };

  beforeAll(async () => {
    ({ app, db, close } = await createTestApp(target));
    const { agents: signedUp, ids } = await signUpRoles(
      app,
      db,
      ["owner", "collaborator", "stranger"],
      "presenter.test",
    );
    Object.assign(agents, signedUp);
    const document = importMarkdown("# One\n---\n# Two\n---\n# Three", "2");
    const first = document.topics[0];
    if (first) first.notes = "Welcome everyone.\n\nMention the <tide> & the moon.";
    for (const [key, oid] of Object.entries(oids)) {
      await insertTestDeck(db, {
        oid,
        ownerId: ids.owner ?? "",
        title: `Presenter ${key} deck`,
        privacy: (key === "hidden" ? "public" : key) as Privacy,
        document,
      });
    }
    await db.query("update presentations set hidden = true where oid = $1", [oids.hidden]);
    const [privateRow] = await db.query<{ id: string }>("select id::text as id from presentations where oid = $1", [
      oids.private,
    ]);
    await upsertCollaborator(db, privateRow?.id ?? "", ids.collaborator ?? "", "comment");
    await insertViewLinkIfAbsent(db, { linkId: LINK, presentationOid: oids.private, forPresenting: true });
    await insertViewLinkIfAbsent(db, { linkId: WATCH_LINK, presentationOid: oids.private });
    await insertViewLinkIfAbsent(db, { linkId: REVOKED_LINK, presentationOid: oids.private });
    await revokeViewLink(db, REVOKED_LINK);
  });
  afterAll(() => close());

  const anonymous = () => new TestAgent(app);

  it("issue 10, 28: a public deck's presenter view is a 200 page for its owner, never indexed or cached", async () => {
    const response = await agents.owner.get(`/p/presenter/${oids.public}/`);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/html/);
    expect(response.body).toContain('<meta name="robots" content="noindex">');
    expect(response.headers["cache-control"]).toBe("private, no-store");
    expect(response.body).toContain("<title>Presenter view: Presenter public deck · Podium</title>");
    expect(bootData(response.body)).toEqual({
      oid: oids.public,
      title: "Presenter public deck",
      documentUrl: `/p/${oids.public}/document.json`,
      stepCount: 3,
    });
    // Rendered on the server without a clock: the timer reads 00:00 and there is no time of day yet.
    expect(response.body).toContain(">00:00</time>");
    // It sets no cookie of its own, so no cookie banner covers the speaker's controls.
    expect(response.body).toContain('data-cookies="off"');
    expect(response.body).not.toContain("cookie-banner");
    expect(response.body).not.toMatch(/<time datetime="\d{4}-/);
    // The notes come from document.json, not the page.
    expect(response.body).not.toContain("Welcome everyone");
  });

  it("issue 10, 28: the document the presenter view loads carries the notes for the owner only", async () => {
    const response = await agents.owner.get(`/p/${oids.public}/document.json`);
    expect(response.statusCode).toBe(200);
    expect(response.json().topics[0].notes).toBe("Welcome everyone.\n\nMention the <tide> & the moon.");
    const audience = await anonymous().get(`/p/${oids.public}/document.json`);
    expect(audience.statusCode).toBe(200);
    expect(audience.json().topics[0].notes).toBeUndefined();
  });

  it("issue 28: who may see a deck but not edit it gets no presenter view: signed out, the sign-in page", async () => {
    expect((await agents.owner.get(`/p/presenter/${oids.unlisted}/`)).statusCode).toBe(200);
    expect((await agents.stranger.get(`/p/presenter/${oids.unlisted}/`)).statusCode).toBe(403);
    const signedOut = await anonymous().get(`/p/presenter/${oids.unlisted}/`);
    expect(signedOut.statusCode).toBe(303);
    expect(signedOut.headers.location).toBe(`/login/?next=${encodeURIComponent(`/p/presenter/${oids.unlisted}/`)}`);
  });

  it("issue 10, 28: a private deck's presenter view is a 404 for people who can't see it, a 403 for a commenter", async () => {
    expect((await anonymous().get(`/p/presenter/${oids.private}/`)).statusCode).toBe(404);
    expect((await agents.stranger.get(`/p/presenter/${oids.private}/`)).statusCode).toBe(404);
    expect((await agents.owner.get(`/p/presenter/${oids.private}/`)).statusCode).toBe(200);
    expect((await agents.collaborator.get(`/p/presenter/${oids.private}/`)).statusCode).toBe(403);
  });

  it("issue 10: a hidden deck's presenter view is its owner's only", async () => {
    expect((await anonymous().get(`/p/presenter/${oids.hidden}/`)).statusCode).toBe(404);
    expect((await agents.stranger.get(`/p/presenter/${oids.hidden}/`)).statusCode).toBe(404);
    expect((await agents.owner.get(`/p/presenter/${oids.hidden}/`)).statusCode).toBe(200);
  });

  it("issue 28: an ordinary view link shows the deck but not its presenter view", async () => {
    expect((await anonymous().get(`/view/${WATCH_LINK}/`)).statusCode).toBe(200);
    expect((await anonymous().get(`/view/${WATCH_LINK}/presenter/`)).statusCode).toBe(403);
    expect((await anonymous().get(`/view/${WATCH_LINK}/document.json`)).json().topics[0].notes).toBeUndefined();
  });

  it("issue 10, 28: through a live view link made for presenting anyone may open the presenter view; it reads the document by the link", async () => {
    const response = await anonymous().get(`/view/${LINK}/presenter/`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<meta name="robots" content="noindex">');
    expect(response.headers["referrer-policy"]).toBe("no-referrer");
    expect(bootData(response.body).documentUrl).toBe(`/view/${LINK}/document.json`);
  });

  it("issue 10: a revoked, unknown or malformed link or oid is a 404", async () => {
    for (const url of [
      `/view/${REVOKED_LINK}/presenter/`,
      "/view/unknownLink_0123456789abcdef/presenter/",
      "/view/short/presenter/",
      "/p/presenter/nope/",
      "/p/presenter/ABCDEFGHIJKL/",
      `/p/presenter/${stableOid("presenter:missing")}/`,
    ]) {
      expect((await anonymous().get(url)).statusCode, url).toBe(404);
    }
  });

  it("issue 10: the view pages point the player at their presenter view; the embed has none", async () => {
    const propsOf = async (url: string) => {
      const response = await agents.owner.get(url);
      expect(response.statusCode, url).toBe(200);
      return playerPropsOf(bootData(response.body) as unknown as PresentationPageData, {
        titleIsHeading: false,
        viewOnPodium: false,
      });
    };
    expect(await propsOf(`/p/${oids.public}/`)).toMatchObject({
      presenterUrl: `/p/presenter/${oids.public}/`,
      canEdit: true,
    });
    expect(await propsOf(`/view/${LINK}/`)).toMatchObject({ presenterUrl: `/view/${LINK}/presenter/` });
    expect(await propsOf(`/p/embed/${oids.public}/`)).toMatchObject({ presenterUrl: null });
    const stranger = await agents.stranger.get(`/p/${oids.public}/`);
    expect(
      playerPropsOf(bootData(stranger.body) as unknown as PresentationPageData, {
        titleIsHeading: false,
        viewOnPodium: false,
      }).canEdit,
    ).toBe(false);
  });

  it("issue 10: a deck titled Presenter keeps its own view page at /p/{oid}/presenter/", async () => {
    const response = await anonymous().get(`/p/${oids.public}/presenter/`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("<title>Presenter public deck · Podium</title>");
    expect(response.body).not.toContain('class="presenter"');
  });
});
