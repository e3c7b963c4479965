import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { testDatabaseTargets } from "../../db/testing";
import { verifyPassword } from "../../features/accounts/password";
import { countListedPresentations } from "../../features/presentation/repository";
import { demoDecks } from "./content/catalogue";
import { DEMO_AUDIENCE_SIZE, DEMO_LIKE_RATE, DEMO_PASSWORD, demoLikesOf, nothingSeeded, seedDemoContent } from "./seed";

async function snapshot(db: Database) {
  return {
    users: await db.query("select oid, email, password_hash from users order by oid"),
    presentations: await db.query(
      "select oid, title, last_modified, document::text as document, view_count from presentations order by oid",
    ),
    videoCards: await db.query("select slug, position from video_cards order by slug"),
    likes: await db.query("select user_id::text, presentation_id::text, created_at from likes order by 1, 2"),
    counters: await db.query("select presentation_id::text, shard, count from like_counters order by 1, 2"),
  };
}

describe.each(testDatabaseTargets())("demo seed on $name", (target) => {
  let db: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await target.create());
  });
  afterAll(() => drop());

  it("seeds users (the first an admin), 30+ public presentations, 15 templates and 10 video cards", async () => {
    const report = await seedDemoContent(db);
    expect(report.users).toBe(5);
    expect(report.presentations).toBe(demoDecks.length);
    expect(report.templates).toBe(15);
    expect(report.videoCards).toBe(10);
    expect(report.viewLinks).toBe(2);
    expect(await countListedPresentations(db)).toBeGreaterThanOrEqual(30);
    const [first] = await db.query<{ is_admin: boolean; is_curator: boolean }>(
      "select is_admin, is_curator from users order by id limit 1",
    );
    expect(first).toEqual({ is_admin: true, is_curator: true });
    const [hash] = await db.query<{ password_hash: string }>("select password_hash from users order by id limit 1");
    expect(await verifyPassword(DEMO_PASSWORD, hash?.password_hash ?? "")).toBe(true);
  });

  it("gives demo presentations several slides of real text", async () => {
    const rows = await db.query<{ steps: number }>(
      "select jsonb_array_length(document->'path') as steps from presentations where template_slug is null",
    );
    expect(rows.every((row) => row.steps >= 5)).toBe(true);
    expect(Math.max(...rows.map((row) => row.steps))).toBeGreaterThanOrEqual(50);
  });

  it("issue 12: demo numbers look real: views in a plausible range, likes a few percent of them, counted by rows", async () => {
    const rows = await db.query<{ slug: string; views: number; likes: number; rows: number; first: Date; last: Date }>(
      `select p.oid as slug, p.view_count as views,
              (select coalesce(sum(c.count), 0)::int from like_counters c where c.presentation_id = p.id) as likes,
              (select count(*)::int from likes l where l.presentation_id = p.id) as rows,
              (select min(l.created_at) from likes l where l.presentation_id = p.id) as first,
              (select max(l.created_at) from likes l where l.presentation_id = p.id) as last
         from presentations p where p.template_slug is null and p.privacy in ('public', 'reusable')`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(30);
    for (const row of rows) {
      // The counter equals the rows behind it (the invariant of migration 0004).
      expect(row.likes, row.slug).toBe(row.rows);
      expect(row.views, row.slug).toBeLessThan(50_000);
      if (row.views >= 400) {
        expect(row.likes / row.views, row.slug).toBeGreaterThanOrEqual(DEMO_LIKE_RATE.min - 0.002);
        expect(row.likes / row.views, row.slug).toBeLessThanOrEqual(DEMO_LIKE_RATE.max + 0.002);
      }
    }
    // Not one figure for all: views and likes vary, and likes were made on many different days.
    expect(new Set(rows.map((row) => row.views)).size).toBeGreaterThan(25);
    expect(new Set(rows.map((row) => row.likes)).size).toBeGreaterThan(20);
    const liked = rows.filter((row) => row.likes > 50);
    expect(liked.every((row) => row.last.getTime() - row.first.getTime() > 86_400_000)).toBe(true);
    // Nobody can sign in as the audience.
    const [audience] = await db.query<{ n: number; withPassword: number }>(
      `select count(*)::int as n, count(password_hash)::int as "withPassword" from users where email like '%@audience.podium.test'`,
    );
    expect(audience).toEqual({ n: DEMO_AUDIENCE_SIZE, withPassword: 0 });
    expect(Math.max(...demoDecks.map(demoLikesOf))).toBeLessThanOrEqual(DEMO_AUDIENCE_SIZE);
  });

  it("is idempotent: a second run inserts nothing and changes nothing", async () => {
    const before = await snapshot(db);
    const report = await seedDemoContent(db, new Date(Date.now() + 86_400_000));
    expect(report).toEqual(nothingSeeded());
    expect(await snapshot(db)).toEqual(before);
  });
});
