import { brotliDecompressSync, gunzipSync } from "node:zlib";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { testDatabaseTargets } from "../../db/testing";
import { slugify } from "../../lib/ids";
import { createTestApp, multipartForm, signUpRoles, TestAgent } from "../../server/testing";

/**
 * Issue 28, item 1: speaker notes are the presenter's. A deck imported with both note styles
 * (reveal.js `Note:` and Slidev's closing comment), each holding a marker no slide says; then
 * every route a stranger, an anonymous visitor, a commenter or a holder of an ordinary view link
 * can reach is asked twice (the second answer comes from the page cache or a signed-in template)
 * and the marker is nowhere. The owner and an editor still read, edit and present the notes.
 */

const MARKER = "zqxprivatenote";
/** A word only the notes say: searched for, it must find nothing (the marker itself would be echoed as the query). */
const NOTES_ONLY_WORD = "seiche";
const DECK = [
  "# Tide tables",
  "Reading the sea before you swim",
  "",
  `Note: ${MARKER} reveal style, mention the rip current and the ${NOTES_ONLY_WORD}`,
  "---",
  "# Spring and neap tides",
  "The moon pulls twice a day",
  "",
  `<!-- ${MARKER} slidev style, breathe before the chart -->`,
  "---",
  "# Safe swimming",
  "Ask the lifeguard",
].join("\n");
const TITLE = "Tide tables for swimmers";

/** A browser's request headers: it takes compressed answers, so cached bodies are what it gets. */
const BROWSER = {
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36",
  "accept-encoding": "gzip, br",
  "accept-language": "en",
};

function textOf(response: LightMyRequestResponse): string {
  const encoding = response.headers["content-encoding"];
  const raw = response.rawPayload;
  if (encoding === "br") return brotliDecompressSync(raw).toString("utf8");
  if (encoding === "gzip") return gunzipSync(raw).toString("utf8");
  return raw.toString("utf8");
}

/** The import form's body, the file as Markdown. */
const multipart = (fields: Record<string, string>, file: { name: string; content: string }) =>
  multipartForm(fields, { ...file, type: "text/markdown" });

describe.each(testDatabaseTargets())("issue 28: speaker notes are the presenter's, on $name", (target) => {
  let app: FastifyInstance;
  let db: Database;
  let close: () => Promise<void>;
  const agents: Record<"owner" | "editor" | "commenter" | "stranger", TestAgent> = {} as never;
  let oid = "";
  let ownerOid = "";
  let link = "";
  let presentingLink = "";
  const canonical = () => `/p/${oid}/${slugify(TITLE)}/`;

  const get = (agent: TestAgent, url: string) => agent.get(url, BROWSER);
  const anonymous = () => new TestAgent(app);

  beforeAll(async () => {
    // The page cache on (anonymous pages and signed-in templates): its hits are routes too.
    ({ app, db, close } = await createTestApp(target, { pageCacheMaxBytes: 8 * 1024 * 1024 }));
    const roles = ["owner", "editor", "commenter", "stranger"] as const;
    Object.assign(agents, (await signUpRoles(app, db, roles, "notes.test", { named: true })).agents);
    // A choice made: no cookie banner, as for a returning visitor.
    for (const agent of Object.values(agents)) agent.cookies.set("podium_cookie_consent", "necessary");
    const owner = agents.owner;
    const body = multipart(
      { _csrf: owner.cookies.get("XSRF-TOKEN") ?? "", privacy: "reusable", schemaVersion: "2", title: TITLE },
      { name: "tides.md", content: DECK },
    );
    const imported = await owner.request({
      method: "POST",
      url: "/dashboard/next/import",
      payload: body.payload,
      headers: { "content-type": body.contentType },
    });
    expect(imported.statusCode).toBe(303);
    oid = /presentations\/([a-z0-9]{12})\//.exec(String(imported.headers.location))?.[1] ?? "";
    expect(oid).toMatch(/^[a-z0-9]{12}$/);
    const manage = `/dashboard/next/presentations/${oid}`;
    for (const [role, right] of [
      ["editor", "edit"],
      ["commenter", "comment"],
    ] as const) {
      const added = await owner.postForm(`${manage}/collaborators`, { email: `${role}@notes.test`, right });
      expect(added.statusCode).toBe(303);
    }
    expect((await owner.postForm(`${manage}/view-links`, {})).statusCode).toBe(303);
    expect((await owner.postForm(`${manage}/view-links`, { forPresenting: "on" })).statusCode).toBe(303);
    const links = await db.query<{ linkId: string; forPresenting: boolean }>(
      `select v.link_id as "linkId", v.for_presenting as "forPresenting"
         from view_links v join presentations p on p.id = v.presentation_id where p.oid = $1`,
      [oid],
    );
    link = links.find((l) => !l.forPresenting)?.linkId ?? "";
    presentingLink = links.find((l) => l.forPresenting)?.linkId ?? "";
    ownerOid =
      (await db.query<{ oid: string }>("select oid from users where email = 'owner@notes.test'"))[0]?.oid ?? "";
    await app.changes.sync();
    // Four sign-ups: each hashes a password with scrypt on purpose (slow), more so on a busy machine.
  }, 180_000);
  afterAll(() => close());

  /** Every route someone without presenting rights can reach, with the status it answers. */
  const publicRoutes = (): Array<[string, number]> => [
    [`/p/${oid}/`, 200],
    [canonical(), 200],
    [`/p/embed/${oid}/`, 200],
    [`/p/read/${oid}/`, 200],
    [`/p/${oid}/document.json`, 200],
    [`/p/${oid}/thumbnail.svg`, 200],
    [`/p/${oid}/thumbnail-fallback.svg`, 200],
    [`/p/${oid}/sidebar.json`, 200],
    [`/p/${oid}/more.json`, 200],
    [`/view/${link}/`, 200],
    [`/view/${link}/read/`, 200],
    [`/view/${link}/document.json`, 200],
    [`/view/${link}/thumbnail.svg`, 200],
    [`/oembed?url=${encodeURIComponent(`https://podium.example${canonical()}`)}`, 200],
    [`/explore/search/?search=${NOTES_ONLY_WORD}`, 200],
    ["/explore/search/?search=tide", 200],
    ["/explore/search/?search=breathe%20chart", 200],
    [`/api/search/suggest?q=${NOTES_ONLY_WORD}`, 200],
    ["/api/search/suggest?q=tide", 200],
    ["/sitemap.xml", 200],
    ["/explore/", 200],
    ["/", 200],
    [`/user/${ownerOid}/`, 200],
  ];

  /** Asks every route twice and checks both answers; gives the second answers' headers by route. */
  const expectNoNotes = async (who: string, agent: TestAgent, routes: Array<[string, number]>) => {
    const seconds = new Map<string, LightMyRequestResponse["headers"]>();
    for (const [url, status] of routes) {
      // Twice: the second answer is a page cache hit (anonymous) or a template (signed in).
      for (const round of [1, 2]) {
        const response = await get(agent, url);
        const label = `${who} ${url} (${round})`;
        expect(response.statusCode, label).toBe(status);
        expect(textOf(response), label).not.toContain(MARKER);
        expect(JSON.stringify(response.headers), label).not.toContain(MARKER);
        if (round === 2) seconds.set(url, response.headers);
      }
    }
    return seconds;
  };
  /** Served from the page cache (stale too: a busy machine may take longer than its 4 fresh seconds). */
  const FROM_CACHE = ["hit", "stale"];

  it("issue 28: the import kept both note styles for the owner, and the deck's notes start private", async () => {
    interface Topic {
      notes?: string;
      topics: Topic[];
    }
    const document = JSON.parse(textOf(await get(agents.owner, `/p/${oid}/document.json`))) as { topics: Topic[] };
    const notes: string[] = [];
    const visit = (topics: Topic[]) => {
      for (const topic of topics) {
        if (topic.notes) notes.push(topic.notes);
        visit(topic.topics);
      }
    };
    visit(document.topics);
    expect(notes).toEqual([
      expect.stringContaining(`${MARKER} reveal style`),
      expect.stringContaining(`${MARKER} slidev style`),
    ]);
    const [row] = await db.query<{ notesPublic: boolean }>(
      `select notes_public as "notesPublic" from presentations where oid = $1`,
      [oid],
    );
    expect(row?.notesPublic).toBe(false);
  });

  it("issue 28: an anonymous visitor receives no note by any route, cache hits included", async () => {
    const visitor = anonymous();
    visitor.cookies.set("podium_cookie_consent", "necessary");
    const seconds = await expectNoNotes("anonymous", visitor, publicRoutes());
    // The second answers were the page cache's: the cache was part of what was checked.
    for (const url of [
      `/p/${oid}/`,
      `/p/embed/${oid}/`,
      `/p/read/${oid}/`,
      `/p/${oid}/document.json`,
      "/sitemap.xml",
    ]) {
      expect(FROM_CACHE, url).toContain(seconds.get(url)?.["podium-cache"]);
    }
  });

  it("issue 28: a signed-in stranger receives no note by any route, template hits included", async () => {
    const seconds = await expectNoNotes("stranger", agents.stranger, publicRoutes());
    // The second view page was filled in from a signed-in template.
    expect(seconds.get(`/p/${oid}/`)?.["podium-template"]).toBe("hit");
  });

  it("issue 28: a commenter receives no note, in commenting mode neither", async () => {
    await expectNoNotes("commenter", agents.commenter, [...publicRoutes(), [`/p/edit/${oid}/`, 200]]);
  });

  it("issue 28: the presenter view is refused to those who may not edit and to ordinary view links", async () => {
    for (const agent of [agents.stranger, agents.commenter]) {
      const response = await get(agent, `/p/presenter/${oid}/`);
      expect(response.statusCode).toBe(403);
      expect(textOf(response)).not.toContain(MARKER);
    }
    const signedOut = await get(anonymous(), `/p/presenter/${oid}/`);
    expect(signedOut.statusCode).toBe(303);
    expect(signedOut.headers.location).toBe(`/login/?next=${encodeURIComponent(`/p/presenter/${oid}/`)}`);
    expect((await get(anonymous(), `/view/${link}/presenter/`)).statusCode).toBe(403);
    // The players they see offer no presenter view.
    for (const [agent, url] of [
      [agents.stranger, `/p/${oid}/`],
      [anonymous(), `/view/${link}/`],
    ] as const) {
      expect(textOf(await get(agent, url))).toContain('"canPresent":false');
    }
  });

  it("issue 28: the owner and an editor present with the notes; the owner edits them", async () => {
    for (const agent of [agents.owner, agents.editor]) {
      const page = await get(agent, `/p/presenter/${oid}/`);
      expect(page.statusCode).toBe(200);
      expect(page.headers["cache-control"]).toBe("private, no-store");
      const document = await get(agent, `/p/${oid}/document.json`);
      expect(document.headers["cache-control"]).toBe("private, no-store");
      expect(textOf(document)).toContain(`${MARKER} slidev style`);
      expect(textOf(await get(agent, `/p/${oid}/`))).toContain('"canPresent":true');
    }
    const editor = textOf(await get(agents.owner, `/p/edit/${oid}/`));
    expect(editor).toContain(`Note: ${MARKER} reveal style`);
    expect(editor).toContain(`&lt;!-- ${MARKER} slidev style`);
    expect(editor).toContain('name="notes"');
    // The owner's own view page is what the audience sees: no private notes in it (so it can't reach a shared page).
    expect(textOf(await get(agents.owner, `/p/${oid}/`))).not.toContain(MARKER);
  });

  it("issue 28: a view link made for presenting opens the presenter view, notes included, never stored", async () => {
    const holder = anonymous();
    const page = await get(holder, `/view/${presentingLink}/presenter/`);
    expect(page.statusCode).toBe(200);
    const document = await get(holder, `/view/${presentingLink}/document.json`);
    expect(document.headers["cache-control"]).toBe("private, no-store");
    expect(textOf(document)).toContain(`${MARKER} reveal style`);
    expect(textOf(await get(holder, `/view/${presentingLink}/`))).toContain('"canPresent":true');
    // Its page is the audience's all the same.
    expect(textOf(await get(holder, `/view/${presentingLink}/`))).not.toContain(MARKER);
  });

  it("issue 28: the search text holds no note: neither the stored vector nor the snippet text", async () => {
    const [row] = await db.query<{ vector: string; snippet: string }>(
      `select search_vector::text as vector, snippet_text as snippet from presentations where oid = $1`,
      [oid],
    );
    expect(row?.vector).toContain("tide");
    expect(row?.vector).not.toContain(MARKER);
    expect(row?.snippet).not.toContain(MARKER);
    for (const word of [MARKER, NOTES_ONLY_WORD]) {
      const found = await db.query(
        `select 1 from presentations where oid = $1 and search_vector @@ to_tsquery('simple', $2)`,
        [oid, word],
      );
      expect(found, word).toHaveLength(0);
    }
    expect(textOf(await get(anonymous(), `/explore/search/?search=${NOTES_ONLY_WORD}`))).toContain('"total":0');
  });

  it("issue 28: a copy made by someone else carries no notes; the owner's own copy keeps them", async () => {
    const copied = await agents.stranger.postForm(`/p/${oid}/copy/`, {});
    expect(copied.statusCode).toBe(303);
    const copyOid = /presentations\/([a-z0-9]{12})\//.exec(String(copied.headers.location))?.[1] ?? "";
    expect(textOf(await get(agents.stranger, `/p/${copyOid}/document.json`))).not.toContain(MARKER);
    expect(textOf(await get(agents.stranger, `/p/edit/${copyOid}/`))).not.toContain(MARKER);
    const own = await agents.owner.postForm(`/p/${oid}/copy/`, {});
    const ownOid = /presentations\/([a-z0-9]{12})\//.exec(String(own.headers.location))?.[1] ?? "";
    expect(textOf(await get(agents.owner, `/p/${ownOid}/document.json`))).toContain(MARKER);
  });

  it("issue 28: only the owner publishes the notes; published, they show as before; private again, they go at once", async () => {
    const manage = `/dashboard/next/presentations/${oid}`;
    // An editor can't; the editor's own save leaves the choice as it was.
    expect((await agents.editor.postForm(`${manage}/notes`, { notes: "public" })).statusCode).toBe(403);
    const visitor = anonymous();
    visitor.cookies.set("podium_cookie_consent", "necessary");
    expect(textOf(await get(visitor, `/p/${oid}/`))).not.toContain(MARKER);
    expect((await agents.owner.postForm(`${manage}/notes`, { notes: "public" })).statusCode).toBe(303);
    await app.changes.sync();
    const published = await get(visitor, `/p/${oid}/`);
    expect(published.headers["podium-cache"]).not.toBe("hit");
    expect(textOf(published)).toContain(`${MARKER} reveal style`);
    expect(textOf(await get(visitor, `/p/${oid}/document.json`))).toContain(`${MARKER} slidev style`);
    expect(textOf(await get(visitor, `/p/read/${oid}/`))).toContain(MARKER);
    // The presenter view still needs the right to present.
    expect((await get(agents.stranger, `/p/presenter/${oid}/`)).statusCode).toBe(403);
    const manageNotes = textOf(await get(agents.owner, `${manage}/`));
    expect(manageNotes).toContain("2 slides have speaker notes. They are published");

    expect((await agents.owner.postForm(`${manage}/notes`, { notes: "private" })).statusCode).toBe(303);
    await app.changes.sync();
    expect(textOf(await get(visitor, `/p/${oid}/`))).not.toContain(MARKER);
    expect(textOf(await get(visitor, `/p/${oid}/document.json`))).not.toContain(MARKER);
    expect(textOf(await get(agents.owner, `${manage}/`))).toContain("2 slides have speaker notes. They are private");
  });

  it("issue 28: the owner's editor saves the notes' choice; an editor's save keeps it", async () => {
    const path = `/p/edit/${oid}/`;
    const form = {
      title: TITLE,
      description: "",
      privacy: "reusable",
      tags: "",
      markdown: DECK,
    };
    const notesPublic = async () =>
      (await db.query<{ v: boolean }>("select notes_public as v from presentations where oid = $1", [oid]))[0]?.v;
    expect((await agents.owner.postForm(path, { ...form, notes: "public" })).statusCode).toBe(303);
    expect(await notesPublic()).toBe(true);
    const { privacy: _privacy, ...editorForm } = form;
    expect((await agents.editor.postForm(path, { ...editorForm, notes: "private" })).statusCode).toBe(303);
    expect(await notesPublic()).toBe(true);
    expect((await agents.owner.postForm(path, { ...form, notes: "private" })).statusCode).toBe(303);
    expect(await notesPublic()).toBe(false);
  });
});
