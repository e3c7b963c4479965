import type { FastifyInstance } from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { testDatabaseTargets } from "../../db/testing";
import { createTestApp, TestAgent, useTestApp } from "../../server/testing";
import { startSession } from "../accounts/service";

async function agentFor(app: FastifyInstance, db: Database, email: string): Promise<TestAgent> {
  const [user] = await db.query<{ id: string }>("select id::text as id from users where email = $1", [email]);
  if (!user) throw new Error(`no user ${email}`);
  const agent = new TestAgent(app);
  agent.cookies.set("podium_session", await startSession(db, user.id));
  await agent.get("/settings/");
  return agent;
}

describe.each(testDatabaseTargets())("search, catalog, moderation, curation, copies and events on $name", (target) => {
  const t = useTestApp(target, { seeded: true });
  let oidOf: (slug: string) => Promise<string>;
  beforeAll(async () => {
    const sitemap = (await t.app.inject({ method: "GET", url: "/sitemap.xml" })).body;
    oidOf = async (slug) =>
      /\/p\/([a-z0-9]{12})\/([a-z0-9-]+)\//g.exec(sitemap.split("\n").find((line) => line.includes(slug)) ?? "")?.[1] ??
      "";
  });

  it("R2.4 searches titles, tags and slide text by word prefixes; unlisted and private never show", async () => {
    const byTitle = await t.app.inject({ method: "GET", url: "/explore/search/?search=sourd" });
    expect(byTitle.statusCode).toBe(200);
    expect(byTitle.body).toContain("Sourdough Basics");
    const bySlideText = await t.app.inject({ method: "GET", url: "/explore/search/?search=autolyse" });
    expect(bySlideText.body).toContain("Sourdough Basics");
    const hostile = await t.app.inject({
      method: "GET",
      url: "/explore/search/?search=%27%29%3B%20drop%20table%20users%3B%20--%20%26%20%21",
    });
    expect(hostile.statusCode).toBe(200);
    for (const hidden of ["kitchen", "lumenly%20board"]) {
      const response = await t.app.inject({ method: "GET", url: `/explore/search/?search=${hidden}` });
      expect(response.body).not.toContain("Kitchen Renovation");
      expect(response.body).not.toContain("Board Update");
    }
    const empty = await t.app.inject({ method: "GET", url: "/explore/search/?search=%20" });
    expect(empty.statusCode).toBe(303);
    expect(empty.headers.location).toBe("/explore/");
  });

  it("R2.11 serves the pages the view page links to", async () => {
    for (const url of [
      "/explore/",
      "/gallery/",
      "/presentation-template/",
      "/video/explore/",
      "/video",
      "/edu/prezi-video-edu",
      "/product/",
    ]) {
      expect((await t.app.inject({ method: "GET", url })).statusCode, url).toBe(200);
    }
    const templates = await t.app.inject({ method: "GET", url: "/presentation-template/" });
    const slug = /\/presentation-template\/([a-z0-9-]+)\//.exec(templates.body)?.[1];
    expect((await t.app.inject({ method: "GET", url: `/presentation-template/${slug}/` })).statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/presentation-template/no-such-template/" })).statusCode).toBe(
      404,
    );
    const video = await t.app.inject({ method: "GET", url: "/video/explore/" });
    const thumbnail = /\/video\/thumbnail\/[a-z0-9-]+\.svg/.exec(video.body)?.[0] ?? "";
    const svg = await t.app.inject({ method: "GET", url: thumbnail });
    expect(svg.statusCode).toBe(200);
    expect(svg.headers["content-type"]).toContain("image/svg+xml");
    expect((await t.app.inject({ method: "GET", url: "/video/thumbnail/..%2Fsecret.svg" })).statusCode).toBe(404);
  });

  it("reports go to the queue; only admins see it and hide; hidden is 404 to others but not the owner", async () => {
    const oid = await oidOf("the-apollo-program");
    const anonymous = new TestAgent(t.app);
    await anonymous.get(`/contact/abuse/${oid}/`);
    const bad = await anonymous.postForm(`/contact/abuse/${oid}/`, { reason: "nonsense", details: "" });
    expect(bad.statusCode).toBe(400);
    const sent = await anonymous.postForm(`/contact/abuse/${oid}/`, { reason: "spam", details: "Spam links" });
    expect(sent.statusCode).toBe(200);
    expect(sent.body).toContain("Thank you for your report");
    const user = await agentFor(t.app, t.db, "grace@podium.test");
    expect((await user.get("/admin/reports/")).statusCode).toBe(403);
    expect((await new TestAgent(t.app).get("/admin/reports/")).statusCode).toBe(303);
    const admin = await agentFor(t.app, t.db, "ada@podium.test");
    const queue = await admin.get("/admin/reports/");
    expect(queue.body).toContain("Spam links");
    const id = /\/admin\/reports\/(\d+)\/hide/.exec(queue.body)?.[1];
    expect((await user.postForm(`/admin/reports/${id}/hide`, {})).statusCode).toBe(403);
    expect((await admin.postForm(`/admin/reports/${id}/hide`, {})).statusCode).toBe(303);
    expect((await new TestAgent(t.app).get(`/p/${oid}/`)).statusCode).toBe(404);
    expect((await admin.get(`/p/${oid}/`)).statusCode).toBe(200);
    const [owner] = await t.db.query<{ email: string }>(
      "select u.email from users u join presentations p on p.owner_id = u.id where p.oid = $1",
      [oid],
    );
    expect((await (await agentFor(t.app, t.db, owner?.email ?? "")).get(`/p/${oid}/`)).statusCode).toBe(200);
    expect((await admin.postForm(`/admin/reports/${id}/hide`, {})).statusCode).toBe(404);
  });

  it("R6.4 R6.6 curation: curators only, with the flag; hidden tags and staff pick are saved", async () => {
    const oid = await oidOf("typography-101");
    const curator = await agentFor(t.app, t.db, "ada@podium.test");
    const user = await agentFor(t.app, t.db, "alan@podium.test");
    expect((await user.get(`/curation/${oid}/`)).statusCode).toBe(403);
    const page = await curator.get(`/curation/${oid}/`);
    expect(page.statusCode).toBe(200);
    const saved = await curator.postForm(`/curation/${oid}/`, { hiddenTags: "Design, fonts", staffPick: "on" });
    expect(saved.statusCode).toBe(303);
    const [row] = await t.db.query<{ hidden_tags: string[]; is_staff_pick: boolean }>(
      "select hidden_tags, is_staff_pick from presentations where oid = $1",
      [oid],
    );
    expect(row).toEqual({ hidden_tags: ["design", "fonts"], is_staff_pick: true });
    const view = await curator.get(`/p/${oid}/`);
    expect(view.body).toContain(`href="/curation/${oid}/"`);
    expect((await user.get(`/p/${oid}/`)).body).not.toContain("/curation/");
    const off = await createTestApp(
      target,
      {
        features: {
          "allow-content-curation": false,
          "gm-view-page-banner-human-connection": false,
          "gm-view-page-banner-human-connection-edu": false,
        },
      },
      { seeded: true },
    );
    try {
      const [ada] = await off.db.query<{ id: string }>(
        "select id::text as id from users where email = 'ada@podium.test'",
      );
      const agent = new TestAgent(off.app);
      agent.cookies.set("podium_session", await startSession(off.db, ada?.id ?? ""));
      expect((await agent.get(`/curation/${oid}/`)).statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });

  it("R6.3 copies: reusable presentations and your own, never someone else's private or public one", async () => {
    const reusable = (
      await t.db.query<{ oid: string }>(
        "select oid from presentations where privacy = 'reusable' and template_slug is null limit 1",
      )
    )[0]?.oid;
    const publicOne = (
      await t.db.query<{ oid: string }>(
        "select oid from presentations where privacy = 'public' and owner_id <> (select id from users where email = 'tim@podium.test') limit 1",
      )
    )[0]?.oid;
    const tim = await agentFor(t.app, t.db, "tim@podium.test");
    const copied = await tim.postForm(`/p/${reusable}/copy/`, {});
    expect(copied.statusCode).toBe(303);
    const copyOid = /presentations\/([a-z0-9]{12})\//.exec(String(copied.headers.location))?.[1];
    const [copy] = await t.db.query<{ privacy: string; email: string }>(
      "select p.privacy, u.email from presentations p join users u on u.id = p.owner_id where p.oid = $1",
      [copyOid],
    );
    expect(copy).toEqual({ privacy: "private", email: "tim@podium.test" });
    expect((await tim.postForm(`/p/${publicOne}/copy/`, {})).statusCode).toBe(403);
    expect((await new TestAgent(t.app).postForm(`/p/${reusable}/copy/`, {}, { csrf: null })).statusCode).toBe(403);
  });

  it("R7.4 usage events: an array of one event is stored (a loaded view page counts a view); anything else is a clear 400", async () => {
    const event = [
      {
        core: { type: "Analytics", event_type: "transcript_opened" },
        user: { session_id: "abc" },
        body: { event_name: "transcript_opened", oid: "abcdefghijkl" },
      },
    ];
    // The same event through the intake and through its fallback address.
    for (const url of ["/log/json", "/fallback/json"]) {
      const answer = await t.app.inject({
        method: "POST",
        url,
        headers: { "content-type": "application/json" },
        payload: JSON.stringify(event),
      });
      expect(answer.statusCode, url).toBe(204);
    }
    // Issue 14: events are stored in batches after the 204.
    await t.app.usageEvents.flush();
    const [count] = await t.db.query<{ n: number }>(
      "select count(*)::int as n from usage_event_log where event_name = 'transcript_opened'",
    );
    expect(count?.n).toBe(2);
    for (const payload of ["{}", "[]", JSON.stringify([event[0], event[0]]), JSON.stringify([{ body: {} }])]) {
      const bad = await t.app.inject({
        method: "POST",
        url: "/log/json",
        headers: { "content-type": "application/json" },
        payload,
      });
      expect(bad.statusCode, payload).toBe(400);
    }
    // A loaded view page counts one view per visitor per presentation per 30 minutes.
    const oid = await oidOf("the-water-cycle");
    const views = async () => {
      // Issue 14: events are stored in batches after the 204.
      await t.app.usageEvents.flush();
      return (
        (await t.db.query<{ n: number }>("select view_count as n from presentations where oid = $1", [oid]))[0]?.n ?? 0
      );
    };
    const before = await views();
    const viewEvent = (session: string, visitorId: string) => [
      {
        core: { type: "Analytics", event_type: "loaded_public_view_page" },
        user: { session_id: session },
        body: { event_name: "loaded_public_view_page", oid, visitor_id: visitorId },
      },
    ];
    // Issue 28 item 4: the visitor is the usage session the server signed a visitor id for as the page loaded.
    const addresses: Record<string, string> = { "session-a": "192.0.2.10", "session-b": "192.0.2.11" };
    const send = async (session: string) => {
      const issued = await t.app.inject({
        method: "GET",
        url: `/api/views/${oid}/visitor-id?session_id=${session}`,
        remoteAddress: addresses[session],
      });
      return t.app.inject({
        method: "POST",
        url: "/log/json",
        remoteAddress: addresses[session],
        headers: { "content-type": "application/json" },
        payload: JSON.stringify(viewEvent(session, (issued.json() as { visitorId: string }).visitorId)),
      });
    };
    expect((await send("session-a")).statusCode).toBe(204);
    expect((await send("session-a")).statusCode).toBe(204);
    expect(await views()).toBe(before + 1);
    await send("session-b");
    expect(await views()).toBe(before + 2);
    await t.db.query(
      "update usage_events set received_at = now() - interval '31 minutes' where session_id = 'session-a'",
    );
    await send("session-a");
    expect(await views()).toBe(before + 3);
    const big = await t.app.inject({
      method: "POST",
      url: "/log/json",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify([{ ...event[0], body: { event_name: "x", pad: "y".repeat(9000) } }]),
    });
    expect(big.statusCode).toBe(413);
  });
});
