import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, Queryable } from "../../db/client";
import { testDatabaseTargets } from "../../db/testing";
import { importMarkdown } from "../../document/markdown";
import { MARK_END, MARK_START } from "../../lib/card";
import { stableOid } from "../../lib/ids";
import {
  countingDatabase,
  createTestApp,
  insertTestDeck,
  insertTestUser,
  searchCaughtUp,
  TestAgent,
} from "../../server/testing";
import { EVERYTHING_TAG, presentationTag } from "../content-changes";
import { type HitKey, KeptHitRows } from "./kept-hit-rows";

/**
 * Issue 32 item 3: the rows a page of search hits shows are read once and kept, and a visitor
 * never sees one the change feed has said is out of date: an edited title, a renamed owner, a deck
 * hidden or made private, anything after the feed was interrupted. Counts may lag by the small
 * caches' minute, as the home page's do.
 */
describe.each(testDatabaseTargets())("issue 32 search's kept hit rows on $name", (target) => {
  let app: FastifyInstance;
  let db: Database;
  let close: () => Promise<void>;
  const oid = (name: string) => stableOid(`kept-hit-rows:${name}`);
  const ids = new Map<string, string>();
  let ownerOid = "";

  beforeAll(async () => {
    ({ app, db, close } = await createTestApp(target, {}, { seeded: true }));
    await app.ready();
    const owner = await insertTestUser(db, {
      oid: stableOid("kept-hit-rows:owner"),
      email: "kept-rows@podium.test",
      username: "keptrows",
      firstName: "Kept",
      lastName: "Rows",
    });
    ownerOid = stableOid("kept-hit-rows:owner");
    for (const [name, title] of [
      ["a", "Quokka habitats"],
      ["b", "Quokka diets"],
      ["c", "Quokka photography"],
    ] as const) {
      await insertTestDeck(db, {
        oid: oid(name),
        ownerId: owner.id,
        title,
        document: importMarkdown(`# ${title}\n---\n# Field notes\n\nA quokka smiles at the camera.`, "2"),
      });
      const [row] = await db.query<{ id: string }>("select id::text as id from presentations where oid = $1", [
        oid(name),
      ]);
      ids.set(name, row?.id as string);
    }
    await app.searchMemory?.start();
    await searchCaughtUp(app);
  });

  afterAll(async () => {
    await close();
  });

  const page = (...names: string[]): HitKey[] =>
    names.map((name) => ({ kind: "presentation", key: ids.get(name) as string }));

  /** The cards' titles of a search page as a visitor gets it, the highlight taken out. */
  const titlesFound = async (term: string): Promise<string[]> => {
    const response = await new TestAgent(app).get(`/explore/search/?search=${encodeURIComponent(term)}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers["podium-search-index"]).toBe("memory");
    return [...response.body.matchAll(/<strong class="card__title"[^>]*>(.*?)<\/strong>/g)].map((match) =>
      (match[1] as string).replace(/<\/?mark>/g, ""),
    );
  };
  const ownersFound = async (term: string): Promise<string[]> => {
    const response = await new TestAgent(app).get(`/explore/search/?search=${encodeURIComponent(term)}`);
    return [...response.body.matchAll(/<span class="card__subtitle"[^>]*>(.*?)<\/span>/g)].map(
      (match) => match[1] as string,
    );
  };

  it("reads a page's rows once, then answers them from memory, in the order asked", async () => {
    const counted = countingDatabase(db);
    const rows = new KeptHitRows(counted.db, app.changes);
    const first = await rows.read(page("a", "b", "c"));
    expect(first.map((row) => row.title)).toEqual(["Quokka habitats", "Quokka diets", "Quokka photography"]);
    expect(counted.statements).toHaveLength(1);
    const again = await rows.read(page("c", "a"));
    expect(again.map((row) => row.title)).toEqual(["Quokka photography", "Quokka habitats"]);
    expect(counted.statements).toHaveLength(1);
    expect(rows.counts).toEqual({ kept: 2, read: 3 });
    // The texts come ready to be marked: the summary read back, no marker characters of their own.
    expect(again[0]?.summary?.lastModified).toBeInstanceOf(Date);
    rows.close();
  });

  it("a visitor's search shows an edited title, a renamed owner and no hidden or private deck once the feed says so", async () => {
    expect(await titlesFound("quokka")).toEqual(
      expect.arrayContaining(["Quokka habitats", "Quokka diets", "Quokka photography"]),
    );
    expect(await ownersFound("quokka")).toContain("Kept Rows");
    // The rows are kept now; every change below comes through the database's triggers.
    await db.query("update presentations set title = 'Quokka habitats, revised' where oid = $1", [oid("a")]);
    await db.query("update users set first_name = 'Renamed' where oid = $1", [ownerOid]);
    await db.query("update presentations set hidden = true where oid = $1", [oid("b")]);
    await db.query("update presentations set privacy = 'private' where oid = $1", [oid("c")]);
    await searchCaughtUp(app);
    const titles = await titlesFound("quokka");
    expect(titles).toContain("Quokka habitats, revised");
    expect(titles).not.toContain("Quokka habitats");
    expect(titles).not.toContain("Quokka diets");
    expect(titles).not.toContain("Quokka photography");
    expect(await ownersFound("quokka")).toContain("Renamed Rows");
    // Put back for the tests after this one.
    await db.query("update presentations set hidden = false where oid = $1", [oid("b")]);
    await db.query("update presentations set privacy = 'public' where oid = $1", [oid("c")]);
    await db.query("update users set first_name = 'Kept' where oid = $1", [ownerOid]);
    await searchCaughtUp(app);
  });

  it("keeps nothing a read brought back when a change was heard while it was on its way", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow: Queryable = {
      query: async (sql, params) => {
        const rows = await db.query(sql, params);
        await gate;
        return rows as never;
      },
    };
    const counted = countingDatabase({ ...db, query: slow.query } as Database);
    const rows = new KeptHitRows(counted.db, app.changes);
    const reading = rows.read(page("a"));
    // Heard after the row was read and before the read is done: the row may be the one before.
    app.changes.publish([presentationTag(oid("a"))]);
    release();
    expect((await reading).map((row) => row.key)).toEqual([ids.get("a")]);
    expect(rows.size).toBe(0);
    await rows.read(page("a"));
    expect(rows.size).toBe(1);
    expect(counted.statements).toHaveLength(2);
    rows.close();
  });

  it("drops everything when the feed was interrupted, and whatever is older than its time to live", async () => {
    let now = 1_000_000;
    const counted = countingDatabase(db);
    const rows = new KeptHitRows(counted.db, app.changes, { ttlMs: 60_000, now: () => now });
    await rows.read(page("a", "b"));
    app.changes.publish([EVERYTHING_TAG]);
    expect(rows.size).toBe(0);
    await rows.read(page("a", "b"));
    expect(counted.statements).toHaveLength(2);
    now += 59_999;
    await rows.read(page("a", "b"));
    expect(counted.statements).toHaveLength(2);
    now += 1;
    await rows.read(page("a", "b"));
    expect(counted.statements).toHaveLength(3);
    rows.close();
  });

  it("holds at most its characters, the longest unseen dropped first", async () => {
    const counted = countingDatabase(db);
    // Room for two rows (each: its title, its text and 600 for the rest), not three.
    const sizes = await db.query<{ chars: number }>(
      "select length(title) + length(snippet_text) + 600 as chars from presentations where oid = any($1::text[])",
      [[oid("a"), oid("b"), oid("c")]],
    );
    const largest = Math.max(...sizes.map((row) => Number(row.chars)));
    const rows = new KeptHitRows(counted.db, app.changes, { maxChars: 2 * largest + 1 });
    await rows.read(page("a", "b"));
    await rows.read(page("a"));
    await rows.read(page("c"));
    expect(rows.size).toBe(2);
    counted.statements.length = 0;
    await rows.read(page("a", "c"));
    expect(counted.statements).toHaveLength(0);
    await rows.read(page("b"));
    expect(counted.statements).toHaveLength(1);
    rows.close();
  });

  it("takes the text's own marker characters out, so only the search's marks are shown", async () => {
    await db.query("update presentations set title = $1 where oid = $2", [
      `Quokka ${MARK_START}fake${MARK_END} marks`,
      oid("a"),
    ]);
    await searchCaughtUp(app);
    const rows = new KeptHitRows(db, app.changes);
    const [row] = await rows.read(page("a"));
    expect(row?.title).toBe("Quokka fake marks");
    rows.close();
  });
});
