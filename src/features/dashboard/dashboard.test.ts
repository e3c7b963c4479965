import { describe, expect, it } from "vitest";
import { testDatabaseTargets } from "../../db/testing";
import { UPLOAD_LIMIT_BYTES } from "../../server/app";
import { TestAgent, useTestApp } from "../../server/testing";

const DECK =
  "# Tide pools\n## Life between the waves\n---\n# Who lives there\n- Anemones\n- Hermit crabs\n---\n# Visiting well\nLook, don't lift.";

describe.each(testDatabaseTargets())("the dashboard on $name", (target) => {
  const t = useTestApp(target, { owner: "owner@dash.test" });

  const countPresentations = async () =>
    (await t.db.query<{ n: number }>("select count(*)::int as n from presentations"))[0]?.n ?? 0;

  it("sends anonymous visitors to log in first", async () => {
    const response = await new TestAgent(t.app).get("/dashboard/next/");
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe("/login/?next=%2Fdashboard%2Fnext%2F");
  });

  it("imports a Markdown deck that then plays on its view page", async () => {
    await t.owner.get("/dashboard/next/");
    const response = await t.owner.importDeck({ name: "tide-pools.md", content: DECK });
    expect(response.statusCode).toBe(303);
    const oid = /presentations\/([a-z0-9]{12})\//.exec(String(response.headers.location))?.[1];
    expect(oid).toBeTruthy();
    const manage = await t.owner.get(String(response.headers.location));
    expect(manage.statusCode).toBe(200);
    expect(manage.body).toContain("Your presentation is imported.");
    const view = await new TestAgent(t.app).get(`/p/${oid}/`);
    expect(view.statusCode).toBe(200);
    expect(view.body).toContain("Tide pools");
    const list = await t.owner.get("/dashboard/next/");
    expect(list.body).toContain("Tide pools");
  });

  it("imports a JSON export, and refuses bad files with a clear error, storing nothing", async () => {
    await t.owner.get("/dashboard/next/");
    const exported = await new TestAgent(t.app).get(
      `/p/${(await t.db.query<{ oid: string }>("select oid from presentations limit 1"))[0]?.oid}/document.json`,
    );
    const ok = await t.owner.importDeck({ name: "copy.json", content: exported.body }, { title: "A JSON copy" });
    expect(ok.statusCode).toBe(303);
    const before = await countPresentations();
    const cases: [{ name: string; content: string | Buffer } | null, number, string][] = [
      [null, 400, "Choose a Markdown (.md) or JSON (.json) file to import."],
      [{ name: "deck.pdf", content: "%PDF-1.7" }, 400, "Podium imports Markdown"],
      [{ name: "empty.md", content: "" }, 400, "That file is empty."],
      [{ name: "blank.md", content: "\n---\n  \n" }, 400, "has no slides"],
      [{ name: "broken.json", content: "{ not json" }, 400, "That file isn&#x27;t valid JSON"],
      [
        {
          name: "wrong.json",
          content: JSON.stringify({
            format: "podium.presentation",
            version: 1,
            schemaVersion: "2",
            topics: [],
            path: ["x"],
          }),
        },
        400,
        "The first problem is at topics",
      ],
      [{ name: "latin1.md", content: Buffer.from([0x23, 0x20, 0xe9, 0xff, 0xfe]) }, 400, "UTF-8"],
      [{ name: "huge.md", content: Buffer.alloc(UPLOAD_LIMIT_BYTES + 10, 0x61) }, 413, "larger than 2 MB"],
    ];
    for (const [file, status, message] of cases) {
      const response = await t.owner.importDeck(file);
      expect(response.statusCode, file?.name ?? "no file").toBe(status);
      expect(response.body, file?.name ?? "no file").toContain(message);
    }
    expect(await countPresentations()).toBe(before);
  });

  it("saves details with a sanitised description, tags and privacy", async () => {
    const oid = await t.owner.newDeck({ name: "details.md", content: DECK });
    const saved = await t.owner.postForm(`/dashboard/next/presentations/${oid}/details`, {
      title: "Tide pools, renamed",
      description: `<p>Safe <strong>bold</strong></p><img src=x onerror=alert(1)><script>alert(2)</script><a href="javascript:alert(3)">x</a>`,
      tags: "Ocean, ocean , biology",
      privacy: "unlisted",
    });
    expect(saved.statusCode).toBe(303);
    const [row] = await t.db.query<{ title: string; description_html: string; tags: string[]; privacy: string }>(
      "select title, description_html, tags, privacy from presentations where oid = $1",
      [oid],
    );
    expect(row?.title).toBe("Tide pools, renamed");
    expect(row?.description_html).toContain("<strong>bold</strong>");
    expect(row?.description_html).not.toMatch(/onerror|<script|javascript:/);
    expect(row?.tags).toEqual(["ocean", "biology"]);
    expect(row?.privacy).toBe("unlisted");
    const bad = await t.owner.postForm(`/dashboard/next/presentations/${oid}/details`, {
      title: "",
      description: "",
      tags: "",
      privacy: "public",
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain("Give the presentation a title");
  });

  it("private → 404 to strangers; a view link opens it; revoked → 404 at once", async () => {
    const oid = await t.owner.newDeck({ name: "secret.md", content: DECK }, { privacy: "private" });
    expect((await new TestAgent(t.app).get(`/p/${oid}/`)).statusCode).toBe(404);
    expect((await t.owner.get(`/p/${oid}/`)).statusCode).toBe(200);
    await t.owner.postForm(`/dashboard/next/presentations/${oid}/view-links`, {});
    const manage = await t.owner.get(`/dashboard/next/presentations/${oid}/`);
    const link = /\/view\/([A-Za-z0-9_-]{32})\//.exec(manage.body)?.[1];
    expect(link).toBeTruthy();
    expect((await new TestAgent(t.app).get(`/view/${link}/`)).statusCode).toBe(200);
    const revoked = await t.owner.postForm(`/dashboard/next/presentations/${oid}/view-links/${link}/revoke`, {});
    expect(revoked.statusCode).toBe(303);
    expect((await new TestAgent(t.app).get(`/view/${link}/`)).statusCode).toBe(404);
  });

  it("collaborators by email with edit or comment rights; the rights show on the private view page", async () => {
    const editor = new TestAgent(t.app);
    await editor.signUp("editor@dash.test");
    const oid = await t.owner.newDeck({ name: "shared.md", content: DECK }, { privacy: "private", schemaVersion: "2" });
    const unknown = await t.owner.postForm(`/dashboard/next/presentations/${oid}/collaborators`, {
      email: "ghost@dash.test",
      right: "edit",
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain("No Podium account uses that email.");
    const added = await t.owner.postForm(`/dashboard/next/presentations/${oid}/collaborators`, {
      email: "editor@dash.test",
      right: "comment",
    });
    expect(added.statusCode).toBe(303);
    // The collaborator sees the private presentation; the view link page shows Comment.
    expect((await editor.get(`/p/${oid}/`)).statusCode).toBe(200);
    await t.owner.postForm(`/dashboard/next/presentations/${oid}/view-links`, {});
    const link = /\/view\/([A-Za-z0-9_-]{32})\//.exec(
      (await t.owner.get(`/dashboard/next/presentations/${oid}/`)).body,
    )?.[1];
    const asCommenter = await editor.get(`/view/${link}/`);
    expect(asCommenter.body).toContain(`href="/p/edit/${oid}/#present"`);
    await t.owner.postForm(`/dashboard/next/presentations/${oid}/collaborators`, {
      email: "editor@dash.test",
      right: "edit",
    });
    const asEditor = await editor.get(`/view/${link}/`);
    expect(asEditor.body).toContain(`href="/p/edit/${oid}/"`);
    // A collaborator can't manage it.
    expect((await editor.get(`/dashboard/next/presentations/${oid}/`)).statusCode).toBe(403);
    const [user] = await t.db.query<{ oid: string }>("select oid from users where email = 'editor@dash.test'");
    await t.owner.postForm(`/dashboard/next/presentations/${oid}/collaborators/${user?.oid}/remove`, {});
    expect((await editor.get(`/p/${oid}/`)).statusCode).toBe(404);
  });

  it("deletes after confirmation, with its likes, links and rights", async () => {
    const oid = await t.owner.newDeck({ name: "bye.md", content: DECK });
    await t.owner.postForm(`/dashboard/next/presentations/${oid}/view-links`, {});
    await t.owner.api("PUT", `/api/v4/presentation/${oid}/like/`);
    const confirm = await t.owner.get(`/dashboard/next/presentations/${oid}/delete`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain("Delete for good");
    expect((await new TestAgent(t.app).get(`/p/${oid}/`)).statusCode).toBe(200);
    const deleted = await t.owner.postForm(`/dashboard/next/presentations/${oid}/delete`, {});
    expect(deleted.headers.location).toBe("/dashboard/next/?notice=deleted");
    expect((await new TestAgent(t.app).get(`/p/${oid}/`)).statusCode).toBe(404);
    const leftovers = await t.db.query(
      "select 1 from likes l join presentations p on p.id = l.presentation_id where p.oid = $1 union all select 1 from view_links v join presentations p on p.id = v.presentation_id where p.oid = $1",
      [oid],
    );
    expect(leftovers).toEqual([]);
  });

  it("another person can neither manage nor delete someone else's presentation", async () => {
    const oid = await t.owner.newDeck({ name: "mine.md", content: DECK });
    const stranger = new TestAgent(t.app);
    await stranger.signUp("stranger@dash.test");
    expect((await stranger.get(`/dashboard/next/presentations/${oid}/`)).statusCode).toBe(403);
    expect((await stranger.postForm(`/dashboard/next/presentations/${oid}/delete`, {})).statusCode).toBe(403);
    expect((await stranger.postForm(`/dashboard/next/presentations/zzzzzzzzzzzz/delete`, {})).statusCode).toBe(404);
    expect((await new TestAgent(t.app).get(`/p/${oid}/`)).statusCode).toBe(200);
  });

  it("shows the owner views and likes of the last 30 days as a chart with a table; nobody else gets them", async () => {
    const oid = await t.owner.newDeck({ name: "charted.md", content: DECK });
    // A visitor's page asks for its visitor id, then sends its loaded event with it (issue 28 item 4).
    const { visitorId } = (
      await t.app.inject({ method: "GET", url: `/api/views/${oid}/visitor-id?session_id=chart-session` })
    ).json() as { visitorId: string };
    const viewed = await t.app.inject({
      method: "POST",
      url: "/log/json",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify([
        {
          core: { type: "Analytics", event_type: "loaded_public_view_page" },
          user: { session_id: "chart-session" },
          body: { event_name: "loaded_public_view_page", oid, visitor_id: visitorId },
        },
      ]),
    });
    expect(viewed.statusCode).toBe(204);
    // Issue 14: events are stored in batches after the 204.
    await t.app.usageEvents.flush();
    const fan = new TestAgent(t.app);
    await fan.signUp("fan@dash.test");
    expect((await fan.api("PUT", `/api/v4/presentation/${oid}/like/`)).statusCode).toBe(200);

    const page = await t.owner.get(`/dashboard/next/presentations/${oid}/`);
    expect(page.statusCode).toBe(200);
    // Every page carries the message catalogue; the rendered chart is what only the owner gets.
    expect(page.body).toContain("Views and likes, last 30 days</h2>");
    expect(page.body).toContain("activity__chart");
    expect(page.body).toMatch(/<svg[^>]*role="img"[^>]*aria-label="Chart of views per day/);
    expect(page.body).toContain("Show the numbers as a table");
    const boot = JSON.parse(
      /<script type="application\/json" id="podium-boot">(.*?)<\/script>/s.exec(page.body)?.[1] ?? "",
    );
    const activity = boot.data.activity as { days: { day: string; views: number; likes: number }[]; totals: object };
    expect(activity.days).toHaveLength(30);
    expect(activity.days.at(-1)).toMatchObject({ views: 1, likes: 1 });
    expect(activity.totals).toEqual({ views: 1, likes: 1 });

    // A collaborator who may edit, another signed-in person and a visitor get no chart and no numbers.
    await t.owner.postForm(`/dashboard/next/presentations/${oid}/collaborators`, {
      email: "fan@dash.test",
      right: "edit",
    });
    const visitor = new TestAgent(t.app);
    for (const [who, agent, status] of [
      ["collaborator", fan, 403],
      ["visitor", visitor, 303],
    ] as const) {
      const refused = await agent.get(`/dashboard/next/presentations/${oid}/`);
      expect(refused.statusCode, who).toBe(status);
      expect(refused.body, who).not.toContain("activity__chart");
      expect(refused.body, who).not.toContain('"activity":');
    }
    const stranger = new TestAgent(t.app);
    await stranger.signUp("onlooker@dash.test");
    const refused = await stranger.get(`/dashboard/next/presentations/${oid}/`);
    expect(refused.statusCode).toBe(403);
    expect(refused.body).not.toContain("activity__chart");
    expect(refused.body).not.toContain('"activity":');
  });

  it("paginates the list, newest first", async () => {
    const busy = new TestAgent(t.app);
    await busy.signUp("busy@dash.test");
    await busy.get("/dashboard/next/");
    for (let i = 1; i <= 22; i += 1) await busy.importDeck({ name: `d${i}.md`, content: `# Deck number ${i}` });
    const first = await busy.get("/dashboard/next/");
    expect(first.body).toContain("Deck number 22");
    expect(first.body).not.toContain("Deck number 2<");
    expect(first.body).toContain("Page 1 of 2");
    const second = await busy.get("/dashboard/next/?page=2");
    expect(second.body).toContain("Deck number 1<");
  });
});
