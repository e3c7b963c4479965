import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { testDatabaseTargets } from "../../db/testing";
import { verifyPassword } from "../../features/accounts/password";
import { countListedPresentations } from "../../features/presentation/repository";
import { demoDecks } from "./content/catalogue";
import { DEMO_PASSWORD, seedDemoContent } from "./seed";

async function snapshot(db: Database) {
  return {
    users: await db.query("select oid, email, password_hash from users order by oid"),
    presentations: await db.query(
      "select oid, title, last_modified, document::text as document, view_count from presentations order by oid",
    ),
    videoCards: await db.query("select slug, position from video_cards order by slug"),
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

  it("is idempotent: a second run inserts nothing and changes nothing", async () => {
    const before = await snapshot(db);
    const report = await seedDemoContent(db, new Date(Date.now() + 86_400_000));
    expect(report).toEqual({ users: 0, presentations: 0, templates: 0, videoCards: 0, viewLinks: 0 });
    expect(await snapshot(db)).toEqual(before);
  });
});
