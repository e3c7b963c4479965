import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import pg from "pg";
import type { Database } from "./database";
import { openPgliteThread } from "./pglite-thread";
import { MAX_PREPARED_STATEMENTS, preparedQueries, statementName } from "./prepared";
import { sessionSettingsSql, sessionStartupOptions } from "./session-settings";
import { DATABASE_PING_TIMEOUT_MS, DATABASE_QUERY_TIMEOUT_MS, DatabaseUnavailableError } from "./unavailable";

export type { Database, Queryable } from "./database";
export { DATABASE_PING_TIMEOUT_MS, DATABASE_QUERY_TIMEOUT_MS, DatabaseUnavailableError };

/**
 * Where the data lives: a PostgreSQL URL, or a PGlite directory ("memory://" for none).
 * `queryTimeoutMs` bounds each PostgreSQL statement (DATABASE_QUERY_TIMEOUT_MS by default).
 */
export type DatabaseTarget =
  | { url: string; queryTimeoutMs?: number }
  /**
   * `worker`: the built pglite-worker.js, to run PGlite on a thread of its own (the server does).
   * `loadDataDir`: a data directory dumped by dumpDataDir() to start from, instead of an empty
   * database (test databases copy one migrated once per run; on this thread only, in memory).
   */
  | { dataDir: string; worker?: URL; loadDataDir?: Blob };

/** Waiting for a free pooled connection counts as unavailability after this long. */
const CONNECT_TIMEOUT_MS = 5_000;

/** Runs work, or rejects with DatabaseUnavailableError after ms (calling onTimeout first). */
async function within<Result>(work: Promise<Result>, ms: number, what: string, onTimeout = () => {}): Promise<Result> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new DatabaseUnavailableError(`The database didn't answer ${what} within ${ms} ms.`));
    }, ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Errors that mean "the database isn't there right now" rather than "this query is wrong":
 * refused or broken connections, timeouts, and PostgreSQL's connection and shutdown classes
 * (08…, 57P0x) and statement timeouts (57014).
 */
function isUnavailability(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return true;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === "string") {
    if (/^(08|57P0)/.test(code) || code === "57014") return true;
    if (["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENOTFOUND"].includes(code)) return true;
  }
  return (
    typeof message === "string" &&
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout/i.test(
      message,
    )
  );
}

function asUnavailable(error: unknown): unknown {
  if (error instanceof DatabaseUnavailableError || !isUnavailability(error)) return error;
  return new DatabaseUnavailableError(`The database is unavailable: ${(error as Error).message}`);
}

/** PostgreSQL's SQLSTATEs for a row that would break a unique key, or refer to a row that isn't there. */
const UNIQUE_VIOLATION = "23505";
const FOREIGN_KEY_VIOLATION = "23503";

/** The constraint an error names, when its SQLSTATE is `code`. */
function violated(error: unknown, code: string): string | null {
  if (!error || typeof error !== "object") return null;
  const { code: actual, constraint } = error as { code?: unknown; constraint?: unknown };
  return actual === code && typeof constraint === "string" ? constraint : null;
}

/**
 * The unique constraint (or unique index) a statement ran into, by name ("users_email_key"), or
 * null for any other error. Both engines say it the same way: pg's error and PGlite's carry
 * `code` 23505 and `constraint`, and the PGlite thread copies both across (pglite-thread.ts).
 * A check made before an insert can miss a row another request inserts meanwhile; the insert's
 * violation is then the answer, and this names it.
 */
export function uniqueViolation(error: unknown): string | null {
  return violated(error, UNIQUE_VIOLATION);
}

/**
 * The constraint of a write that lost a race: a unique key another request took first (23505),
 * or a reference to a row another request deleted after this one looked (23503, such as a
 * comment on a presentation removed meanwhile). Null for any other error.
 */
export function writeConflict(error: unknown): string | null {
  return violated(error, UNIQUE_VIOLATION) ?? violated(error, FOREIGN_KEY_VIOLATION);
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
  if ("url" in target) return openPostgres(target.url, target.queryTimeoutMs);
  if (!target.worker) return openPglite(target.dataDir, target.loadDataDir);
  if (target.loadDataDir) throw new Error("loadDataDir works with PGlite on this thread only");
  prepareDataDir(target.dataDir);
  try {
    return await openPgliteThread(target.dataDir, target.worker);
  } catch (error) {
    throw new DatabaseUnavailableError(
      `Cannot open the embedded database in ${target.dataDir}: ${(error as Error).message}. Is another Podium using it?`,
    );
  }
}

function prepareDataDir(dataDir: string): void {
  if (dataDir.startsWith("memory://")) return;
  try {
    ensureDirectory(dataDir);
  } catch (error) {
    throw new DatabaseUnavailableError(
      `Cannot create the data directory ${dataDir}: ${(error as Error).message}. Set PODIUM_DATA_DIR to a writable directory.`,
    );
  }
}

/** The PGlite behind each Database opened on this thread, for dumpDataDir(). */
const pglites = new WeakMap<Database, PGlite>();

/**
 * The whole data directory of a PGlite database opened on this thread, as a tarball that
 * openDatabase's `loadDataDir` starts from (test databases: see testing/index.ts).
 */
export async function dumpDataDir(db: Database): Promise<Blob> {
  const pglite = pglites.get(db);
  if (!pglite) throw new Error("dumpDataDir needs a PGlite database opened on this thread");
  return pglite.dumpDataDir("none");
}

/** PGlite on this thread: tests and command-line tools, where no page is being served meanwhile. */
async function openPglite(dataDir: string, loadDataDir?: Blob): Promise<Database> {
  const inMemory = dataDir.startsWith("memory://");
  prepareDataDir(dataDir);
  let db: PGlite;
  try {
    // pg_trgm: search's typo tolerance (issue 15, migration 0013) works on PGlite too.
    const options = { extensions: { pg_trgm }, ...(loadDataDir ? { loadDataDir } : {}) };
    db = inMemory ? new PGlite(options) : new PGlite(dataDir, options);
    await db.waitReady;
    await db.exec(sessionSettingsSql());
  } catch (error) {
    throw new DatabaseUnavailableError(
      `Cannot open the embedded database in ${dataDir}: ${(error as Error).message}. Is another Podium using it?`,
    );
  }
  let closed = false;
  const run = preparedQueries(db);
  const turns = pgliteTurns();
  const database: Database = {
    kind: "pglite",
    query: (sql, params) => turns.take(() => run(sql, params)),
    // The transaction's turn holds the database: its statements run on the one session in order.
    transaction: (fn) => turns.take(() => db.transaction((tx) => fn({ query: (sql, params) => run(sql, params, tx) }))),
    async listen(channel, onMessage, onState) {
      // PGlite is in this process: a notification arrives before the statement that sent it returns.
      const stop = await db.listen(channel, onMessage);
      onState?.("up");
      return async () => {
        if (!closed) await stop();
      };
    },
    ping: async () => !closed && answered(db.query("select 1")),
    async close() {
      if (closed) return;
      closed = true;
      await db.close();
    },
  };
  pglites.set(database, db);
  return database;
}

/**
 * PGlite runs each statement on this thread. Its callers wait in line, and the next in line used
 * to start in a microtask as soon as the previous statement ended: a line of 20 searches then ran
 * for half a second without the event loop accepting a request or writing an answer (a health
 * check took 500 ms under load). Here each statement (or whole transaction) takes its turn in
 * order, each turn starting on a later turn of the event loop (setImmediate), so sockets are
 * served between two statements.
 */
function pgliteTurns() {
  let line: Promise<unknown> = Promise.resolve();
  return {
    take<Result>(work: () => Promise<Result>): Promise<Result> {
      const turn = line.then(() => new Promise<void>((resolve) => setImmediate(resolve)).then(work));
      // The next turn waits for this one to end, however it ends.
      line = turn.catch(() => {});
      return turn;
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

/**
 * Issue 32: how long an idle connection is kept. A new one costs its first search about 80 ms of
 * PostgreSQL's time (connect 15 ms, a first run of 49 ms while the backend loads its catalogue,
 * then four runs planned anew, 15 ms each, against 9 ms once the plan is kept). node-postgres's
 * default, 10 s, let the pool shrink to what a quiet moment needs, and the next burst opened cold
 * connections one after another: at a steady 100 searches/s on 100,000 decks, every time
 * connections closed, searches queued for a second or two (p99 178–1,000 ms, max 468–1,660 ms);
 * kept 5 minutes, p99 25–40 ms, max 43–85 ms. Twenty idle connections cost PostgreSQL little.
 */
const POOL_IDLE_MS = 5 * 60_000;

const statementNames = new Map<string, string>();

/** Statements with parameters are prepared once per connection, by name (prepared.ts). */
function statement(sql: string, params: readonly unknown[] | undefined): pg.QueryConfig {
  if (!params) return { text: sql };
  let name = statementNames.get(sql);
  if (!name && statementNames.size < MAX_PREPARED_STATEMENTS) {
    name = statementName(sql);
    statementNames.set(sql, name);
  }
  return name ? { name, text: sql, values: [...params] } : { text: sql, values: [...params] };
}

async function openPostgres(url: string, queryTimeoutMs = DATABASE_QUERY_TIMEOUT_MS): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: POOL_SIZE,
    idleTimeoutMillis: POOL_IDLE_MS,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: queryTimeoutMs,
    // A transaction left open by a stalled client doesn't hold its locks for long.
    idle_in_transaction_session_timeout: queryTimeoutMs * 2,
    keepAlive: true,
    options: sessionStartupOptions(),
  });
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
  const listeners = new Set<() => Promise<void>>();
  const watched = new WeakSet<pg.PoolClient>();
  const connect = async (): Promise<pg.PoolClient> => {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      throw asUnavailable(error);
    }
    // A connection lost while checked out emits 'error'; the query in flight already fails.
    if (!watched.has(client)) {
      watched.add(client);
      client.on("error", () => {});
    }
    return client;
  };
  /** Gives a client back; a broken one is cut at once (ending politely would wait on a stalled socket). */
  const release = (client: pg.PoolClient, broken: { error: Error | null }) => {
    if (broken.error)
      (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    client.release(broken.error ?? undefined);
  };
  /**
   * One statement on a client, bounded: past the client-side limit the connection is marked
   * broken (released with an error, so the pool destroys it), since a stalled socket would
   * otherwise answer this statement's reply to the next one.
   */
  const run = async <Row>(
    client: pg.PoolClient,
    config: pg.QueryConfig,
    broken: { error: Error | null },
    timeoutMs = queryTimeoutMs + 1_000,
  ): Promise<Row[]> => {
    try {
      const result = await within(client.query(config), timeoutMs, "a query", () => {
        broken.error = new Error("query timed out");
      });
      return result.rows as Row[];
    } catch (error) {
      if (isUnavailability(error)) broken.error ??= error as Error;
      throw asUnavailable(error);
    }
  };
  const query = async <Row>(sql: string, params?: readonly unknown[]): Promise<Row[]> => {
    const client = await connect();
    const broken = { error: null as Error | null };
    try {
      return await run<Row>(client, statement(sql, params), broken);
    } finally {
      release(client, broken);
    }
  };
  return {
    kind: "postgres",
    query,
    async transaction(fn) {
      const client = await connect();
      const broken = { error: null as Error | null };
      try {
        await run(client, { text: "begin" }, broken);
        const result = await fn({ query: (sql, params) => run(client, statement(sql, params), broken) });
        await run(client, { text: "commit" }, broken);
        return result;
      } catch (error) {
        if (!broken.error) await run(client, { text: "rollback" }, broken).catch(() => {});
        throw error;
      } finally {
        release(client, broken);
      }
    },
    async listen(channel, onMessage, onState) {
      const stop = await listenOnPostgres(url, channel, onMessage, onState ?? (() => {}), () => closed);
      listeners.add(stop);
      return async () => {
        listeners.delete(stop);
        await stop();
      };
    },
    ping: async () => !closed && answered(within(query("select 1"), DATABASE_PING_TIMEOUT_MS, "a health check")),
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...listeners].map((stop) => stop()));
      await pool.end();
    },
  };
}

/** A health check: whether the statement answered (a failure or a timeout is "no", never thrown). */
const answered = (statement: Promise<unknown>): Promise<boolean> =>
  statement.then(
    () => true,
    () => false,
  );

/** A lost listening connection tries again after this long, doubling up to the cap. */
const LISTEN_RETRY_MS = { first: 100, max: 5_000 } as const;

/**
 * LISTEN on a connection of its own (a pooled one would be handed to queries). When it breaks,
 * "down" is reported and it reconnects with backoff until stopped or the database is closed.
 */
async function listenOnPostgres(
  url: string,
  channel: string,
  onMessage: (payload: string) => void,
  onState: (state: "up" | "down") => void,
  isClosed: () => boolean,
): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | undefined;
  let delay: number = LISTEN_RETRY_MS.first;
  const identifier = `"${channel.replaceAll('"', '""')}"`;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url, keepAlive: true, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    let up = false;
    const onLost = () => {
      // Before it is up, a failure is connect()'s to report; after, once.
      if (!up) return;
      up = false;
      next.removeAllListeners("notification");
      next.end().catch(() => {});
      if (client === next) client = null;
      if (stopped || isClosed()) return;
      onState("down");
      retry = setTimeout(reconnect, delay);
      delay = Math.min(delay * 2, LISTEN_RETRY_MS.max);
    };
    next.on("error", onLost);
    next.on("end", onLost);
    next.on("notification", (message) => {
      if (message.channel === channel) onMessage(message.payload ?? "");
    });
    try {
      await next.connect();
      await next.query(`listen ${identifier}`);
    } catch (error) {
      await next.end().catch(() => {});
      throw error;
    }
    if (stopped || isClosed()) {
      await next.end().catch(() => {});
      return;
    }
    up = true;
    client = next;
    delay = LISTEN_RETRY_MS.first;
    onState("up");
  };
  const reconnect = () => {
    connect().catch(() => {
      if (stopped || isClosed()) return;
      retry = setTimeout(reconnect, delay);
      delay = Math.min(delay * 2, LISTEN_RETRY_MS.max);
    });
  };

  try {
    await connect();
  } catch (error) {
    throw asUnavailable(error);
  }
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const current = client;
    client = null;
    current?.removeAllListeners("end");
    current?.removeAllListeners("error");
    current?.on("error", () => {});
    await current?.end().catch(() => {});
  };
}
