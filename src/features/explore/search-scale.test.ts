import type { FastifyInstance } from "fastify";
import { JSDOM } from "jsdom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { testDatabaseTargets } from "../../db/testing";
import { importMarkdown } from "../../document/markdown";
import { MARK_END, MARK_START } from "../../lib/card";
import { stableOid } from "../../lib/ids";
import { bulkOwnerCount, removeBulk, seedBulk } from "../../server/seed/bulk";
import { createTestApp, insertTestDeck, searchCaughtUp } from "../../server/testing";
import { SEARCH_COUNT_CAP } from "./repository";
import { SEARCH_PAGE_SIZE } from "./service";
import { SNIPPET_TEXT_MAX_CHARS } from "./snippet";

/** Issue 15: the search page, read as a browser would (the cards' titles, marks, status, filters). */
function read(html: string) {
  const document = new JSDOM(html).window.document;
  const cards = [...document.querySelectorAll(".card-grid .card")];
  return {
    document,
    titles: cards.map((card) => card.querySelector(".card__title")?.textContent ?? ""),
    paths: cards.map((card) => card.getAttribute("href") ?? ""),
    marks: [...document.querySelectorAll(".card-grid mark")].map((mark) => mark.textContent ?? ""),
    status: document.querySelector('[role="status"]')?.textContent ?? "",
    typeCount: (type: string) =>
      document.querySelector(`.search-types a[href*="type=${type}"] .search-types__count`)?.textContent ?? "",
  };
}

/** A run of bulk decks big enough that a common word matches more than the count cap. */
const BULK_COUNT = 1_400;
const RUN_ID = "search-test";
/** Small statements: the test databases cut each statement after 5 s, and the machine may be busy. */
const BATCH_SIZE = 200;

describe.each(testDatabaseTargets())("issue 15 search on $name", (target) => {
  let app: FastifyInstance;
  let db: Database;
  let close: () => Promise<void>;
  const page = async (query: string) => {
    await searchCaughtUp(app);
    const response = await app.inject({ method: "GET", url: `/explore/search/?${query}` });
    expect(response.statusCode).toBe(200);
    return read(response.body);
  };

  beforeAll(async () => {
    ({ app, db, close } = await createTestApp(target, {}, { seeded: true }));
    const [owner] = await db.query<{ id: string }>("select id::text as id from users where email = 'ada@podium.test'");
    await insertTestDeck(db, {
      oid: stableOid("search-test:script"),
      ownerId: owner?.id ?? "",
      title: "<script>alert(1)</script> Marmalade tips",
      descriptionHtml: "<p>How to set marmalade every time.</p>",
      tags: ["preserves"],
      document: importMarkdown("# Marmalade\n---\n## Setting point\n- Wrinkle test on a cold plate\n", "2"),
    });
    await seedBulk(db, { count: BULK_COUNT, runId: RUN_ID, batchSize: BATCH_SIZE });
  }, 240_000);

  afterAll(async () => {
    await close?.();
  });

  it("issue 15 item 1: seed:bulk is idempotent per run id and removable", async () => {
    const again = await seedBulk(db, { count: BULK_COUNT, runId: RUN_ID, batchSize: BATCH_SIZE });
    expect(again.presentations).toBe(0);
    expect(again.likes).toBe(0);
    const [counts] = await db.query<{ decks: number; likes: number; counted: number; liked: number }>(
      `select count(distinct p.id)::int as decks,
              (select count(*)::int from likes l join presentations q on q.id = l.presentation_id
                 join users o on o.id = q.owner_id where o.email like 'bulk-search-test-%') as likes,
              (select coalesce(sum(c.count), 0)::int from like_counters c join presentations q on q.id = c.presentation_id
                 join users o on o.id = q.owner_id where o.email like 'bulk-search-test-%') as counted,
              count(*) filter (where p.view_count > 1000)::int as liked
         from presentations p join users u on u.id = p.owner_id where u.email like 'bulk-search-test-%'`,
    );
    expect(counts?.decks).toBe(BULK_COUNT);
    expect(counts?.likes).toBeGreaterThan(0);
    // The counters count exactly the rows (the seed's invariant).
    expect(counts?.counted).toBe(counts?.likes);
    // A second, small run comes and goes without touching the first.
    const other = await seedBulk(db, { count: 10, runId: "other-run" });
    expect(other.presentations).toBe(10);
    expect(other.owners).toBe(bulkOwnerCount(10));
    expect(await removeBulk(db, "other-run")).toEqual({ owners: bulkOwnerCount(10), presentations: 10 });
    const [left] = await db.query<{ n: number }>(
      "select count(*)::int as n from users where email like 'bulk-other-run-%'",
    );
    expect(left?.n).toBe(0);
    await expect(seedBulk(db, { count: 1, runId: "Bad Id!" })).rejects.toThrow(/run id/);
  });

  it('issue 15 item 3: typo tolerance: "sourdoguh" finds Sourdough Basics', async () => {
    const found = await page("search=sourdoguh");
    expect(found.titles).toContain("Sourdough Basics");
    expect(found.status).toMatch(/sourdoguh/);
    // Filters hold for similar titles too: no video or template is a sourdough deck.
    expect((await page("search=sourdoguh&type=template")).titles).not.toContain("Sourdough Basics");
    // Each misspelt word stands for the closest word of the titles; the others stay as typed.
    const two = await page(`search=${encodeURIComponent("sourdoguh basicss")}`);
    expect(two.titles).toContain("Sourdough Basics");
    expect(two.status).toMatch(/No exact matches/);
    // What the visitor excluded stays excluded ("starter" is in Sourdough Basics' slides).
    expect((await page(`search=${encodeURIComponent("sourdoguh -starter")}`)).titles).not.toContain("Sourdough Basics");
    // A short common word alone never stands in for words nobody wrote.
    const nonsense = await page(`search=${encodeURIComponent("the qzxjw vvrbl")}`);
    expect(nonsense.titles).toEqual([]);
  });

  it('issue 15 item 3: "quoted phrase" and -exclude', async () => {
    // "Setting point" is a heading of the marmalade deck; the words apart are in others too.
    const phrase = await page(`search=${encodeURIComponent('"setting point"')}`);
    expect(phrase.titles).toContain("<script>alert(1)</script> Marmalade tips");
    const reversed = await page(`search=${encodeURIComponent('"point setting"')}`);
    expect(reversed.titles).not.toContain("<script>alert(1)</script> Marmalade tips");
    const sourdough = await page("search=sourdough&type=presentation");
    expect(sourdough.titles).toContain("Sourdough Basics");
    const excluded = await page(`search=${encodeURIComponent("sourdough -starter")}&type=presentation`);
    expect(excluded.titles).not.toContain("Sourdough Basics");
    // Operators typed as text never reach the database as operators.
    expect((await page(`search=${encodeURIComponent("sourdough & | ! <-> ':*")}`)).titles).toContain(
      "Sourdough Basics",
    );
    // Exclusions alone look for nothing (and don't read the whole catalogue).
    expect((await page("search=-sourdough")).titles).toEqual([]);
  });

  it("issue 15 item 2: a word's start finds titles and tags, whole words find the text; each deck counted once", async () => {
    // "sourd" starts "Sourdough" in a title: found and counted, though no deck's text holds the word "sourd".
    const start = await page("search=sourd&type=presentation");
    expect(start.titles).toContain("Sourdough Basics");
    expect(Number(start.typeCount("presentation").replace(/\D/g, ""))).toBeGreaterThanOrEqual(start.titles.length);
    // Decks found both ways (title and text) are listed and counted once: the pages hold the count.
    const count = Number(start.typeCount("presentation").replace(/\D/g, ""));
    const paths: string[] = [];
    for (let n = 1; n <= Math.ceil(count / 24); n += 1)
      paths.push(...(await page(`search=sourd&type=presentation&page=${n}`)).paths);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths).toHaveLength(count);
    // An excluded word excludes a title hit too.
    expect((await page(`search=${encodeURIComponent("sourd -starter")}&type=presentation`)).titles).not.toContain(
      "Sourdough Basics",
    );
  });

  it("issue 15 item 3: OR finds either word", async () => {
    const either = await page(`search=${encodeURIComponent("marmalade OR crispr")}&type=presentation`);
    const crispr = await page("search=crispr&type=presentation");
    const marmalade = await page("search=marmalade&type=presentation");
    expect(marmalade.titles).toEqual(["<script>alert(1)</script> Marmalade tips"]);
    expect(Number(crispr.typeCount("presentation"))).toBeGreaterThan(0);
    expect(Number(either.typeCount("presentation"))).toBe(Number(crispr.typeCount("presentation")) + 1);
    expect(either.titles).toContain("CRISPR Basics");
    const both = await page(`search=${encodeURIComponent("marmalade crispr")}&type=presentation`);
    // Both words find nothing, so what is shown is only alike (typo tolerance), and says so.
    expect(both.status).toMatch(/No exact matches/);
  });

  it("issue 15 item 3: highlighting marks the words, and a title with <script> stays text", async () => {
    const response = await app.inject({ method: "GET", url: "/explore/search/?search=marmalade" });
    expect(response.body).not.toContain("<script>alert(1)</script>");
    const found = read(response.body);
    expect(found.titles).toContain("<script>alert(1)</script> Marmalade tips");
    expect(found.marks.map((mark) => mark.toLowerCase())).toContain("marmalade");
    expect(found.document.querySelectorAll(".card-grid script")).toHaveLength(0);
  });

  it("issue 15 item 3: a snippet is cut from the deck's current text: the description without its tags, then the slides (stored, migration 0016)", async () => {
    const oid = stableOid("search-test:script");
    const cardOf = async (query: string) => {
      const found = await page(query);
      const index = found.titles.indexOf("<script>alert(1)</script> Marmalade tips");
      expect(index).toBeGreaterThanOrEqual(0);
      return found.document.querySelectorAll(".card-grid .card")[index];
    };
    const snippetOf = async (query: string) =>
      (await cardOf(query))?.querySelector(".card__snippet")?.textContent ?? "";
    expect(await snippetOf("search=wrinkle")).toContain("Marmalade Setting point Wrinkle test on a cold plate");
    expect(await snippetOf("search=marmalade%20every%20time")).toBe(
      "How to set marmalade every time. Marmalade Setting point Wrinkle test on a cold plate",
    );
    await db.query("update presentations set document = $1 where oid = $2", [
      importMarkdown("# Marmalade\n---\n## Quince\n- Quince jelly sets firmer\n", "2"),
      oid,
    ]);
    expect(await snippetOf("search=quince")).toContain("Quince jelly sets firmer");
    expect(await snippetOf("search=marmalade")).not.toContain("Wrinkle");
    // The highlight markers in a deck's own text mark nothing: only the words searched for are marked.
    await db.query("update presentations set document = $1 where oid = $2", [
      importMarkdown(`# Marmalade\n---\n## Quince\n- ${MARK_START}Forged${MARK_END} quince marks\n`, "2"),
      oid,
    ]);
    const marked = await cardOf("search=quince%20marks");
    const marks = [...(marked?.querySelectorAll(".card__snippet mark") ?? [])].map((mark) => mark.textContent);
    expect(marks).toEqual(["Quince", "quince", "marks"]);
    expect(await snippetOf("search=quince%20marks")).toContain("Forged quince marks");
    // A long deck's text is stored up to the length a snippet reads.
    const slide = `## Quince\n- ${"quince jelly ".repeat(40)}\n`;
    await db.query("update presentations set document = $1 where oid = $2", [
      importMarkdown(
        `# Marmalade\n${`---\n${slide}`.repeat(Math.ceil(SNIPPET_TEXT_MAX_CHARS / slide.length) + 5)}`,
        "2",
      ),
      oid,
    ]);
    const [stored] = await db.query<{ length: number }>(
      "select length(snippet_text) as length from presentations where oid = $1",
      [oid],
    );
    expect(stored?.length).toBe(SNIPPET_TEXT_MAX_CHARS);
  });

  it("issue 15 item 3: filters by type and tag, and templates and videos are found and counted", async () => {
    const all = await page("search=pitch");
    expect(Number(all.typeCount("template"))).toBeGreaterThanOrEqual(1);
    const templates = await page("search=pitch&type=template");
    expect(templates.titles).toContain("Startup Pitch Deck");
    expect(templates.paths.every((path) => path.startsWith("/presentation-template/"))).toBe(true);
    const videos = await page("search=presenting&type=video");
    expect(videos.titles).toContain("Presenting with confidence");
    expect(videos.paths.every((path) => path.startsWith("/video/"))).toBe(true);
    expect(Number(all.typeCount("video"))).toBeGreaterThanOrEqual(0);
    expect(
      Number(read((await app.inject({ url: "/explore/search/?search=presenting" })).body).typeCount("video")),
    ).toBe(videos.titles.length);
    const tagged = await page("search=basics&tag=baking&type=presentation");
    expect(tagged.titles.length).toBeGreaterThan(0);
    const [untagged] = await db.query<{ n: number }>(
      `select count(*)::int as n from presentations where oid = any($1) and not ('baking' = any(tags))`,
      [tagged.paths.map((path) => path.split("/")[2])],
    );
    expect(untagged?.n).toBe(0);
    expect(tagged.document.querySelector<HTMLInputElement>("#search-tag-input")?.value).toBe("baking");
  });

  it('issue 15 item 2: totals are exact up to 1,000, then "1,000+"', async () => {
    const [matches] = await db.query<{ n: number }>(
      "select count(*)::int as n from presentations where search_vector @@ to_tsquery('simple', 'the') and template_slug is null and privacy in ('public', 'reusable') and not hidden",
    );
    expect(matches?.n).toBeGreaterThan(SEARCH_COUNT_CAP);
    const many = await page("search=the&type=presentation");
    expect(many.status).toBe("1,000+ results found.");
    expect(many.typeCount("presentation")).toBe("1,000+");
    const few = await page("search=marmalade&type=presentation");
    expect(few.status).toBe("1 result found.");
  });

  it("issue 15 item 2: pagination keeps a stable order (no hit twice, none skipped)", async () => {
    const seen: string[] = [];
    for (let n = 1; n <= 3; n += 1) seen.push(...(await page(`search=the&type=presentation&page=${n}`)).paths);
    expect(seen).toHaveLength(3 * SEARCH_PAGE_SIZE);
    expect(new Set(seen).size).toBe(seen.length);
    const again: string[] = [];
    for (let n = 1; n <= 3; n += 1) again.push(...(await page(`search=the&type=presentation&page=${n}`)).paths);
    expect(again).toEqual(seen);
  });
});
