import { describe, expect, it } from "vitest";
import { testDatabaseTargets } from "./testing";

const postgres = testDatabaseTargets().find((target) => target.name === "postgres");

describe("the PostgreSQL client (TEST_DATABASE_URL)", () => {
  it.runIf(postgres)("prepares statements with parameters once per connection, by name, and reuses them", async () => {
    if (!postgres) return;
    const { db, drop } = await postgres.create();
    try {
      const prepared = await db.transaction(async (tx) => {
        const sql = "select $1::int + 1 as answer";
        expect(await tx.query(sql, [41])).toEqual([{ answer: 42 }]);
        expect(await tx.query(sql, [1])).toEqual([{ answer: 2 }]);
        return tx.query<{ name: string; statement: string }>(
          "select name, statement from pg_prepared_statements where statement = 'select $1::int + 1 as answer'",
        );
      });
      expect(prepared).toHaveLength(1);
      expect(prepared[0]?.name).toMatch(/^podium_[0-9a-f]{20}$/);
    } finally {
      await drop();
    }
  });
});
