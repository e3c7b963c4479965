import { afterEach, describe, expect, it } from "vitest";
import type { Database } from "./client";
import { listMigrations, migrate, splitStatements } from "./migrate";
import { testDatabaseTargets } from "./testing";

describe("splitStatements", () => {
  it("splits a file into statements at line-ending semicolons and drops comments", () => {
    expect(splitStatements("-- note\ncreate table a (x int);\n\ncreate index b on a (x);\n")).toEqual([
      "create table a (x int)",
      "create index b on a (x)",
    ]);
  });
});

describe.each(testDatabaseTargets())("migrations on $name", (target) => {
  let current: { db: Database; drop(): Promise<void> } | null = null;
  afterEach(async () => {
    await current?.drop();
    current = null;
  });

  it("are all applied once, and a second run applies none", async () => {
    current = await target.create();
    const { db } = current;
    const applied = await db.query<{ name: string }>("select name from schema_migrations order by name");
    expect(applied.map((row) => row.name)).toEqual(listMigrations().map((m) => m.name));
    expect(await migrate(db)).toEqual([]);
  });

  it("create the tables the product stores", async () => {
    current = await target.create();
    const tables = await current.db.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = current_schema() order by table_name",
    );
    expect(tables.map((t) => t.table_name)).toEqual(
      expect.arrayContaining(["users", "presentations", "likes", "view_links", "video_cards"]),
    );
  });

  it("roll a failing migration back whole: nothing of it is left behind", async () => {
    current = await target.create();
    const { db } = current;
    const broken = [{ name: "9999_broken", sql: "create table half_done (x int);\nselect * from no_such_table;\n" }];
    await expect(migrate(db, broken)).rejects.toThrow();
    const left = await db.query("select 1 from information_schema.tables where table_name = 'half_done'");
    expect(left).toEqual([]);
    const recorded = await db.query("select 1 from schema_migrations where name = '9999_broken'");
    expect(recorded).toEqual([]);
  });
});
