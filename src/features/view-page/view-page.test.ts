import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, Queryable } from "../../db/client";
import { testDatabaseTargets } from "../../db/testing";
import { importMarkdown } from "../../document/markdown";
import { stableOid } from "../../lib/ids";
import { ChangeFeed } from "../../server/page-cache/change-feed";
import { createTestApp, insertTestUser, searchCaughtUp } from "../../server/testing";
import { LISTS_TAG, SHOWCASE_TAG, VIDEOS_TAG } from "../content-changes";
import { PUBLIC_PAGE_CACHE_CONTROL } from "../http";
import type { PresentationPageData } from "../presentation/page-data";
import { insertPresentationIfAbsent, type NewPresentation } from "../presentation/repository";
import { insertVideoCardIfAbsent } from "../sidebar/repository";
import type { SidebarRows } from "../sidebar/sidebar-rows";
import { createViewPageSources, getEmbedPage, getPublicViewPage, getSidebarRows, type ViewRequest } from "./service";

const VIEWED = stableOid("vp:viewed");
const anonymous: ViewRequest = { viewer: null, isMobile: false, features: {} };

/** What a statement reads, for the four things the view page keeps (null for anything else). */
function kindOf(sql: string): "staff picks" | "templates" | "count" | "videos" | null {
  if (sql.includes("and p.is_staff_pick")) return "staff picks";
  if (sql.includes("where p.template_slug is not null")) return "templates";
  if (sql.includes("count(*)")) return "count";
  if (sql.includes("from video_cards")) return "videos";
  return null;
}

/** The database, with every statement it is sent written down. */
function recording(db: Queryable) {
  const statements: string[] = [];
  const recorder: Queryable = {
    query: (sql, params) => {
      statements.push(sql);
      return db.query(sql, params);
    },
  };
  return {
    db: recorder,
    /** The kept things read since the last call, in order. */
    takeKinds() {
      const kinds = statements.map(kindOf).filter((kind) => kind !== null);
      statements.length = 0;
      return kinds.sort();
    },
  };
}

async function addFixtures(db: Database) {
  const owner = await insertTestUser(db, {
    oid: stableOid("vp:owner"),
    email: "ada@podium.test",
    username: "ada",
    firstName: "Ada",
    lastName: "Okafor",
  });
  const add = (oid: string, title: string, extra: Partial<NewPresentation> = {}) =>
    insertPresentationIfAbsent(db, {
      oid,
      ownerId: owner.id,
      title,
      descriptionHtml: "",
      privacy: "public",
      schemaVersion: "0",
      tags: [],
      document: importMarkdown(`# ${title}\n---\n# Second slide`, "0"),
      ...extra,
    });
  await add(VIEWED, "The deck being viewed");
  await add(stableOid("vp:pick-1"), "First staff pick", { isStaffPick: true });
  await add(stableOid("vp:template-1"), "First template", {
    templateSlug: "first-template",
    templateSubTitle: "Plain",
  });
  await insertVideoCardIfAbsent(db, {
    slug: "first-video",
    title: "First video",
    subTitle: "2 min",
    path: "/video",
    colors: ["#112233", "#445566"],
    hasPreviewAnimation: false,
    position: 1,
  });
  return { add };
}

const titles = (cards: { title: string }[] | undefined) => (cards ?? []).map((card) => card.title).sort();

describe.each(testDatabaseTargets())("view page ($name)", (target) => {
  let app: Awaited<ReturnType<typeof createTestApp>>;
  let add: Awaited<ReturnType<typeof addFixtures>>["add"];
  beforeAll(async () => {
    app = await createTestApp(target);
    ({ add } = await addFixtures(app.db));
  });
  afterAll(() => app.close());

  it("issue 11: without a change, the second view page and the second sidebar rows read no staff picks, templates, videos or count", async () => {
    const feed = new ChangeFeed();
    const { db, takeKinds } = recording(app.db);
    const sources = createViewPageSources(db, feed);
    const first = await getPublicViewPage(db, sources, { ...anonymous, oid: VIEWED });
    // The page itself reads the header's count only: its promotional rows come after it.
    expect(takeKinds()).toEqual(["count"]);
    expect(first?.topPicks).toEqual([]);
    expect(first).not.toHaveProperty("sidebar");
    const rows = await getSidebarRows(db, sources, { viewer: null, oid: VIEWED });
    // The rows read each once (so the recording recognises them)…
    expect(takeKinds()).toEqual(["staff picks", "templates", "videos"]);
    expect(titles(rows?.topPicks)).toEqual(["First staff pick"]);
    // …the second page and rows read none of them, and still draw their picks from the kept pool.
    const second = await getPublicViewPage(db, sources, { ...anonymous, oid: VIEWED });
    const secondRows = await getSidebarRows(db, sources, { viewer: null, oid: VIEWED });
    expect(takeKinds()).toEqual([]);
    expect(titles(secondRows?.topPicks)).toEqual(["First staff pick"]);
    expect(second?.appData?.searchableCount).toBe(first?.appData?.searchableCount);
    expect(titles(secondRows?.sidebar.templates)).toEqual(["First template"]);
    expect(titles(secondRows?.sidebar.videos)).toEqual(["First video"]);
  });

  it("issue 11: a render after a showcase change shows the new staff pick and template", async () => {
    const feed = new ChangeFeed();
    const sources = createViewPageSources(app.db, feed);
    const render = () => getPublicViewPage(app.db, sources, { ...anonymous, oid: VIEWED });
    const rows = () => getSidebarRows(app.db, sources, { viewer: null, oid: VIEWED });
    const before = await render();
    const rowsBefore = await rows();
    await add(stableOid("vp:pick-2"), "Second staff pick", { isStaffPick: true });
    await add(stableOid("vp:template-2"), "Second template", { templateSlug: "second-template" });

    // Until a change is heard, the kept answers stand (a minute at most).
    expect(titles((await rows())?.topPicks)).toEqual(titles(rowsBefore?.topPicks));
    // A change that touches neither leaves them.
    feed.publish([VIDEOS_TAG, "presentation:unrelated"]);
    expect(titles((await rows())?.sidebar.templates)).toEqual(["First template"]);

    feed.publish([LISTS_TAG, SHOWCASE_TAG]);
    const after = await rows();
    expect(titles(after?.topPicks)).toEqual(["First staff pick", "Second staff pick"]);
    expect(titles(after?.sidebar.templates)).toEqual(["First template", "Second template"]);
    expect((await render())?.appData?.searchableCount).toBe((before?.appData?.searchableCount ?? 0) + 1);
  });

  it("issue 11: concurrent first renders read each kept thing once", async () => {
    const { db, takeKinds } = recording(app.db);
    const sources = createViewPageSources(db, new ChangeFeed());
    const [pages, rows] = await Promise.all([
      Promise.all(Array.from({ length: 5 }, () => getPublicViewPage(db, sources, { ...anonymous, oid: VIEWED }))),
      Promise.all(Array.from({ length: 5 }, () => getSidebarRows(db, sources, { viewer: null, oid: VIEWED }))),
    ]);
    expect(pages.every((page: PresentationPageData | null) => page?.oid === VIEWED)).toBe(true);
    expect(rows.every((row) => row?.sidebar.videos.length === 1)).toBe(true);
    expect(takeKinds()).toEqual(["count", "staff picks", "templates", "videos"]);
  });

  it("issue 11: the embed page reads none of them (it shows no header or sidebar)", async () => {
    const { db, takeKinds } = recording(app.db);
    const page = await getEmbedPage(db, { ...anonymous, oid: VIEWED, query: {} });
    expect(page?.topPicks).toEqual([]);
    expect(takeKinds()).toEqual([]);
  });

  it("issue 11 R2.15: a deck that is itself a staff pick never finds itself among its sidebar's picks", async () => {
    const sources = createViewPageSources(app.db, new ChangeFeed());
    const picked = stableOid("vp:pick-1");
    for (let n = 0; n < 5; n++) {
      const rows = await getSidebarRows(app.db, sources, { viewer: null, oid: picked });
      expect(rows?.topPicks.some((card) => card.path.includes(picked))).toBe(false);
    }
    expect(await getSidebarRows(app.db, sources, { viewer: null, oid: stableOid("vp:nobody") })).toBeNull();
  });

  it("issue 11: the view page's HTML has no promotional cards; /p/{oid}/sidebar.json has them, publicly cacheable, and a 404 where the page is", async () => {
    const page = await app.app.inject({ method: "GET", url: `/p/${VIEWED}/` });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain("First staff pick");
    expect(page.body).not.toContain("First template");
    expect(page.body).not.toContain("sidebar-card");
    // Without scripts, the sidebar is its headings and plain links to the catalogue pages.
    for (const href of ["/video/explore/", "/presentation-template/", "/gallery/"])
      expect(page.body).toContain(`class="sidebar__more" href="${href}"`);

    const json = await app.app.inject({ method: "GET", url: `/p/${VIEWED}/sidebar.json` });
    expect(json.statusCode).toBe(200);
    expect(json.headers["content-type"]).toMatch(/^application\/json/);
    expect(json.headers["cache-control"]).toBe(PUBLIC_PAGE_CACHE_CONTROL);
    const rows = json.json() as SidebarRows;
    expect(titles(rows.sidebar.videos)).toEqual(["First video"]);
    expect(rows.sidebar.templates.map((card) => card.type)).toEqual(rows.sidebar.templates.map(() => "TEMPLATE"));
    expect(rows.topPicks.length).toBeGreaterThan(0);
    expect(rows.topPicks.some((card) => card.path.includes(VIEWED))).toBe(false);

    await add(stableOid("vp:private"), "A private deck", { privacy: "private" });
    const hidden = await app.app.inject({ method: "GET", url: `/p/${stableOid("vp:private")}/sidebar.json` });
    expect(hidden.statusCode).toBe(404);
    expect((await app.app.inject({ method: "GET", url: "/p/NOT-AN-OID/sidebar.json" })).statusCode).toBe(404);
  });

  it("issue 11: a staff pick chosen straight in the database reaches the app's next sidebar rows (triggers → change feed)", async () => {
    const url = `/p/${VIEWED}/sidebar.json`;
    const before = await app.app.inject({ method: "GET", url });
    expect(before.body).not.toContain("Picked in the database");
    await add(stableOid("vp:pick-db"), "Picked in the database");
    await app.db.query("update presentations set is_staff_pick = true where oid = $1", [stableOid("vp:pick-db")]);
    await app.app.changes.sync();
    const after = await app.app.inject({ method: "GET", url });
    expect(after.body).toContain("Picked in the database");
  });

  it("issue 11: the app keeps them between requests (made once, where its routes are registered)", async () => {
    const statements: string[] = [];
    const query = app.db.query.bind(app.db);
    app.db.query = (sql, params) => {
      statements.push(sql);
      return query(sql, params);
    };
    try {
      for (const url of [`/p/${VIEWED}/`, `/p/${VIEWED}/sidebar.json`]) {
        const first = await app.app.inject({ method: "GET", url });
        expect(first.statusCode).toBe(200);
      }
      // The search index in memory reads what the tests before changed (templates, video cards) in
      // the background: done before counting, so only these requests' statements are counted.
      await searchCaughtUp(app.app);
      statements.length = 0;
      const second = await app.app.inject({ method: "GET", url: `/p/${VIEWED}/sidebar.json` });
      expect(second.statusCode).toBe(200);
      expect(second.body).toContain("First staff pick");
      expect((await app.app.inject({ method: "GET", url: `/p/${VIEWED}/` })).statusCode).toBe(200);
      expect(statements.map(kindOf).filter((kind) => kind !== null)).toEqual([]);
    } finally {
      app.db.query = query;
    }
  });
});
