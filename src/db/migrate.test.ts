import { afterEach, describe, expect, it } from "vitest";
import { importMarkdown } from "../document/markdown";
import { type PresentationDocument, parseDocument } from "../document/schema";
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

  it("keeps semicolons inside quotes, dollar-quoted function bodies and comments (issue 11 triggers)", () => {
    const sql = [
      "create function f() returns trigger language plpgsql as $$",
      "begin",
      "  perform pg_notify('c', 'a;b'); -- one; two",
      "  return null;",
      "end",
      "$$;",
      "select $body$ x; y $body$, 'it''s; fine', \"odd;name\" from t where a = $1; /* c; d */",
      "select 2",
    ].join("\n");
    const statements = splitStatements(sql);
    expect(statements).toHaveLength(3);
    expect(statements[0]).toMatch(/^create function f\(\)[\s\S]*return null;\nend\n\$\$$/);
    expect(statements[1]).toBe("select $body$ x; y $body$, 'it''s; fine', \"odd;name\" from t where a = $1");
    expect(statements[2]).toBe("select 2");
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

  it("0005 marks the events stored before it that counted a view, by the intake's rule", async () => {
    current = await target.create(listMigrations().filter((m) => m.name < "0005"));
    const { db } = current;
    const [owner] = await db.query<{ id: string }>(
      "insert into users (oid, email, username, first_name, password_hash) values ('backfillownr', 'b@podium.test', 'backfill', 'B', 'x') returning id::text",
    );
    await db.query(
      "insert into presentations (oid, owner_id, title, privacy, schema_version, document) values ('backfilldeck', $1, 'Deck', 'public', '2', '{}'::jsonb)",
      [owner?.id],
    );
    // [session, event, oid, minutes after 12:00]: what counted is what the intake counted.
    const events: [string, string, string, number][] = [
      ["s1", "loaded_public_view_page", "backfilldeck", 0], // counted
      ["s1", "loaded_public_view_page", "backfilldeck", 20], // 20 minutes after s1's last load: not counted
      ["s1", "loaded_public_view_page", "backfilldeck", 51], // 31 minutes after s1's last load: counted
      ["s2", "loaded_public_view_page", "backfilldeck", 5], // another session: counted
      ["s3", "transcript_opened", "backfilldeck", 0], // not a view
      ["s3", "loaded_public_view_page", "nosuchdeck00", 0], // no such presentation: not counted
    ];
    for (const [session, name, oid, minutes] of events) {
      await db.query(
        "insert into usage_events (received_at, session_id, event_name, presentation_oid, payload) values (timestamptz '2025-03-10T12:00:00Z' + make_interval(mins => $4), $1, $2, $3, '{}'::jsonb)",
        [session, name, oid, minutes],
      );
    }
    expect(await migrate(db)).toContain("0005_view_history");
    const counted = await db.query<{ session_id: string; minutes: number }>(
      "select session_id, extract(minute from received_at)::int as minutes from usage_events where counted_view order by id",
    );
    expect(counted).toEqual([
      { session_id: "s1", minutes: 0 },
      { session_id: "s1", minutes: 51 },
      { session_id: "s2", minutes: 5 },
    ]);
  });

  it("issue 14 item 5: 0012 puts the views counted before it into the per-day aggregate the chart reads", async () => {
    current = await target.create(listMigrations().filter((m) => m.name < "0012"));
    const { db } = current;
    const [owner] = await db.query<{ id: string }>(
      "insert into users (oid, email, username, first_name, password_hash) values ('aggregateown', 'a@podium.test', 'aggregate', 'A', 'x') returning id::text",
    );
    const [deck] = await db.query<{ id: string }>(
      "insert into presentations (oid, owner_id, title, privacy, schema_version, document) values ('aggregatedck', $1, 'Deck', 'public', '2', '{}'::jsonb) returning id::text",
      [owner?.id],
    );
    // [time, counted]: two counted on the 10th (one just before midnight UTC), one on the 11th, one not counted.
    const events: [string, boolean][] = [
      ["2025-03-10T08:00:00Z", true],
      ["2025-03-10T23:59:59Z", true],
      ["2025-03-11T00:00:00Z", true],
      ["2025-03-11T00:05:00Z", false],
    ];
    for (const [at, counted] of events) {
      await db.query(
        "insert into usage_events (received_at, session_id, event_name, presentation_oid, payload, counted_view) values ($1::timestamptz, 's', 'loaded_public_view_page', 'aggregatedck', '{}'::jsonb, $2)",
        [at, counted],
      );
    }
    expect(await migrate(db)).toContain("0012_honest_views");
    const days = await db.query<{ day: string; views: number }>(
      "select to_char(day, 'YYYY-MM-DD') as day, views from presentation_daily_views where presentation_id = $1 order by day",
      [deck?.id],
    );
    expect(days).toEqual([
      { day: "2025-03-10", views: 2 },
      { day: "2025-03-11", views: 1 },
    ]);
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

  it("0009 upgrades stored version 1 documents to version 2, which reads them unchanged, and adds the Markdown source", async () => {
    current = await target.create(listMigrations().filter((m) => m.name < "0009"));
    const { db } = current;
    const [owner] = await db.query<{ id: string }>(
      "insert into users (oid, email, username, first_name, password_hash) values ('versionownr1', 'v@podium.test', 'versions', 'V', 'x') returning id::text",
    );
    const v1 = importMarkdown("# Tide pools\n- Anemones\n---\nLook, don't lift.", "2");
    const stored = { ...v1, version: 1 };
    await db.query(
      "insert into presentations (oid, owner_id, title, privacy, schema_version, document) values ('versiondeck1', $1, 'Deck', 'public', '2', $2::jsonb)",
      [owner?.id, JSON.stringify(stored)],
    );
    await migrate(db);
    const [row] = await db.query<{ document: PresentationDocument; source: string | null }>(
      "select document, source_markdown as source from presentations where oid = 'versiondeck1'",
    );
    expect(row?.document).toEqual({ ...stored, version: 2 });
    expect(parseDocument(row?.document)).toEqual({ ...stored, version: 2 });
    expect(row?.source).toBeNull();
    // A version 1 document from elsewhere (a JSON export) still reads, as version 2.
    expect(parseDocument(stored).version).toBe(2);
  });
});
