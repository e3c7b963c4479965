import { describe, expect, it } from "vitest";
import type { Queryable } from "../../db/client";
import { testDatabaseTargets } from "../../db/testing";
import { useTestApp, wrappedDatabase } from "../../server/testing";
import { embedSourceOf, hostOf, shareSourceOf, viewSourceOf } from "../events/view-source";
import { getManageData } from "./service";

describe("I33.2 a view's source is a kind and a host, never a URL", () => {
  it("I33.2 direct, search engines, Podium's own pages and search, other sites", () => {
    const page = "https://podium.example/p/abcdefghijkl/";
    expect(viewSourceOf(null, page)).toEqual({ kind: "direct", host: "" });
    expect(viewSourceOf("", page)).toEqual({ kind: "direct", host: "" });
    expect(viewSourceOf("https://www.google.co.uk/search?q=private+words", page)).toEqual({
      kind: "search",
      host: "google.co.uk",
    });
    expect(viewSourceOf("https://duckduckgo.com/", page)).toEqual({ kind: "search", host: "duckduckgo.com" });
    expect(viewSourceOf("https://podium.example/explore/search/?search=mars", page)).toEqual({
      kind: "search",
      host: "podium",
    });
    expect(viewSourceOf("https://podium.example/explore/", page)).toEqual({ kind: "podium", host: "" });
    expect(viewSourceOf("https://School.Example.org/class/7?student=ada", page)).toEqual({
      kind: "site",
      host: "school.example.org",
    });
    expect(viewSourceOf("javascript:alert(1)", page)).toEqual({ kind: "direct", host: "" });
    expect(embedSourceOf("https://blog.example.net/post?id=1")).toEqual({ kind: "embed", host: "blog.example.net" });
    expect(shareSourceOf("TWITTER")).toEqual({ kind: "share", host: "twitter" });
    expect(shareSourceOf("<script>")).toBeNull();
    expect(hostOf("not a url")).toBeNull();
  });
});

/** Issue 33 item 2: the owner sees where views came from, from real events through the intake. */
describe.each(testDatabaseTargets())("I33.2 where views come from, on $name", (target) => {
  const t = useTestApp(target, { owner: "owner@sources.test" });

  const post = (event: object) =>
    t.app.inject({
      method: "POST",
      url: "/log/json",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify([event]),
    });
  const loaded = async (oid: string, session: string, referer: string | null, address: string) => {
    const { visitorId } = (
      await t.app.inject({ method: "GET", url: `/api/views/${oid}/visitor-id?session_id=${session}` })
    ).json() as { visitorId: string };
    return t.app.inject({
      method: "POST",
      url: "/log/json",
      remoteAddress: address,
      headers: { "content-type": "application/json" },
      payload: JSON.stringify([
        {
          core: { type: "Analytics", event_type: "loaded_public_view_page" },
          platform: { type: "Web", id: null, referer, url: `https://podium.example/p/${oid}/` },
          user: { session_id: session },
          body: { event_name: "loaded_public_view_page", oid, visitor_id: visitorId },
        },
      ]),
    });
  };

  it("I33.2 counted views by referrer host or direct, plays in embeds by site, share buttons; hosts only", async () => {
    const oid = await t.owner.newDeck({ name: "mars.md", content: "# Mars\n---\n# Dust" });
    expect((await loaded(oid, "s1", "https://www.google.com/search?q=secret+words", "198.51.100.1")).statusCode).toBe(
      204,
    );
    await loaded(oid, "s2", "https://www.google.com/search?q=other", "198.51.100.2");
    await loaded(oid, "s3", null, "198.51.100.3");
    await loaded(oid, "s4", "https://school.example.org/class/7?student=ada", "198.51.100.4");
    // The same visitor again within 30 minutes: no view, so no source either.
    await loaded(oid, "s4", "https://school.example.org/class/7?student=ada", "198.51.100.4");
    await post({
      core: { type: "Analytics", event_type: "presentation_started" },
      platform: {
        type: "Web",
        id: null,
        referer: "https://blog.example.net/post?id=9",
        url: `https://podium.example/p/embed/${oid}/`,
      },
      user: { session_id: "e1" },
      body: { event_name: "presentation_started", oid },
    });
    await post({
      core: { type: "Analytics", event_type: "share_presentation" },
      user: { session_id: "s1" },
      body: { event_name: "share_presentation", oid, type: "LINKEDIN" },
    });
    await t.app.usageEvents.flush();

    const page = (await t.owner.get(`/dashboard/next/presentations/${oid}/`)).body;
    const rows = Object.fromEntries(
      [...page.matchAll(/<tr data-source="([^"]*)">[\s\S]*?<td>[^<]*<\/td><td>(\d+)<\/td><\/tr>/g)].map((match) => [
        match[1],
        Number(match[2]),
      ]),
    );
    expect(rows).toEqual({
      "search:google.com": 2,
      "direct:": 1,
      "site:school.example.org": 1,
      "embed:blog.example.net": 1,
      "share:linkedin": 1,
    });
    // Nothing of a path or a query is kept.
    const kept = await t.db.query<{ host: string }>("select host from presentation_daily_sources");
    for (const { host } of kept) expect(host).not.toMatch(/[/?=]/);
    expect(page).not.toContain("secret+words");
    expect(page).not.toContain("student=ada");
  });

  it("I33.2 the manage page's figures agree: a view stored while the page reads is in the chart and the sources, or in neither", async () => {
    const oid = await t.owner.newDeck({ name: "tides.md", content: "# Tides\n---\n# Pools" });
    await loaded(oid, "c1", null, "198.51.100.21");
    await t.app.usageEvents.flush();
    const [owner] = await t.db.query<{ userId: string }>(`select id::text as "userId" from users where email = $1`, [
      "owner@sources.test",
    ]);
    const viewer = {
      userId: owner?.userId ?? "",
      oid: "",
      email: "owner@sources.test",
      firstName: "",
      lastName: "",
      publicDisplayName: null,
      language: null,
      isAdmin: false,
      isCurator: false,
    };
    // A second visitor's view is stored as soon as the chart's statement has answered, before the
    // sources are read (the way a batch lands while a page is being made). On PostgreSQL it is
    // stored then, on a connection of its own; PGlite runs one statement at a time, so there it
    // waits for the page's reads if they hold the database, and lands between them if they don't.
    let stored: Promise<unknown> | null = null;
    const storeSecondView = () => {
      stored ??= loaded(oid, "c2", null, "198.51.100.22").then(() => t.app.usageEvents.flush());
      return t.db.kind === "postgres" ? stored : null;
    };
    const hooked = (queryable: Queryable): Queryable => ({
      query: async <Row>(sql: string, params?: readonly unknown[]) => {
        const rows = await queryable.query<Row>(sql, params);
        if (sql.includes("from presentation_daily_views")) await storeSecondView();
        return rows;
      },
    });
    const during = await getManageData(wrappedDatabase(t.db, hooked), viewer, oid);
    await stored;
    const chartViews = (data: typeof during) => data.activity.days.reduce((sum, day) => sum + day.views, 0);
    const sourceViews = (data: typeof during) =>
      data.engagement.sources.filter((row) => row.kind === "direct").reduce((sum, row) => sum + row.n, 0);
    expect(stored).not.toBeNull();
    expect(sourceViews(during)).toBe(chartViews(during));
    // Read again, both have it.
    const after = await getManageData(t.db, viewer, oid);
    expect([chartViews(after), sourceViews(after)]).toEqual([2, 2]);
  });
});
