import { randomBytes } from "node:crypto";
import pg from "pg";
import { type Database, openDatabase } from "./client";
import { listMigrations, type Migration, migrate } from "./migrate";

/**
 * Test databases: repository tests run against every target here: always embedded PGlite
 * (in memory), and a real PostgreSQL when TEST_DATABASE_URL is set, in a fresh database
 * with a random name that is dropped afterwards.
 */
export interface TestDatabaseTarget {
  name: "pglite" | "postgres";
  /**
   * Opens a new, empty database with these migrations applied (all by default; fewer to test
   * what a later migration does to existing rows); drop() closes and removes it.
   */
  create(migrations?: Migration[]): Promise<{ db: Database; drop(): Promise<void>; url?: string }>;
}

export function testDatabaseTargets(): TestDatabaseTarget[] {
  const targets: TestDatabaseTarget[] = [{ name: "pglite", create: createPgliteDatabase }];
  const url = process.env.TEST_DATABASE_URL;
  if (url) targets.push({ name: "postgres", create: (migrations) => createPostgresDatabase(url, migrations) });
  return targets;
}

async function createPgliteDatabase(migrations = listMigrations()) {
  const db = await openDatabase({ dataDir: "memory://" });
  await migrate(db, migrations);
  return { db, drop: () => db.close() };
}

async function createPostgresDatabase(adminUrl: string, migrations = listMigrations()) {
  const name = `podium_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase({ url: url.toString() });
  await migrate(db, migrations);
  return {
    db,
    /** Another process (or a second app in this one) may open the same database here. */
    url: url.toString(),
    async drop() {
      await db.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      try {
        await cleanup.query(`drop database if exists ${name} with (force)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}
