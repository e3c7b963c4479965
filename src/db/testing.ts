import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import pg from "pg";
import { inject } from "vitest";
import { type Database, openDatabase } from "./client";
import { listMigrations, type Migration, migrate } from "./migrate";
import type { TestTemplates } from "./test-templates";

/**
 * Test databases: repository tests run against every target here: always embedded PGlite
 * (in memory), and a real PostgreSQL when TEST_DATABASE_URL is set, in a fresh database
 * with a random name that is dropped afterwards. A database with every migration starts as a copy
 * of one migrated once per run (test-templates.ts, Vitest's global setup).
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

/**
 * The databases the global setup migrated once for this run (test-templates.ts), or null when
 * there are none (a file run without that setup) or `migrations` isn't the list they hold:
 * a test of a later migration starts from fewer and migrates from scratch.
 */
function templates(migrations: Migration[] | undefined): TestTemplates | null {
  let provided: TestTemplates | undefined;
  try {
    provided = inject("podiumTestTemplates");
  } catch {
    return null;
  }
  if (!provided) return null;
  const names = (migrations ?? listMigrations()).map((migration) => migration.name);
  const same = names.length === provided.migrations.length && names.every((name, i) => name === provided.migrations[i]);
  return same ? provided : null;
}

/** The migrated PGlite data directory, read once per test file. */
let pgliteTemplate: { file: string; data: Promise<Blob> } | null = null;

function pgliteDataDir(file: string): Promise<Blob> {
  if (pgliteTemplate?.file !== file) {
    pgliteTemplate = { file, data: readFile(file).then((bytes) => new Blob([new Uint8Array(bytes)])) };
  }
  return pgliteTemplate.data;
}

async function createPgliteDatabase(migrations?: Migration[]) {
  const file = templates(migrations)?.pgliteDataDir;
  if (file) {
    const db = await openDatabase({ dataDir: "memory://", loadDataDir: await pgliteDataDir(file) });
    return { db, drop: () => db.close() };
  }
  const db = await openDatabase({ dataDir: "memory://" });
  await migrate(db, migrations ?? listMigrations());
  return { db, drop: () => db.close() };
}

async function createPostgresDatabase(adminUrl: string, migrations?: Migration[]) {
  const name = `podium_test_${randomBytes(6).toString("hex")}`;
  const template = templates(migrations)?.postgresTemplate;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    // Copies of one template may be made at once: nobody is connected to it (test-templates.ts).
    await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase({ url: url.toString() });
  if (!template) await migrate(db, migrations ?? listMigrations());
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
