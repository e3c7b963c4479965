import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { testDatabaseTargets } from "../../db/testing";
import { createTestApp } from "../../server/testing";

/**
 * Issue 32 item 3: a search's statement (the index's form, repository.ts) has one plan whatever is
 * searched, so PostgreSQL keeps a generic plan after its first five runs on a connection instead
 * of planning the statement anew for each search (a third of the database's CPU per search at
 * 100,000 decks). Checked where one connection serves every statement: PGlite (the same planner as
 * PostgreSQL). If a value reaches the plan again (a parameter written out rather than read through
 * the `asked` CTE), each search is a custom plan and this fails.
 */
const pglite = testDatabaseTargets().find((target) => target.name === "pglite");

describe.runIf(pglite)("issue 32 item 3: the search statement's plan is kept", () => {
  let app: FastifyInstance;
  let db: Database;
  let close: () => Promise<void>;

  beforeAll(async () => {
    // The statement's plan: every search a statement (the index in memory would answer most).
    ({ app, db, close } = await createTestApp(
      pglite as NonNullable<typeof pglite>,
      { searchIndex: "database" },
      { seeded: true },
    ));
  });
  afterAll(async () => close?.());

  it("after five searches, different words, filters and pages, each next search reuses the generic plan", async () => {
    const searches = [
      "sourdough",
      "water cycle",
      '"printing press"',
      "mars -rover",
      "pricing OR typography",
      "the",
      "fractions&type=presentation",
      "apollo&tag=space",
      "vaccines&page=2",
      "accessibility",
      "study techniques",
      "lesson",
    ];
    for (const search of searches) {
      const response = await app.inject({ method: "GET", url: `/explore/search/?search=${search}` });
      expect(response.statusCode, search).toBe(200);
    }
    const plans = await db.query<{ generic: number; custom: number }>(
      `select generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements
        where statement like '%from search_entries e, q, asked, words%'`,
    );
    expect(plans).toHaveLength(1);
    const [plan] = plans as [{ generic: number; custom: number }];
    // The first five are planned for their values (PostgreSQL's rule), every later one is not.
    expect(plan.custom).toBeLessThanOrEqual(5);
    expect(plan.generic + plan.custom).toBeGreaterThanOrEqual(searches.length);
  });
});
