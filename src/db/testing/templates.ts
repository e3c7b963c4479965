// Databases prepared once per test run (issue 29 item 2), so that each test database starts as a
// copy instead of running every migration (and, for tests of the demo content, the seed) itself.
// The Vitest global setup (server/testing/templates.ts) makes them; testing/index.ts copies them.
//  - PGlite: an in-memory database, prepared, its data directory dumped to a temporary file;
//    each test database loads it (a fresh PGlite spends seconds in initdb alone).
//  - PostgreSQL (TEST_DATABASE_URL): a template database with a random name (several runs may
//    share the server), prepared, closed to connections; each test database is
//    `CREATE DATABASE … TEMPLATE` it. The teardown removes both.
import { readFile, rm, writeFile } from "node:fs/promises";
import pg from "pg";
import { type Database, dumpDataDir, openDatabase } from "../client";
import { type Migration, migrate } from "../migrate";

/** One prepared database: its PGlite tarball, and its PostgreSQL template when there is a server. */
export interface TestTemplate {
  pgliteDataDir: string;
  postgresTemplate: string | null;
}

/** What the global setup hands each test file (vitest `inject`). */
export interface TestTemplates {
  /** Every migration applied. */
  migrated: TestTemplate;
  /** Every migration applied, and the demo content seeded (server/seed). */
  seeded: TestTemplate;
  /** The migrations both hold: only a test database with these same migrations copies them. */
  migrations: string[];
}

declare module "vitest" {
  export interface ProvidedContext {
    podiumTestTemplates: TestTemplates;
  }
}

/** A migrated PGlite database (or a copy of `from`'s tarball), filled by `fill`, dumped to `file`. */
export async function preparePgliteTemplate(
  file: string,
  start: { migrations: Migration[] } | { from: string },
  fill: (db: Database) => Promise<unknown> = async () => {},
): Promise<void> {
  const db =
    "from" in start
      ? await openDatabase({
          dataDir: "memory://",
          loadDataDir: new Blob([new Uint8Array(await readFile(start.from))]),
        })
      : await openDatabase({ dataDir: "memory://" });
  try {
    if ("migrations" in start) await migrate(db, start.migrations);
    await fill(db);
    await writeFile(file, new Uint8Array(await (await dumpDataDir(db)).arrayBuffer()));
  } finally {
    await db.close();
  }
}

/** A PostgreSQL template: migrated (or copied from the template `from`), filled by `fill`. */
export async function preparePostgresTemplate(
  adminUrl: string,
  name: string,
  start: { migrations: Migration[] } | { from: string },
  fill: (db: Database) => Promise<unknown> = async () => {},
): Promise<void> {
  await adminQuery(
    adminUrl,
    "from" in start ? `create database ${name} template ${start.from}` : `create database ${name}`,
  );
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase({ url: url.toString() });
  try {
    if ("migrations" in start) await migrate(db, start.migrations);
    await fill(db);
  } finally {
    // Every connection closes: PostgreSQL copies a template only while nobody is connected to it.
    await db.close();
  }
  // Nobody connects to it by mistake from now on (which would make the copies fail).
  await adminQuery(adminUrl, `alter database ${name} with allow_connections false`);
}

export async function removeTemplate(template: TestTemplate, adminUrl: string | undefined): Promise<void> {
  await rm(template.pgliteDataDir, { force: true });
  if (adminUrl && template.postgresTemplate)
    await adminQuery(adminUrl, `drop database if exists ${template.postgresTemplate} with (force)`);
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
