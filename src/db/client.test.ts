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

describe("the embedded PGlite client", () => {
  it("serves the event loop between two statements: a line of statements doesn't hold back sockets and timers", async () => {
    const pglite = testDatabaseTargets().find((target) => target.name === "pglite");
    if (!pglite) throw new Error("PGlite is always a target");
    const { db, drop } = await pglite.create();
    try {
      let done = 0;
      const line = Array.from({ length: 20 }, () =>
        db.query("select count(*) from generate_series(1, 20000)").then(() => {
          done += 1;
        }),
      );
      // What a socket's data would be: handled on the event loop's next turn, while the line waits.
      const handledAfter = await new Promise<number>((resolve) => setImmediate(() => resolve(done)));
      await Promise.all(line);
      expect(done).toBe(20);
      // Without turns, all 20 statements ran before the loop came round (handledAfter was 20).
      expect(handledAfter).toBeLessThanOrEqual(1);
    } finally {
      await drop();
    }
  });

  it("keeps statements and transactions in the order they were asked for", async () => {
    const pglite = testDatabaseTargets().find((target) => target.name === "pglite");
    if (!pglite) throw new Error("PGlite is always a target");
    const { db, drop } = await pglite.create();
    try {
      await db.query("create table line (n int)");
      const asked = [
        db.query("insert into line values (1)"),
        db.transaction(async (tx) => {
          await tx.query("insert into line values (2)");
          await tx.query("insert into line values (3)");
        }),
        db.transaction(async () => {
          throw new Error("rolled back");
        }),
        db.query("insert into line values (4)"),
      ];
      const settled = await Promise.allSettled(asked);
      expect(settled.map((result) => result.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
      expect(await db.query<{ n: number }>("select n from line order by ctid")).toEqual([
        { n: 1 },
        { n: 2 },
        { n: 3 },
        { n: 4 },
      ]);
    } finally {
      await drop();
    }
  });
});
