import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import pg from "pg";
import { inject } from "vitest";
import { type Database, openDatabase } from "../client";
import { listMigrations, type Migration, migrate } from "../migrate";
import type { TestTemplate, TestTemplates } from "./templates";

/**
 * Test databases: repository tests run against every target here: always embedded PGlite
 * (in memory), and a real PostgreSQL when TEST_DATABASE_URL is set, in a fresh database
 * with a random name that is dropped afterwards. A database with every migration starts as a copy
 * of one migrated once per run (templates.ts, made by Vitest's global setup).
 */
export interface TestDatabaseTarget {
  name: "pglite" | "postgres";
  /**
   * Opens a new, empty database with these migrations applied (all by default; fewer to test
   * what a later migration does to existing rows); drop() closes and removes it.
   */
  create(
    migrations?: Migration[],
    options?: CreateOptions,
  ): Promise<{ db: Database; drop(): Promise<void>; url?: string; seeded?: boolean }>;
}

export interface CreateOptions {
  /**
   * Start from the copy with the demo content seeded, when the run prepared one (then `seeded`
   * is true; else the caller seeds: server/testing/ createSeededDatabase does both).
   */
  seeded?: boolean;
}

export function testDatabaseTargets(): TestDatabaseTarget[] {
  const targets: TestDatabaseTarget[] = [{ name: "pglite", create: createPgliteDatabase }];
  const url = process.env.TEST_DATABASE_URL;
  if (url)
    targets.push({
      name: "postgres",
      create: (migrations, options) => createPostgresDatabase(url, migrations, options),
    });
  return targets;
}

/**
 * The databases the global setup migrated once for this run (templates.ts), or null when
 * there are none (a file run without that setup) or `migrations` isn't the list they hold:
 * a test of a later migration starts from fewer and migrates from scratch.
 */
function template(migrations: Migration[] | undefined, options: CreateOptions = {}): TestTemplate | null {
  let provided: TestTemplates | undefined;
  try {
    provided = inject("podiumTestTemplates");
  } catch {
    return null;
  }
  if (!provided) return null;
  const names = (migrations ?? listMigrations()).map((migration) => migration.name);
  const same = names.length === provided.migrations.length && names.every((name, i) => name === provided.migrations[i]);
  if (!same) return null;
  return options.seeded ? provided.seeded : provided.migrated;
}

/** The prepared PGlite data directories, each read once per test file. */
const pgliteDataDirs = new Map<string, Promise<Blob>>();

function pgliteDataDir(file: string): Promise<Blob> {
  let data = pgliteDataDirs.get(file);
  if (!data) {
    data = readFile(file).then((bytes) => new Blob([new Uint8Array(bytes)]));
    pgliteDataDirs.set(file, data);
  }
  return data;
}

async function createPgliteDatabase(migrations?: Migration[], options?: CreateOptions) {
  const file = template(migrations, options)?.pgliteDataDir;
  if (file) {
    const db = await openDatabase({ dataDir: "memory://", loadDataDir: await pgliteDataDir(file) });
    return { db, drop: () => db.close(), seeded: options?.seeded === true };
  }
  const db = await openDatabase({ dataDir: "memory://" });
  await migrate(db, migrations ?? listMigrations());
  return { db, drop: () => db.close() };
}

async function createPostgresDatabase(adminUrl: string, migrations?: Migration[], options?: CreateOptions) {
  const name = `podium_test_${randomBytes(6).toString("hex")}`;
  const copied = template(migrations, options)?.postgresTemplate;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    // Copies of one template may be made at once: nobody is connected to it (templates.ts).
    await admin.query(copied ? `create database ${name} template ${copied}` : `create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase({ url: url.toString() });
  if (!copied) await migrate(db, migrations ?? listMigrations());
  return {
    db,
    seeded: copied !== null && copied !== undefined && options?.seeded === true,
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
