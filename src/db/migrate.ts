import type { Database } from "./client";

/** Committed SQL migrations, applied in file-name order, each in its own transaction. */
const migrationFiles = import.meta.glob<string>("./migrations/*.sql", {
  query: "?raw",
  import: "default",
  eager: true,
});

export interface Migration {
  name: string;
  sql: string;
}

export function listMigrations(): Migration[] {
  return Object.entries(migrationFiles)
    .map(([path, sql]) => ({ name: path.replace(/^.*\//, "").replace(/\.sql$/, ""), sql }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** An arbitrary constant: the advisory lock that serialises migrations across app processes. */
const MIGRATION_LOCK_KEY = 727_360_001;

/** Applies every migration not yet applied; returns the names it applied. */
export async function migrate(db: Database, migrations = listMigrations()): Promise<string[]> {
  await db.query(
    `create table if not exists schema_migrations (
       name text primary key,
       applied_at timestamptz not null default now()
     )`,
  );
  const applied: string[] = [];
  for (const migration of migrations) {
    const done = await db.transaction(async (tx) => {
      await tx.query("select pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
      const seen = await tx.query("select 1 from schema_migrations where name = $1", [migration.name]);
      if (seen.length > 0) return false;
      await execMany(tx, migration.sql);
      await tx.query("insert into schema_migrations (name) values ($1)", [migration.name]);
      return true;
    });
    if (done) applied.push(migration.name);
  }
  return applied;
}

/** Runs a file of statements one by one (extended protocol takes one statement per call). */
async function execMany(tx: { query(sql: string): Promise<unknown> }, sql: string) {
  for (const statement of splitStatements(sql)) await tx.query(statement);
}

/** Splits on semicolons that end a line; migrations keep one statement per such line. */
export function splitStatements(sql: string): string[] {
  return sql
    .replace(/^\s*--.*$/gm, "")
    .split(/;\s*$/m)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
