import type { FastifyInstance } from "fastify";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { testDatabaseTargets } from "../db/testing";
import { buildApp } from "../server/app";
import { SESSION_COOKIE } from "../server/plugins/session";
import { countingDatabase, pageDataOf, TEST_CONFIG, TestAgent, withTwoServers } from "../server/testing";
import { BROWSER_HEADERS } from "../server/testing/browser";
import type { PresentationPageData } from "./presentation/page-data";

/**
 * Issue 32 item 5: a signed-in view page runs no statement once its process keeps the session
 * (accounts/kept-sessions.ts) and the page's facts (view-page/kept-facts.ts). What a person does
 * to their own state still shows on their next page, and what another process or the database
 * changes shows once the change feed has told this process (migration 0030's triggers): a
 * session ended, a changed account, a like, a collaborator's right.
 */

const DECK = "# Kept for the viewer\n\nA slide about what a process keeps.\n\n---\n\n# Second\n\nMore.";

/** The page data a signed-in agent gets for the deck, and what it says about them. */
async function viewAs(agent: TestAgent, oid: string) {
  const response = await agent.get(`/p/${oid}/`, { ...BROWSER_HEADERS, "accept-encoding": "identity" });
  expect(response.statusCode).toBe(200);
  return pageDataOf<PresentationPageData>(response.body);
}

describe.each(testDatabaseTargets())("issue 32 item 5: kept sessions and viewer facts ($name)", (target) => {
  let app: FastifyInstance;
  let statements: string[];
  let drop: () => Promise<void>;
  let raw: Awaited<ReturnType<typeof target.create>>["db"];
  let owner: TestAgent;
  let viewer: TestAgent;
  let oid: string;

  beforeAll(async () => {
    const created = await target.create();
    raw = created.db;
    drop = created.drop;
    const counted = countingDatabase(raw);
    statements = counted.statements;
    // The search index reads in the background: off, so every statement counted is a page's.
    app = await buildApp({ ...TEST_CONFIG, searchIndex: "database" }, counted.db);
    owner = new TestAgent(app);
    await owner.signUp("kept-owner@podium.test");
    oid = await owner.newDeck({ name: "kept.md", content: DECK }, { privacy: "private" });
    expect(oid).toMatch(/^[a-z0-9]{12}$/);
    viewer = new TestAgent(app);
    await viewer.signUp("kept-viewer@podium.test", "correct horse battery", { firstName: "Vera", lastName: "Viewer" });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await drop?.();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("asked again, a signed-in view page runs no statement: its session, counts, right and like are kept", async () => {
    await raw.query("update presentations set privacy = 'public' where oid = $1", [oid]);
    await app.changes.sync();
    // The counts are kept for COUNTS_KEPT_MS: the clock stands still, so a slow machine reads them once.
    vi.useFakeTimers({ toFake: ["Date"] });
    const first = await viewAs(viewer, oid);
    expect(first.viewerEmail).toBe("kept-viewer@podium.test");
    statements.length = 0;
    const again = await viewAs(viewer, oid);
    expect(again.viewerEmail).toBe("kept-viewer@podium.test");
    expect(statements).toEqual([]);
    // Once the counts are older than that, one statement reads them (and nothing else).
    vi.setSystemTime(Date.now() + 1_500);
    await viewAs(viewer, oid);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toContain("like_counters");
  });

  it("a like and an unlike show on the liker's next page, and the count with them", async () => {
    const before = await viewAs(viewer, oid);
    expect(before.hasLikedPrezi).toBe(false);
    expect((await viewer.api("PUT", `/api/v4/presentation/${oid}/like/`)).statusCode).toBe(200);
    const liked = await viewAs(viewer, oid);
    expect(liked.hasLikedPrezi).toBe(true);
    expect(liked.likesCount).toBe(before.likesCount + 1);
    expect((await viewer.api("DELETE", `/api/v4/presentation/${oid}/like/`)).statusCode).toBe(200);
    const unliked = await viewAs(viewer, oid);
    expect(unliked.hasLikedPrezi).toBe(false);
    expect(unliked.likesCount).toBe(before.likesCount);
  });

  it("a like written elsewhere (another process, the database) shows once the feed has told this one", async () => {
    await viewAs(viewer, oid);
    await raw.query(
      `insert into likes (user_id, presentation_id)
       select u.id, p.id from users u, presentations p where u.email = $1 and p.oid = $2`,
      ["kept-viewer@podium.test", oid],
    );
    await app.changes.sync();
    expect((await viewAs(viewer, oid)).hasLikedPrezi).toBe(true);
    await raw.query("delete from likes where presentation_id = (select id from presentations where oid = $1)", [oid]);
    await app.changes.sync();
    expect((await viewAs(viewer, oid)).hasLikedPrezi).toBe(false);
  });

  it("a collaborator's right taken away closes a private deck at once: the kept right goes with it", async () => {
    await raw.query("update presentations set privacy = 'private' where oid = $1", [oid]);
    await raw.query(
      `insert into collaborators (presentation_id, user_id, access_right)
       select p.id, u.id, 'edit' from users u, presentations p where u.email = $1 and p.oid = $2`,
      ["kept-viewer@podium.test", oid],
    );
    await app.changes.sync();
    const shared = await viewAs(viewer, oid);
    expect(shared.viewerRights.edit).toBe(true);
    await raw.query("delete from collaborators where presentation_id = (select id from presentations where oid = $1)", [
      oid,
    ]);
    await app.changes.sync();
    const closed = await viewer.get(`/p/${oid}/`, BROWSER_HEADERS);
    expect(closed.statusCode).toBe(404);
    await raw.query("update presentations set privacy = 'public' where oid = $1", [oid]);
    await app.changes.sync();
  });

  it("a name or email changed shows on the next page: the kept session goes with the account's change", async () => {
    await viewAs(viewer, oid);
    const saved = await viewer.postForm("/settings/", {
      firstName: "Renamed",
      lastName: "Viewer",
      publicDisplayName: "",
      language: "",
    });
    expect(saved.statusCode).toBe(303);
    expect((await viewAs(viewer, oid)).viewerName).toBe("Renamed Viewer");
    // Written straight into the database, as an admin's tool or another process would.
    await raw.query("update users set email = 'kept-viewer-2@podium.test' where email = 'kept-viewer@podium.test'");
    await app.changes.sync();
    expect((await viewAs(viewer, oid)).viewerEmail).toBe("kept-viewer-2@podium.test");
  });

  it("a session signed out is refused at once, kept or not; a password change ends the person's other sessions", async () => {
    const second = new TestAgent(app);
    await second.signUp("kept-leaver@podium.test");
    const other = new TestAgent(app);
    other.cookies.set(SESSION_COOKIE, String(second.cookies.get(SESSION_COOKIE)));
    expect((await viewAs(other, oid)).viewerEmail).toBe("kept-leaver@podium.test");
    // A password change from `second` ends `other`'s session (the same cookie isn't "other"; a new sign-in is).
    const elsewhere = new TestAgent(app);
    await elsewhere.get("/login/");
    const login = await elsewhere.postForm("/login/", {
      email: "kept-leaver@podium.test",
      password: "correct horse battery",
    });
    expect(login.statusCode).toBe(303);
    expect((await viewAs(elsewhere, oid)).viewerEmail).toBe("kept-leaver@podium.test");
    await second.get("/settings/");
    const changed = await second.postForm("/settings/password", {
      currentPassword: "correct horse battery",
      newPassword: "another horse battery",
    });
    expect(changed.statusCode).toBe(303);
    expect((await viewAs(elsewhere, oid)).viewerEmail).toBeNull();
    expect((await viewAs(second, oid)).viewerEmail).toBe("kept-leaver@podium.test");

    // Signing out ends the cookie's session: the same cookie, sent again, is nobody's.
    expect((await viewAs(other, oid)).viewerEmail).toBe("kept-leaver@podium.test");
    expect((await second.postForm("/logout", {})).statusCode).toBe(303);
    expect((await viewAs(other, oid)).viewerEmail).toBeNull();
  });

  it("a session deleted in the database (an account removed elsewhere) is refused once the feed has told", async () => {
    const gone = new TestAgent(app);
    await gone.signUp("kept-gone@podium.test");
    expect((await viewAs(gone, oid)).viewerEmail).toBe("kept-gone@podium.test");
    await raw.query("delete from users where email = 'kept-gone@podium.test'");
    await app.changes.sync();
    expect((await viewAs(gone, oid)).viewerEmail).toBeNull();
  });
});

const postgres = testDatabaseTargets().find((candidate) => candidate.name === "postgres");

describe.skipIf(!postgres)("issue 32 item 5: kept sessions across processes on PostgreSQL", () => {
  it("a sign-out through one server ends the session on another that kept it; a like through one shows on the other", async () => {
    if (!postgres) return;
    await withTwoServers(postgres, {}, async ({ first, second }) => {
      const agent = new TestAgent(first);
      await agent.signUp("kept-two@podium.test");
      const oid = await agent.newDeck({ name: "two.md", content: DECK }, { privacy: "public" });
      const there = new TestAgent(second);
      there.cookies.set(SESSION_COOKIE, String(agent.cookies.get(SESSION_COOKIE)));
      expect((await viewAs(there, oid)).viewerEmail).toBe("kept-two@podium.test");
      expect((await viewAs(there, oid)).viewerEmail).toBe("kept-two@podium.test");
      expect((await agent.postForm("/logout", {})).statusCode).toBe(303);
      // The second server has heard everything committed before its barrier: the sign-out too.
      await second.changes.sync();
      expect((await viewAs(there, oid)).viewerEmail).toBeNull();

      // A like through the first server shows on the second, which kept the person's facts.
      const liker = new TestAgent(first);
      await liker.signUp("kept-liker@podium.test");
      const same = new TestAgent(second);
      same.cookies.set(SESSION_COOKIE, String(liker.cookies.get(SESSION_COOKIE)));
      expect((await viewAs(same, oid)).hasLikedPrezi).toBe(false);
      expect((await liker.api("PUT", `/api/v4/presentation/${oid}/like/`)).statusCode).toBe(200);
      // On the first at once (it told itself); on the second once the feed has brought the NOTIFY.
      expect((await viewAs(liker, oid)).hasLikedPrezi).toBe(true);
      await second.changes.sync();
      expect((await viewAs(same, oid)).hasLikedPrezi).toBe(true);
    });
  }, 60_000);
});
