import type { FastifyInstance } from "fastify";
import { JSDOM } from "jsdom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { testDatabaseTargets } from "../../db/testing";
import { importMarkdown } from "../../document/markdown";
import { stableOid } from "../../lib/ids";
import { createTestApp, insertTestDeck, insertTestUser, searchCaughtUp } from "../../server/testing";

/**
 * Issue 32 item 3: search reads search_entries (migration 0028), a narrow copy of what finding and
 * ranking a listed presentation needs, kept by triggers. Whatever writes a presentation (any
 * statement, any column), the entries stay exactly the listed, non-template presentations' words,
 * tags and views, and a visitor's search follows every change.
 */
describe.each(testDatabaseTargets())("issue 32 search entries on $name", (target) => {
  let app: FastifyInstance;
  let db: Database;
  let close: () => Promise<void>;
  let ownerId = "";
  const oid = (name: string) => stableOid(`search-entries:${name}`);

  /** The titles a visitor's search lists, in order. */
  const titlesFound = async (term: string) => {
    await searchCaughtUp(app);
    const response = await app.inject({ method: "GET", url: `/explore/search/?search=${encodeURIComponent(term)}` });
    expect(response.statusCode).toBe(200);
    const document = new JSDOM(response.body).window.document;
    return [...document.querySelectorAll(".card-grid .card .card__title")].map((title) => title.textContent ?? "");
  };

  /** Rows of search_entries that differ from what the presentations say they must be (none when in step). */
  const outOfStep = () =>
    db.query<{ id: string }>(
      `select coalesce(e.id, p.id)::text as id
         from search_entries e
         full join (select id, view_count, tags, title_vector, search_vector from presentations
                     where privacy in ('public', 'reusable') and not hidden and template_slug is null) p on p.id = e.id
        where e.id is null or p.id is null
           or (e.view_count, e.tags, e.title_vector, e.search_vector) is distinct from
              (p.view_count, p.tags, p.title_vector, p.search_vector)`,
    );

  const idOf = async (name: string) => {
    const rows = await db.query<{ id: string }>("select id::text as id from presentations where oid = $1", [oid(name)]);
    return rows[0]?.id ?? "";
  };

  beforeAll(async () => {
    ({ app, db, close } = await createTestApp(target));
    const user = await insertTestUser(db, {
      oid: stableOid("search-entries:owner"),
      email: "entries@podium.test",
      username: "entries",
      firstName: "Entry",
      lastName: "Owner",
    });
    ownerId = user.id;
  });

  afterAll(async () => {
    await close?.();
  });

  it("issue 32 item 3: a listed deck is found from its insert, and only listed, non-template decks have entries", async () => {
    const deck = (name: string, title: string, privacy: "public" | "reusable" | "private" | "unlisted") =>
      insertTestDeck(db, {
        oid: oid(name),
        ownerId,
        title,
        privacy,
        document: importMarkdown(`# ${title}\n---\n## Inside\n- quinceharvest orchards\n`, "2"),
      });
    await deck("public", "Loquat Paste", "public");
    await deck("reusable", "Rowan Jelly", "reusable");
    await deck("private", "Quince Private", "private");
    await deck("unlisted", "Quince Unlisted", "unlisted");
    await db.query("update presentations set template_slug = 'quince-template' where oid = $1", [oid("reusable")]);
    expect(await outOfStep()).toEqual([]);
    const [entries] = await db.query<{ n: number }>(
      "select count(*)::int as n from search_entries e join presentations p on p.id = e.id where p.oid = any($1)",
      [[oid("public"), oid("reusable"), oid("private"), oid("unlisted")]],
    );
    expect(entries?.n).toBe(1);
    expect(await titlesFound("quinceharvest -rowan")).toEqual(["Loquat Paste"]);
  });

  it("issue 32 item 3: a renamed, retagged, rewritten, hidden or made-private deck is found as it is now", async () => {
    await db.query("update presentations set title = 'Medlar Jelly', tags = '{preserves}' where oid = $1", [
      oid("public"),
    ]);
    expect(await outOfStep()).toEqual([]);
    expect(await titlesFound("medlar")).toEqual(["Medlar Jelly"]);
    const tagged = await app.inject({ method: "GET", url: "/explore/search/?search=medlar&tag=preserves" });
    expect(tagged.body).toContain("Medlar Jelly");

    await db.query("update presentations set document = $2 where oid = $1", [
      oid("public"),
      JSON.stringify(importMarkdown("# Medlar Jelly\n---\n## Inside\n- bletting fruit\n", "2")),
    ]);
    expect(await outOfStep()).toEqual([]);
    expect(await titlesFound("bletting")).toEqual(["Medlar Jelly"]);
    expect(await titlesFound("quinceharvest -rowan")).toEqual([]);

    await db.query("update presentations set privacy = 'private' where oid = $1", [oid("public")]);
    expect(await outOfStep()).toEqual([]);
    expect(await titlesFound("bletting")).toEqual([]);
    await db.query("update presentations set privacy = 'public' where oid = $1", [oid("public")]);
    expect(await titlesFound("bletting")).toEqual(["Medlar Jelly"]);

    await db.query("update presentations set hidden = true where oid = $1", [oid("public")]);
    expect(await outOfStep()).toEqual([]);
    expect(await titlesFound("bletting")).toEqual([]);
    await db.query("update presentations set hidden = false where oid = $1", [oid("public")]);

    // A template stops being one: it is listed again (reusable), and found.
    await db.query("update presentations set template_slug = null where oid = $1", [oid("reusable")]);
    expect(await outOfStep()).toEqual([]);
    expect(await titlesFound("rowan")).toEqual(["Rowan Jelly"]);
  });

  it("issue 32 item 3: views counted after the insert order equal matches, and a deleted deck's entry goes with it", async () => {
    await insertTestDeck(db, { oid: oid("few"), ownerId, title: "Sorrel Soup" });
    await insertTestDeck(db, { oid: oid("many"), ownerId, title: "Sorrel Salad" });
    // Equal rank (the word in the title of both): the most watched first, and views move it.
    await db.query("update presentations set view_count = 5 where oid = $1", [oid("few")]);
    expect(await outOfStep()).toEqual([]);
    // Views move without a change being heard: the index in memory reads them again each minute.
    await app.searchMemory?.refreshViews();
    expect(await titlesFound("sorrel")).toEqual(["Sorrel Soup", "Sorrel Salad"]);
    await db.query("update presentations set view_count = view_count + 9 where oid = $1", [oid("many")]);
    expect(await outOfStep()).toEqual([]);
    await app.searchMemory?.refreshViews();
    expect(await titlesFound("sorrel")).toEqual(["Sorrel Salad", "Sorrel Soup"]);

    const id = await idOf("many");
    await db.query("delete from presentations where oid = $1", [oid("many")]);
    expect(await outOfStep()).toEqual([]);
    expect(id).not.toBe("");
    expect(await db.query("select 1 from search_entries where id = $1", [id])).toEqual([]);
    expect(await titlesFound("sorrel")).toEqual(["Sorrel Soup"]);
  });
});
