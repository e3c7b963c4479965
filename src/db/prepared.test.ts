import { pathToFileURL } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { describe, expect, it } from "vitest";
import { TEST_WORKER_DIR } from "../server/testing/build-workers";
import { type Database, openDatabase } from "./client";
import { PGLITE_WORKER_FILE } from "./pglite-thread";
import { preparedQueries, statementName } from "./prepared";

const worker = new URL(PGLITE_WORKER_FILE, pathToFileURL(`${TEST_WORKER_DIR}/`));
const ways: [string, () => Promise<Database>][] = [
  ["on this thread", () => openDatabase({ dataDir: "memory://" })],
  ["on a thread of its own", () => openDatabase({ dataDir: "memory://", worker })],
];

interface PreparedRow {
  name: string;
  generic_plans: number;
  custom_plans: number;
}
const preparedAs = (db: Database, sql: string) =>
  db.query<PreparedRow>(
    "select name, generic_plans::int, custom_plans::int from pg_prepared_statements where statement = $1",
    [sql],
  );

describe.each(ways)("PGlite's prepared statements, %s", (_way, open) => {
  /** Runs `test` on a fresh database, closed after. */
  const onFreshDatabase = (test: (db: Database) => Promise<void>) => async () => {
    const db = await open();
    try {
      await test(db);
    } finally {
      await db.close();
    }
  };

  it(
    "prepares a statement with parameters once, by name, and plans it no more once a generic plan is as good",
    onFreshDatabase(async (db) => {
      const sql = "select $1::int + 1 as answer";
      for (let n = 0; n < 10; n += 1) expect(await db.query(sql, [n])).toEqual([{ answer: n + 1 }]);
      const [row] = await preparedAs(db, sql);
      expect(row?.name).toBe(statementName(sql));
      // Unnamed, each of the 10 would have been parsed and planned: here 5 custom plans, then one generic.
      expect(row?.generic_plans).toBeGreaterThan(0);
      expect(row?.custom_plans).toBeLessThan(10);
    }),
  );

  it(
    "prepares again a statement whose result columns changed, and answers with the new columns",
    onFreshDatabase(async (db) => {
      await db.query("create table deck (n int)");
      await db.query("insert into deck values (1)");
      const sql = "select * from deck where n = $1";
      expect(await db.query(sql, [1])).toEqual([{ n: 1 }]);
      await db.query("alter table deck add column title text default 'Sourdough'");
      expect(await db.query(sql, [1])).toEqual([{ n: 1, title: "Sourdough" }]);
    }),
  );

  it(
    "keeps PostgreSQL's error fields, stays usable after a failure, and rolls a transaction back whole",
    onFreshDatabase(async (db) => {
      await db.query("create table deck (n int primary key)");
      const insert = "insert into deck values ($1)";
      await db.query(insert, [1]);
      await expect(db.query(insert, [1])).rejects.toMatchObject({ code: "23505", constraint: "deck_pkey" });
      await expect(db.query("select nonsense from deck where n = $1", [1])).rejects.toMatchObject({ code: "42703" });
      const failed = db.transaction(async (tx) => {
        await tx.query(insert, [2]);
        await tx.query("insert into deck values (3)");
        await tx.query(insert, [1]);
      });
      await expect(failed).rejects.toMatchObject({ code: "23505" });
      expect(await db.query("select n from deck where n > $1 order by n", [0])).toEqual([{ n: 1 }]);
      await db.transaction(async (tx) => {
        await tx.query(insert, [2]);
        await tx.query("insert into deck values (3)");
      });
      expect(await db.query("select n from deck where n > $1 order by n", [0])).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    }),
  );
});

describe("preparedQueries", () => {
  it("runs statements unnamed past the cap, with the same answers", async () => {
    const pglite = await PGlite.create();
    try {
      const query = preparedQueries(pglite, 2);
      const statements = ["select $1::int as a", "select $1::int as b", "select $1::int as c"];
      for (const [index, sql] of statements.entries())
        expect(await query(sql, [index])).toEqual([{ [sql.at(-1) ?? ""]: index }]);
      const named = await query<{ name: string }>("select name from pg_prepared_statements order by name");
      expect(named.map((row) => row.name).sort()).toEqual(statements.slice(0, 2).map(statementName).sort());
      // Prepared ones stay prepared and keep answering.
      expect(await query(statements[0] ?? "", [7])).toEqual([{ a: 7 }]);
    } finally {
      await pglite.close();
    }
  });
});
