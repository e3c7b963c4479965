import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { TEST_WORKER_DIR } from "../server/testing/build-workers";
import { DatabaseUnavailableError, openDatabase } from "./client";
import { PGLITE_WORKER_FILE } from "./pglite-thread";
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

describe("PGlite on a thread of its own (the server's embedded database)", () => {
  const worker = new URL(PGLITE_WORKER_FILE, pathToFileURL(`${TEST_WORKER_DIR}/`));
  const openThread = async () => {
    const db = await openDatabase({ dataDir: "memory://", worker });
    await db.query("create table line (n int primary key, at timestamptz, bytes bytea, doc jsonb)");
    return db;
  };

  it("leaves the event loop free while a statement runs", async () => {
    const db = await openThread();
    try {
      let done = false;
      let turns = 0;
      const count = () => {
        turns += 1;
        if (!done) setImmediate(count);
      };
      setImmediate(count);
      await db.query("select count(*) from generate_series(1, 2000000)");
      done = true;
      // On this thread the statement would have held the loop for its whole run: one turn at most.
      expect(turns).toBeGreaterThan(20);
    } finally {
      await db.close();
    }
  });

  it("runs statements in the order asked; a transaction's statements run together, and a failed one rolls back", async () => {
    const db = await openThread();
    try {
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const transaction = db.transaction(async (tx) => {
        await tx.query("insert into line (n) values (1)");
        await held;
        await tx.query("insert into line (n) values (2)");
      });
      // Asked while the transaction is open: it waits for the commit.
      const after = db.query("insert into line (n) values (3)");
      const failed = db.transaction(async (tx) => {
        await tx.query("insert into line (n) values (4)");
        await tx.query("insert into line (n) values (4)");
      });
      release();
      await transaction;
      await after;
      await expect(failed).rejects.toMatchObject({ code: "23505", constraint: "line_pkey" });
      expect(await db.query<{ n: number }>("select n from line order by ctid")).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    } finally {
      await db.close();
    }
  });

  it("gives back values as PGlite does on this thread: dates, bytes, JSON, big integers", async () => {
    const db = await openThread();
    try {
      const at = new Date("2026-11-26T10:00:00.000Z");
      await db.query("insert into line values ($1, $2, $3, $4)", [1, at, Buffer.from("podium"), { slides: [1, 2] }]);
      const [row] = await db.query<{ at: Date; bytes: Uint8Array; doc: unknown; big: bigint | number }>(
        "select at, bytes, doc, 9007199254740993::bigint as big from line",
      );
      expect(row?.at).toEqual(at);
      expect(Buffer.from(row?.bytes ?? []).toString()).toBe("podium");
      expect(row?.doc).toEqual({ slides: [1, 2] });
      expect(String(row?.big)).toBe("9007199254740993");
    } finally {
      await db.close();
    }
  });

  it("delivers a notification before the statement that sent it returns, and stops listening", async () => {
    const db = await openThread();
    try {
      const heard: string[] = [];
      const stop = await db.listen("changes", (payload) => heard.push(payload));
      await db.query("select pg_notify('changes', 'first')");
      expect(heard).toEqual(["first"]);
      await stop();
      await db.query("select pg_notify('changes', 'second')");
      expect(heard).toEqual(["first"]);
      expect(await db.ping()).toBe(true);
    } finally {
      await db.close();
    }
    expect(await db.ping()).toBe(false);
    await expect(db.query("select 1")).rejects.toBeInstanceOf(DatabaseUnavailableError);
  });

  it("keeps what was written in its directory", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "podium-pglite-"));
    try {
      const first = await openDatabase({ dataDir, worker });
      await first.query("create table kept (n int)");
      await first.query("insert into kept values (7)");
      await first.close();
      const second = await openDatabase({ dataDir, worker });
      expect(await second.query("select n from kept")).toEqual([{ n: 7 }]);
      await second.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("session settings (db/session-settings.ts)", () => {
  const setting = async (db: { query: <Row>(sql: string) => Promise<Row[]> }) =>
    (await db.query<{ value: string }>("select current_setting('synchronize_seqscans') as value"))[0]?.value;

  // Issue 32 item 3: a common word's search reads the table until it has its candidates; with
  // synchronized scans each read would start where the last stopped, and the same search would
  // find other decks from one request to the next.
  for (const target of testDatabaseTargets()) {
    it(`${target.name}: every connection reads a table from its first block (synchronize_seqscans off)`, async () => {
      const { db, drop } = await target.create();
      try {
        // Several at once: each of the pool's connections has the setting, not just the first.
        const values = await Promise.all(Array.from({ length: 4 }, () => setting(db)));
        expect(values).toEqual(["off", "off", "off", "off"]);
      } finally {
        await drop();
      }
    });
  }

  it("PGlite on its own thread too", async () => {
    const worker = new URL(PGLITE_WORKER_FILE, pathToFileURL(`${TEST_WORKER_DIR}/`));
    const db = await openDatabase({ dataDir: "memory://", worker });
    try {
      expect(await setting(db)).toBe("off");
    } finally {
      await db.close();
    }
  });
});
