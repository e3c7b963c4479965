import type { Database } from "./client";
import { takeTransactionLock } from "./locks";

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
  // Under the lock too: two processes creating the table at once can collide (issue 16 item 5).
  await db.transaction(async (tx) => {
    await takeTransactionLock(tx, MIGRATION_LOCK_KEY, "migration");
    await tx.query(
      `create table if not exists schema_migrations (
         name text primary key,
         applied_at timestamptz not null default now()
       )`,
    );
  });
  const applied: string[] = [];
  for (const migration of migrations) {
    const done = await db.transaction(async (tx) => {
      await takeTransactionLock(tx, MIGRATION_LOCK_KEY, "migration");
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

/**
 * Splits a file of SQL into statements at the semicolons between them. A small lexer: semicolons
 * inside quotes ('…', "…"), dollar quotes ($$…$$, $body$…$body$: function bodies) and comments
 * (-- …, /* … *\/) don't end a statement.
 */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let current = "";
  let i = 0;
  const take = (end: number) => {
    current += sql.slice(i, end);
    i = end;
  };
  while (i < sql.length) {
    const char = sql[i];
    const next = sql[i + 1];
    if (char === "-" && next === "-") {
      const end = sql.indexOf("\n", i);
      i = end === -1 ? sql.length : end;
    } else if (char === "/" && next === "*") {
      const end = sql.indexOf("*/", i + 2);
      i = end === -1 ? sql.length : end + 2;
    } else if (char === "'" || char === '"') {
      let end = i + 1;
      for (;;) {
        end = sql.indexOf(char, end);
        if (end === -1) {
          end = sql.length;
          break;
        }
        // A doubled quote is a quote inside the string.
        if (sql[end + 1] === char) end += 2;
        else {
          end += 1;
          break;
        }
      }
      take(end);
    } else if (char === "$" && /[A-Za-z_$]/.test(next ?? "") && isDollarTagStart(sql, i)) {
      const close = sql.indexOf("$", i + 1);
      const tag = sql.slice(i, close + 1);
      const end = sql.indexOf(tag, close + 1);
      take(end === -1 ? sql.length : end + tag.length);
    } else if (char === ";") {
      if (current.trim()) statements.push(current.trim());
      current = "";
      i += 1;
    } else take(i + 1);
  }
  if (current.trim()) statements.push(current.trim());
  return statements;
}

/** `$tag$` or `$$` opens a dollar quote; `$1` (a parameter) doesn't. */
function isDollarTagStart(sql: string, at: number): boolean {
  const close = sql.indexOf("$", at + 1);
  if (close === -1) return false;
  const tag = sql.slice(at + 1, close);
  return tag === "" || /^[A-Za-z_][A-Za-z0-9_]*$/.test(tag);
}
