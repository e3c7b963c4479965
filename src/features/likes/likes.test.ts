import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { testDatabaseTargets } from "../../db/testing";
import { stableOid } from "../../lib/ids";
import { createTestApp, insertTestDeck, insertTestUser, TestAgent, useTestApp } from "../../server/testing";
import { startSession } from "../accounts/service";
import { findAccessFacts, insertViewLinkIfAbsent, revokeViewLink } from "../presentation/repository";
import type { Viewer } from "../viewer";
import { applyLikeChanges } from "./repository";
import { createLikeService } from "./service";

const publicOid = stableOid("likes:public");
const privateOid = stableOid("likes:private");

async function seedPresentations(db: Database) {
  const owner = await insertTestUser(db, {
    oid: stableOid("likes:owner"),
    email: "owner@likes.test",
    username: "likes-owner",
    firstName: "Owen",
    lastName: "Er",
  });
  for (const [oid, privacy] of [
    [publicOid, "public"],
    [privateOid, "private"],
  ] as const) {
    await insertTestDeck(db, {
      oid,
      ownerId: owner.id,
      title: `A ${privacy} deck`,
      privacy,
    });
  }
  await insertViewLinkIfAbsent(db, { linkId: "likes-view-link-0001", presentationOid: privateOid });
}

/** A signed-in agent without going through scrypt: a user row, a session, and a page to get the token. */
async function signedInAgent(app: FastifyInstance, db: Database, key: string): Promise<TestAgent> {
  const user = await insertTestUser(db, {
    oid: stableOid(`likes:user:${key}`),
    email: `${key}@likes.test`,
    username: `likes-${key}`,
    firstName: "Like",
    lastName: key,
  });
  const agent = new TestAgent(app);
  agent.cookies.set("podium_session", await startSession(db, user.id));
  await agent.get("/settings/");
  if (!agent.cookies.get("XSRF-TOKEN")) throw new Error("no XSRF-TOKEN after a signed-in page");
  return agent;
}

async function likeRows(db: Database, oid: string) {
  const [row] = await db.query<{ rows: number; stored: number }>(
    `select (select count(*)::int from likes l where l.presentation_id = p.id) as rows,
            (select coalesce(sum(c.count), 0)::int from like_counters c where c.presentation_id = p.id) as stored
       from presentations p where p.oid = $1`,
    [oid],
  );
  return row;
}

describe.each(testDatabaseTargets())("the like API on $name", (target) => {
  const t = useTestApp(target);
  beforeAll(async () => {
    await seedPresentations(t.db);
  });
  const url = (oid: string) => `/api/v4/presentation/${oid}/like/`;

  it("R7.1 PUT likes and DELETE unlikes, idempotently, with the exact count", async () => {
    const agent = await signedInAgent(t.app, t.db, "idem");
    const first = await agent.api("PUT", url(publicOid));
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ liked: true, likesCount: 1 });
    expect((await agent.api("PUT", url(publicOid))).json()).toEqual({ liked: true, likesCount: 1 });
    expect(await likeRows(t.db, publicOid)).toEqual({ rows: 1, stored: 1 });
    expect((await agent.api("DELETE", url(publicOid))).json()).toEqual({ liked: false, likesCount: 0 });
    expect((await agent.api("DELETE", url(publicOid))).json()).toEqual({ liked: false, likesCount: 0 });
    expect(await likeRows(t.db, publicOid)).toEqual({ rows: 0, stored: 0 });
  });

  it("R4.3 the page tells a liker they have liked (hasLikedPrezi)", async () => {
    const agent = await signedInAgent(t.app, t.db, "page");
    await agent.api("PUT", url(publicOid));
    const page = await agent.get(`/p/${publicOid}/`);
    const boot = JSON.parse(/id="podium-boot">([^<]*)</.exec(page.body)?.[1] ?? "{}");
    expect(boot.data).toMatchObject({ hasLikedPrezi: true, likesCount: 1, isAuthenticated: true });
    expect(page.headers["cache-control"]).toBe("private, no-store");
    await agent.api("DELETE", url(publicOid));
  });

  it("401 when not signed in, always with a JSON message", async () => {
    const agent = new TestAgent(t.app);
    await agent.get("/login/");
    const response = await agent.api("PUT", url(publicOid));
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ statusCode: 401, message: "Sign in to like presentations." });
  });

  it("R5.2 403 for every CSRF failure: missing header, header ≠ cookie, another session's token, another site", async () => {
    const agent = await signedInAgent(t.app, t.db, "csrf");
    const other = await signedInAgent(t.app, t.db, "csrf-other");
    const cases: [string, Record<string, string>][] = [
      ["missing header", { "x-xsrf-token": "" }],
      ["header ≠ cookie", { "x-xsrf-token": "not-the-token" }],
      ["another session's token", { "x-xsrf-token": other.cookies.get("XSRF-TOKEN") ?? "" }],
      ["cross-site origin", { origin: "https://evil.example" }],
      ["cross-site fetch", { "sec-fetch-site": "cross-site" }],
    ];
    for (const [name, headers] of cases) {
      const response = await agent.api("PUT", url(publicOid), headers);
      expect(response.statusCode, name).toBe(403);
      expect(response.json().message, name).toMatch(/CSRF token|Cross-site/);
    }
    expect(await likeRows(t.db, publicOid)).toEqual({ rows: 0, stored: 0 });
    // Our own origin is fine.
    expect((await agent.api("PUT", url(publicOid), { origin: "https://podium.example" })).statusCode).toBe(200);
    await agent.api("DELETE", url(publicOid));
  });

  it("R5.2 forms are protected too: a signup or logout without the token is refused", async () => {
    const agent = await signedInAgent(t.app, t.db, "forms");
    const logout = await agent.postForm("/logout", {}, { csrf: null });
    expect(logout.statusCode).toBe(403);
    expect((await agent.get("/settings/")).statusCode).toBe(200);
    const anonymous = new TestAgent(t.app);
    const signup = await anonymous.postForm(
      "/signup/",
      { firstName: "X", lastName: "", publicDisplayName: "", email: "x@likes.test", password: "long enough password" },
      { csrf: null },
    );
    expect(signup.statusCode).toBe(403);
  });

  it("404 for unknown or malformed oids, and for a presentation the viewer may not see", async () => {
    const agent = await signedInAgent(t.app, t.db, "status");
    const unknown = await agent.api("PUT", url(stableOid("likes:nothing")));
    expect(unknown.statusCode).toBe(404);
    expect((await agent.api("PUT", url("BAD-OID"))).statusCode).toBe(404);
    // A private deck answers like an unknown one: no 403 that would say it exists.
    const denied = await agent.api("PUT", url(privateOid));
    expect(denied.statusCode).toBe(404);
    expect(denied.json()).toEqual(unknown.json());
  });

  it("R7.2 likes through a view link; a revoked link is 404; a wrong key type is 400", async () => {
    const agent = await signedInAgent(t.app, t.db, "link");
    const byLink = "/api/v4/presentation/like/?auth_key=likes-view-link-0001&key_type=view_link";
    expect((await agent.api("PUT", byLink)).json()).toEqual({ liked: true, likesCount: 1 });
    expect((await agent.api("DELETE", byLink)).json()).toEqual({ liked: false, likesCount: 0 });
    expect(
      (await agent.api("PUT", "/api/v4/presentation/like/?auth_key=likes-view-link-0001&key_type=other")).statusCode,
    ).toBe(400);
    await insertViewLinkIfAbsent(t.db, { linkId: "likes-view-link-0002", presentationOid: privateOid });
    await revokeViewLink(t.db, "likes-view-link-0002");
    expect(
      (await agent.api("PUT", "/api/v4/presentation/like/?auth_key=likes-view-link-0002&key_type=view_link"))
        .statusCode,
    ).toBe(404);
    expect((await agent.api("PUT", "/api/v4/presentation/like/")).statusCode).toBe(400);
  });

  it("keeps the count equal to the rows under 200 parallel likes and unlikes from 50 people", async () => {
    const agents = await Promise.all(Array.from({ length: 50 }, (_, i) => signedInAgent(t.app, t.db, `crowd${i}`)));
    const calls = Array.from({ length: 200 }, (_, i) => {
      const agent = agents[i % agents.length];
      if (!agent) throw new Error("no agent");
      return agent.api(i % 3 === 2 ? "DELETE" : "PUT", url(publicOid));
    });
    const responses = await Promise.all(calls);
    expect(responses.every((r) => r.statusCode === 200)).toBe(true);
    const counts = await likeRows(t.db, publicOid);
    expect(counts?.stored).toBe(counts?.rows);
    expect(counts?.rows).toBeGreaterThan(0);
  });
});

describe.each(testDatabaseTargets().slice(0, 1))("like rate limit on $name", (target) => {
  it("answers 429 with Retry-After and a JSON message beyond the per-person limit", async () => {
    const { app, db, close } = await createTestApp(target, { likeRateLimitPerMinute: 3 });
    try {
      await seedPresentations(db);
      const agent = await signedInAgent(app, db, "fast");
      const statuses: number[] = [];
      let last = await agent.api("PUT", `/api/v4/presentation/${publicOid}/like/`);
      statuses.push(last.statusCode);
      for (let i = 0; i < 4; i += 1) {
        last = await agent.api("PUT", `/api/v4/presentation/${publicOid}/like/`);
        statuses.push(last.statusCode);
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      expect(Number(last.headers["retry-after"])).toBeGreaterThan(0);
      expect(last.json().message).toMatch(/Too many requests/);
    } finally {
      await close();
    }
  });

  it("hardening 6: one budget per person across like and unlike, by oid and by view link", async () => {
    const { app, db, close } = await createTestApp(target, { likeRateLimitPerMinute: 6 });
    try {
      await seedPresentations(db);
      const agent = await signedInAgent(app, db, "alternating");
      const byLink = "/api/v4/presentation/like/?auth_key=likes-view-link-0001&key_type=view_link";
      const byOid = `/api/v4/presentation/${publicOid}/like/`;
      // Every method and route in turn: separate counters would allow four times the budget.
      const calls = [
        ["PUT", byOid],
        ["DELETE", byOid],
        ["PUT", byLink],
        ["DELETE", byLink],
      ] as const;
      const statuses: number[] = [];
      let last = await agent.api("PUT", byOid);
      statuses.push(last.statusCode);
      for (let i = 1; i < 16; i += 1) {
        const [method, path] = calls[i % calls.length] ?? calls[0];
        last = await agent.api(method, path);
        statuses.push(last.statusCode);
      }
      expect(statuses).toEqual([...Array(6).fill(200), ...Array(10).fill(429)]);
      expect(Number(last.headers["retry-after"])).toBeGreaterThan(0);
      expect(last.json()).toEqual({
        statusCode: 429,
        message: expect.stringMatching(/^Too many requests\. Please wait \d+ seconds? and try again\.$/),
      });
      // The budget is the person's: someone else still has theirs.
      const other = await signedInAgent(app, db, "patient");
      expect((await other.api("PUT", byOid)).statusCode).toBe(200);
    } finally {
      await close();
    }
  });
});

/** A person with an account, straight in the database (no session needed by the services). */
async function person(db: Database, key: string): Promise<NonNullable<Viewer>> {
  const user = await insertTestUser(db, {
    oid: stableOid(`likes:person:${key}`),
    email: `${key}@batch.likes.test`,
    username: `batch-${key}`,
    firstName: "Batch",
    lastName: key,
  });
  return { ...user, userId: user.id, language: null };
}

describe.each(testDatabaseTargets())("like changes written in batches on $name", (target) => {
  let db: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await target.create());
    await seedPresentations(db);
  });
  afterAll(() => drop());

  it("R7.1 one batch applies each change as if alone and in order, with each change's count", async () => {
    const [ann, bob, cid] = await Promise.all(["ann", "bob", "cid"].map((key) => person(db, key)));
    if (!ann || !bob || !cid) throw new Error("no people");
    const open = { openOid: publicOid };
    const counts = await applyLikeChanges(db, [
      { userId: ann.userId, target: open, liked: true },
      { userId: bob.userId, target: open, liked: true },
      { userId: ann.userId, target: open, liked: false }, // the same person again: a later round
      { userId: cid.userId, target: open, liked: true },
      { userId: cid.userId, target: open, liked: true }, // idempotent
      { userId: bob.userId, target: { openOid: privateOid }, liked: true }, // not open to everyone
      { userId: bob.userId, target: { openOid: stableOid("likes:absent") }, liked: true },
    ]);
    // Round one: ann, bob and cid like (3); round two: ann unlikes and cid likes again (2).
    expect(counts).toEqual([3, 3, 2, 3, 2, null, null]);
    expect(await likeRows(db, publicOid)).toEqual({ rows: 2, stored: 2 });
    const privateDeck = await findAccessFacts(db, privateOid);
    if (!privateDeck) throw new Error("no private deck");
    // By id, once the policy has said yes.
    expect(
      await applyLikeChanges(db, [{ userId: ann.userId, target: { presentationId: privateDeck.id }, liked: true }]),
    ).toEqual([1]);
    expect(await likeRows(db, privateOid)).toEqual({ rows: 1, stored: 1 });
    await applyLikeChanges(
      db,
      [ann, bob, cid].map((p) => ({ userId: p.userId, target: { presentationId: privateDeck.id }, liked: false })),
    );
    await applyLikeChanges(
      db,
      [bob, cid].map((p) => ({ userId: p.userId, target: open, liked: false })),
    );
    expect(await likeRows(db, publicOid)).toEqual({ rows: 0, stored: 0 });
    expect(await likeRows(db, privateOid)).toEqual({ rows: 0, stored: 0 });
  });

  it("keeps the count equal to the rows when two servers' batches of one presentation run at once", async () => {
    // Two services are two app processes: their batches run side by side on separate connections.
    const servers = [createLikeService(db), createLikeService(db)];
    const people = await Promise.all(Array.from({ length: 40 }, (_, i) => person(db, `crowd-${i}`)));
    const calls = Array.from({ length: 400 }, (_, i) => {
      const server = servers[i % 2];
      const viewer = people[(i * 7) % people.length];
      if (!server || !viewer) throw new Error("no server or person");
      return server.setLiked(viewer, { oid: publicOid }, i % 3 !== 2);
    });
    const answers = await Promise.all(calls);
    expect(answers.every((answer, i) => answer.liked === (i % 3 !== 2))).toBe(true);
    expect(answers.every((answer) => answer.likesCount >= 0 && answer.likesCount <= people.length)).toBe(true);
    const counts = await likeRows(db, publicOid);
    expect(counts?.stored).toBe(counts?.rows);
    // Calls of one person in flight at once have no order, so which of them wins is open; the
    // rows and the count must agree whatever it is.
    expect(counts?.rows).toBeGreaterThan(0);
  });
});
