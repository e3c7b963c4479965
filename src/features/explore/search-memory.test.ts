import type { FastifyInstance } from "fastify";
import { JSDOM } from "jsdom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { testDatabaseTargets } from "../../db/testing";
import { importMarkdown } from "../../document/markdown";
import { stableOid } from "../../lib/ids";
import { configFromEnv } from "../../server/config";
import {
  createTestApp,
  insertTestDeck,
  insertTestUser,
  searchCaughtUp,
  TestAgent,
  userIdOf,
  withTwoServers,
} from "../../server/testing";
import { EVERYTHING_TAG } from "../content-changes";
import { type SearchHitKind, searchCatalogue } from "./repository";
import { searchQueriesOf } from "./search";
import { memoryQueryOf, SearchMemory, searchInMemory } from "./search-memory";
import { snippetWordsOf } from "./snippet";

/**
 * Issue 32 item 3: the search index in memory answers every search it takes exactly as the
 * database's statement does (the same hits in the same order, the same totals, the same marks),
 * follows every change to what is listed as it is heard, and hands back to the database what it
 * can't answer the same way.
 */

const KINDS: Record<string, readonly SearchHitKind[]> = {
  all: ["presentation", "template", "video"],
  presentation: ["presentation"],
  template: ["template"],
  video: ["video"],
};

describe.each(testDatabaseTargets())("issue 32 the search index in memory on $name", (target) => {
  let app: FastifyInstance;
  let db: Database;
  let close: () => Promise<void>;
  let memory: SearchMemory;
  let ownerId = "";
  const oid = (name: string) => stableOid(`search-memory:${name}`);

  /** A search both ways: by the statement, and by the index (which must take it). */
  const bothWays = async (term: string, options: { tag?: string | null; kinds?: string; offset?: number } = {}) => {
    const queries = searchQueriesOf(term);
    if (!queries) throw new Error(`nothing to search in "${term}"`);
    const query = {
      queries,
      snippetWords: snippetWordsOf(term),
      tag: options.tag ?? null,
      kinds: KINDS[options.kinds ?? "all"] as readonly SearchHitKind[],
      limit: 24,
      offset: options.offset ?? 0,
    };
    const [sql, inMemory] = await Promise.all([
      searchCatalogue(db, query),
      searchInMemory(memory, { ...query, memory: memoryQueryOf(term) }),
    ]);
    if (!inMemory) throw new Error(`the index didn't answer "${term}"`);
    const shown = (found: typeof sql) => ({
      totals: found.totals,
      hits: found.hits.map((hit) => `${hit.kind}:${hit.key} ${hit.markedTitle} | ${hit.markedSnippet}`),
    });
    return { sql: shown(sql), memory: shown(inMemory) };
  };

  beforeAll(async () => {
    ({ app, db, close } = await createTestApp(target, {}, { seeded: true }));
    await app.ready();
    const found = app.searchMemory;
    if (!found) throw new Error("no search index in memory");
    memory = found;
    const owner = await insertTestUser(db, {
      oid: stableOid("search-memory:owner"),
      email: "memory@podium.test",
      username: "memory",
      firstName: "Memo",
      lastName: "Ry",
    });
    ownerId = owner.id;
    // Decks that share words with the demo's, with tags, prefixes and words in the slides only.
    for (const [name, title, tags, body] of [
      ["a", "Sourdough starter rescue", ["baking", "bread"], "Feed the starter twice a day"],
      ["b", "Breadboard electronics", ["electronics"], "A sourdough of wires, no bread here"],
      ["c", "Wild yeast and rye", ["baking"], "Rye bread with a wild starter"],
      ["d", "The starter kit", ["bread"], "Everything a baker needs"],
    ] as const) {
      await insertTestDeck(db, {
        oid: oid(name),
        ownerId,
        title,
        tags: [...tags],
        document: importMarkdown(`# ${title}\n---\n# Notes\n\n${body}`, "2"),
      });
    }
    await memory.start();
    await settled();
  });

  /** Every change committed so far heard (the feed's barrier) and read into the index. */
  const settled = async () => {
    await app.changes.sync();
    await memory.settled();
  };

  afterAll(async () => {
    await close();
  });

  it("answers like the statement: every title word, prefixes, AND, OR, excluded words, tags, kinds and pages", async () => {
    const titleWords = await db.query<{ word: string }>(
      `select distinct w as word from (select unnest(tsvector_to_array(title_vector)) w from search_entries
        union all select unnest(tsvector_to_array(title_vector)) from presentations where template_slug is not null) x
        where w ~ '^([a-z]+|[0-9]+)$' order by 1`,
    );
    const words = titleWords.map((row) => row.word);
    expect(words.length).toBeGreaterThan(100);
    const terms = [
      ...words,
      ...words.filter((word) => word.length >= 6).map((word) => word.slice(0, 4)),
      // ORs of title words (ranked from the titles' terms: ts-rank.ts orTerms), whole and as prefixes.
      ...words.slice(0, 40).map((word, i) => `${word} OR ${words[(i * 7 + 3) % words.length]}`),
      ...words
        .filter((word) => word.length >= 6)
        .slice(0, 20)
        .map((word, i, long) => `${word.slice(0, 4)} OR ${long[(i + 5) % long.length]}`),
      "sourdough starter",
      "bread OR electronics",
      "starter -rye",
      "bread -sourdough",
      "baking bread",
      "the",
      "a",
      "sourd",
      "starter OR yeast rye",
      "2024",
      "nothingatall",
    ];
    const differing: unknown[] = [];
    let withHits = 0;
    let ranksMatter = 0;
    for (const term of terms) {
      const { sql, memory: inMemory } = await bothWays(term);
      if (JSON.stringify(sql) !== JSON.stringify(inMemory)) differing.push({ term, sql, memory: inMemory });
      if (sql.hits.length > 0) withHits += 1;
      if (sql.hits.length > 2) ranksMatter += 1;
    }
    // What was compared found something, often several things to order.
    expect(withHits).toBeGreaterThan(100);
    expect(ranksMatter).toBeGreaterThan(30);
    for (const [term, options] of [
      ["bread", { tag: "baking" }],
      ["starter", { tag: "bread" }],
      ["the", { kinds: "presentation", offset: 24 }],
      ["the", { kinds: "template" }],
      ["getting", { kinds: "video" }],
      ["star", { tag: "electronics" }],
    ] as const) {
      const { sql, memory: inMemory } = await bothWays(term, options);
      if (JSON.stringify(sql) !== JSON.stringify(inMemory)) differing.push({ term, options, sql, memory: inMemory });
    }
    expect(differing.slice(0, 2)).toEqual([]);
  });

  it("leaves to the database what it can't answer the same way", () => {
    for (const term of [
      '"wild yeast"',
      "e-mail",
      "café",
      "mp3-player",
      "bread bread",
      "-rye",
      "sourdough -sourdough",
    ]) {
      expect(memoryQueryOf(term), term).toBeNull();
    }
    expect(memoryQueryOf("wild yeast")).not.toBeNull();
  });

  it("follows what is listed as changes are heard: a new deck, a new title, private, hidden, deleted, a tag", async () => {
    const found = async (term: string, tag: string | null = null) => {
      const { sql, memory: inMemory } = await bothWays(term, { tag });
      return { same: JSON.stringify(sql) === JSON.stringify(inMemory), hits: inMemory.hits.length };
    };
    const expectFound = async (term: string, hits: number, tag: string | null = null) => {
      await settled();
      expect(await found(term, tag)).toEqual({ same: true, hits });
    };

    await insertTestDeck(db, { oid: oid("quokka"), ownerId, title: "Quokka facts", tags: ["marsupials"] });
    await expectFound("quokka", 1);
    await db.query("update presentations set title = 'Wombat facts' where oid = $1", [oid("quokka")]);
    await expectFound("quokka", 0);
    await expectFound("wombat", 1);
    await db.query("update presentations set tags = array['burrowers'] where oid = $1", [oid("quokka")]);
    await expectFound("wombat", 1, "burrowers");
    await expectFound("wombat", 0, "marsupials");
    await db.query("update presentations set privacy = 'private' where oid = $1", [oid("quokka")]);
    await expectFound("wombat", 0);
    await db.query("update presentations set privacy = 'public' where oid = $1", [oid("quokka")]);
    await expectFound("wombat", 1);
    await db.query("update presentations set hidden = true where oid = $1", [oid("quokka")]);
    await expectFound("wombat", 0);
    await db.query("update presentations set hidden = false where oid = $1", [oid("quokka")]);
    await expectFound("wombat", 1);
    await db.query("delete from presentations where oid = $1", [oid("quokka")]);
    await expectFound("wombat", 0);
  });

  it("follows the video cards and the templates", async () => {
    await db.query(
      "update video_cards set title = 'Platypus tour' where slug = (select slug from video_cards order by position limit 1)",
    );
    await settled();
    const { sql, memory: inMemory } = await bothWays("platypus");
    expect(inMemory.totals.video).toBe(1);
    expect(inMemory).toEqual(sql);
  });

  it("after a lost feed (`*`) answers nothing until it is built again, then answers again", async () => {
    app.changes.publish([EVERYTHING_TAG]);
    expect(memory.ready).toBe(false);
    expect(await searchInMemory(memory, { ...queryOf("starter"), memory: memoryQueryOf("starter") })).toBeNull();
    await settled();
    expect(memory.ready).toBe(true);
    const { sql, memory: inMemory } = await bothWays("starter");
    expect(inMemory).toEqual(sql);
  });

  it("holds at most its number of decks: past it the index stays off and the statement answers", async () => {
    const small = new SearchMemory(db, app.changes, 10);
    await small.start();
    expect(small.ready).toBe(false);
    expect(small.size).toBeNull();
    expect(await searchInMemory(small, { ...queryOf("starter"), memory: memoryQueryOf("starter") })).toBeNull();
    small.close();
  });

  it("PODIUM_SEARCH_INDEX: memory by default, database turns it off, anything else is refused", () => {
    expect(configFromEnv({}, { clientDir: null }).searchIndex).toBe("memory");
    expect(configFromEnv({ PODIUM_SEARCH_INDEX: "database" }, { clientDir: null }).searchIndex).toBe("database");
    expect(() => configFromEnv({ PODIUM_SEARCH_INDEX: "elastic" }, { clientDir: null })).toThrow(/PODIUM_SEARCH_INDEX/);
  });
});

function queryOf(term: string) {
  const queries = searchQueriesOf(term);
  if (!queries) throw new Error("no query");
  return {
    queries,
    snippetWords: snippetWordsOf(term),
    tag: null,
    kinds: KINDS.all as readonly SearchHitKind[],
    limit: 24,
    offset: 0,
  };
}

const postgres = testDatabaseTargets().find((target) => target.name === "postgres");

describe.skipIf(!postgres)("issue 32 the search index in memory across processes on PostgreSQL", () => {
  it("a deck renamed through one server is found under its new title by a search on another, answered from its index", async () => {
    if (!postgres) return;
    // Two servers on one database, each with its own connections, change-feed listener and index.
    await withTwoServers(postgres, {}, async ({ first, second, db }) => {
      const agent = new TestAgent(first);
      await agent.signUp("two-indexes@podium.test");
      const ownerId = await userIdOf(db, "two-indexes@podium.test");
      const oid = stableOid("search-memory:two-servers");
      await insertTestDeck(db, { oid, ownerId, title: "Axolotl care" });
      const titles = async (term: string) => {
        await searchCaughtUp(second);
        const response = await second.inject({ method: "GET", url: `/explore/search/?search=${term}` });
        expect(response.headers["podium-search-index"]).toBe("memory");
        const document = new JSDOM(response.body).window.document;
        return [...document.querySelectorAll(".card-grid .card .card__title")].map((title) => title.textContent);
      };
      expect(await titles("axolotl")).toEqual(["Axolotl care"]);

      const saved = await agent.postForm(`/dashboard/next/presentations/${oid}/details`, {
        title: "Salamander care",
        description: "",
        tags: "",
        privacy: "public",
      });
      expect(saved.statusCode).toBe(303);
      expect(await titles("salamander")).toEqual(["Salamander care"]);
      expect(await titles("axolotl")).toEqual([]);
    });
  }, 90_000);
});
