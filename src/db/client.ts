import { createHash } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";

/** Anything that runs SQL: the database itself or an open transaction. */
export interface Queryable {
  query<Row>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
}

/**
 * Podium's one database interface over both drivers. Repositories take a Queryable;
 * only src/db and the repositories know SQL exists.
 */
export interface Database extends Queryable {
  readonly kind: "pglite" | "postgres";
  /** Runs fn in one transaction: all of its writes land, or none do. */
  transaction<Result>(fn: (tx: Queryable) => Promise<Result>): Promise<Result>;
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** Where the data lives: a PostgreSQL URL, or a PGlite directory ("memory://" for none). */
export type DatabaseTarget = { url: string } | { dataDir: string };

export class DatabaseUnavailableError extends Error {
  override readonly name = "DatabaseUnavailableError";
}

/** "postgres://user:secret@host/db" → "postgres://user:***@host/db", for logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(unparseable DATABASE_URL)";
  }
}

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  return "url" in target ? openPostgres(target.url) : openPglite(target.dataDir);
}

async function openPglite(dataDir: string): Promise<Database> {
  const inMemory = dataDir.startsWith("memory://");
  if (!inMemory) {
    try {
      ensureDirectory(dataDir);
    } catch (error) {
      throw new DatabaseUnavailableError(
        `Cannot create the data directory ${dataDir}: ${(error as Error).message}. Set PODIUM_DATA_DIR to a writable directory.`,
      );
    }
  }
  let db: PGlite;
  try {
    db = inMemory ? new PGlite() : new PGlite(dataDir);
    await db.waitReady;
  } catch (error) {
    throw new DatabaseUnavailableError(
      `Cannot open the embedded database in ${dataDir}: ${(error as Error).message}. Is another Podium using it?`,
    );
  }
  let closed = false;
  const run = async <Row>(q: Pick<PGlite, "query">, sql: string, params?: readonly unknown[]) =>
    (await q.query<Row>(sql, params ? [...params] : undefined)).rows;
  return {
    kind: "pglite",
    query: (sql, params) => run(db, sql, params),
    transaction: (fn) => db.transaction((tx) => fn({ query: (sql, params) => run(tx, sql, params) })),
    async ping() {
      if (closed) return false;
      try {
        await db.query("select 1");
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await db.close();
    },
  };
}

/**
 * mkdir -p, one level at a time: Node's recursive mkdir can spin forever on file systems
 * that refuse new entries (such as /proc), where this fails at once with the reason.
 */
function ensureDirectory(path: string): void {
  if (existsSync(path)) return;
  const parent = dirname(path);
  if (parent !== path) ensureDirectory(parent);
  mkdirSync(path);
}

/** Connections per app process (PODIUM_DB_POOL); a like takes two short queries, so 20 keep 50 callers moving. */
const POOL_SIZE = Math.max(1, Math.min(200, Number(process.env.PODIUM_DB_POOL ?? 20) || 20));

/** Prepared statements per connection at most (each holds server memory). */
const MAX_PREPARED_STATEMENTS = 500;
const statementNames = new Map<string, string>();

/**
 * Statements with parameters are prepared once per connection, by name, and reused: the
 * server parses them once, and plans them once it has seen that a generic plan is as good
 * (issue 4's benchmark: half of PostgreSQL's time per like went to parsing and planning).
 * Podium's SQL is static text, so the names are few; past the cap, statements go unnamed.
 */
function statement(sql: string, params: readonly unknown[] | undefined): pg.QueryConfig {
  if (!params) return { text: sql };
  let name = statementNames.get(sql);
  if (!name && statementNames.size < MAX_PREPARED_STATEMENTS) {
    name = `podium_${createHash("sha1").update(sql).digest("hex").slice(0, 20)}`;
    statementNames.set(sql, name);
  }
  return name ? { name, text: sql, values: [...params] } : { text: sql, values: [...params] };
}

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE, connectionTimeoutMillis: 5_000 });
  // An idle client that loses its server emits 'error'; without a listener Node exits.
  pool.on("error", () => {});
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end().catch(() => {});
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new DatabaseUnavailableError(
      `Cannot reach PostgreSQL at ${redactUrl(url)} (${reason}). Check DATABASE_URL and that the server is running.`,
    );
  }
  let closed = false;
  return {
    kind: "postgres",
    async query(sql, params) {
      return (await pool.query(statement(sql, params))).rows;
    },
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query("begin");
        const result = await fn({
          query: async (sql, params) => (await client.query(statement(sql, params))).rows,
        });
        await client.query("commit");
        return result;
      } catch (error) {
        await client.query("rollback").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    async ping() {
      if (closed) return false;
      try {
        await pool.query("select 1");
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
