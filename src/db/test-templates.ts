// Vitest global setup (issue 29 item 2): migrates one database of each kind once per run, so that
// each test database starts as a copy instead of running every migration itself (testing.ts).
//  - PGlite: an in-memory database, migrated, its data directory dumped to a temporary file;
//    each test database loads it (a fresh PGlite spends seconds in initdb alone).
//  - PostgreSQL (TEST_DATABASE_URL): a template database with a random name (several runs may
//    share the server), migrated, closed to connections; each test database is
//    `CREATE DATABASE … TEMPLATE` it. The teardown removes both.
import { randomBytes } from "node:crypto";
import { rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { dumpDataDir, openDatabase } from "./client";
import { listMigrations, migrate } from "./migrate";

/** What the global setup hands each test file (vitest `inject`). */
export interface TestTemplates {
  /** The tarball of a migrated PGlite data directory. */
  pgliteDataDir: string | null;
  /** The PostgreSQL template database on TEST_DATABASE_URL's server. */
  postgresTemplate: string | null;
  /** The migrations both hold: only a test database with these same migrations copies them. */
  migrations: string[];
}

declare module "vitest" {
  export interface ProvidedContext {
    podiumTestTemplates: TestTemplates;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const migrations = listMigrations();
  const runId = randomBytes(6).toString("hex");
  const pgliteDataDir = join(tmpdir(), `podium-test-pglite-${runId}.tar`);
  const adminUrl = process.env.TEST_DATABASE_URL;
  const postgresTemplate = adminUrl ? `podium_template_${runId}` : null;

  const teardown = async () => {
    await rm(pgliteDataDir, { force: true });
    if (adminUrl && postgresTemplate) await dropDatabase(adminUrl, postgresTemplate);
  };
  try {
    // One after the other: PGlite holds this thread for seconds (initdb), long enough for the
    // PostgreSQL client's connection timeout to fire if both ran at once.
    if (adminUrl && postgresTemplate) await preparePostgres(adminUrl, postgresTemplate, migrations);
    await preparePglite(pgliteDataDir, migrations);
  } catch (error) {
    await teardown();
    throw error;
  }
  project.provide("podiumTestTemplates", {
    pgliteDataDir,
    postgresTemplate,
    migrations: migrations.map((migration) => migration.name),
  });
  return teardown;
}

async function preparePglite(file: string, migrations: ReturnType<typeof listMigrations>): Promise<void> {
  const db = await openDatabase({ dataDir: "memory://" });
  try {
    await migrate(db, migrations);
    await writeFile(file, new Uint8Array(await (await dumpDataDir(db)).arrayBuffer()));
  } finally {
    await db.close();
  }
}

async function preparePostgres(
  adminUrl: string,
  name: string,
  migrations: ReturnType<typeof listMigrations>,
): Promise<void> {
  await adminQuery(adminUrl, `create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase({ url: url.toString() });
  try {
    await migrate(db, migrations);
  } finally {
    // Every connection closes: PostgreSQL copies a template only while nobody is connected to it.
    await db.close();
  }
  // Nobody connects to it by mistake from now on (which would make the copies fail).
  await adminQuery(adminUrl, `alter database ${name} with allow_connections false`);
}

async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
}

async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}
