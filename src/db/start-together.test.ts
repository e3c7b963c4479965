import { afterEach, describe, expect, it } from "vitest";
import { getOrCreateSecret } from "../features/accounts/repository";
import { type Database, openDatabase } from "./client";
import { takeTransactionLock } from "./locks";
import { listMigrations, migrate } from "./migrate";
import { testDatabaseTargets } from "./testing";

/**
 * Issue 16 items 4 and 5: several processes opening one fresh database at the same moment (here:
 * several connections pools in one test, each what a process opens) migrate it once and agree on
 * one CSRF secret. On PostgreSQL only: PGlite lives in one process.
 */

const OPENINGS = 4;

describe.each(testDatabaseTargets().filter((target) => target.name === "postgres"))(
  "processes starting together on $name",
  (target) => {
    let cleanup: (() => Promise<void>) | null = null;
    const opened: Database[] = [];
    afterEach(async () => {
      for (const db of opened.splice(0)) await db.close();
      await cleanup?.();
      cleanup = null;
    });

    /** A fresh, empty database (no migrations) and OPENINGS pools on it. */
    const openings = async (queryTimeoutMs?: number) => {
      const fresh = await target.create([]);
      cleanup = fresh.drop;
      if (!fresh.url) throw new Error("a PostgreSQL test database has a URL");
      for (let i = 0; i < OPENINGS; i++) opened.push(await openDatabase({ url: fresh.url, queryTimeoutMs }));
      return { db: fresh.db, pools: [...opened] };
    };

    it("issue 16 item 5: four at once apply every migration exactly once", async () => {
      const { db, pools } = await openings();
      const applied = await Promise.all(pools.map((pool) => migrate(pool)));
      const all = listMigrations().map((migration) => migration.name);
      // Each migration applied by exactly one of them; together, all of them.
      expect(applied.flat().sort()).toEqual(all);
      const rows = await db.query<{ name: string }>("select name from schema_migrations order by name");
      expect(rows.map((row) => row.name)).toEqual(all);
    });

    it("issue 16 item 4: four at once generate their own candidates but all keep the one stored first", async () => {
      const { db, pools } = await openings();
      await migrate(db);
      const secrets = await Promise.all(
        pools.map((pool, i) => getOrCreateSecret(pool, "csrf", `candidate-${i}-${"x".repeat(32)}`)),
      );
      expect(new Set(secrets).size).toBe(1);
      const stored = await db.query<{ value: string }>("select value from app_secrets where name = 'csrf'");
      expect(stored).toEqual([{ value: secrets[0] }]);
      // A later opening reads it and never replaces it.
      expect(await getOrCreateSecret(db, "csrf", "another-candidate-another-candidate")).toBe(secrets[0]);
    });

    it("issue 16 item 5: waiting for another process's migration lock outlasts the statement time limit", async () => {
      const statementLimitMs = 300;
      const { pools } = await openings(statementLimitMs);
      const [holder, waiter] = pools as [Database, Database];
      const order: string[] = [];
      let held!: () => void;
      const heldNow = new Promise<void>((resolve) => {
        held = resolve;
      });
      const holding = holder.transaction(async (tx) => {
        await takeTransactionLock(tx, 4242, "test");
        held();
        // Longer than one statement may take, in small statements (each under the limit).
        const until = Date.now() + statementLimitMs * 4;
        while (Date.now() < until) await tx.query("select pg_sleep(0.05)");
        order.push("holder done");
      });
      await heldNow;
      await waiter.transaction(async (tx) => {
        await takeTransactionLock(tx, 4242, "test");
        order.push("waiter has the lock");
      });
      await holding;
      expect(order).toEqual(["holder done", "waiter has the lock"]);
    });
  },
);
