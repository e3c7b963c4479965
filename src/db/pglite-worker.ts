import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { PgliteAnswer, PgliteAsk, PgliteWorkerData } from "./pglite-thread";
import { preparedQueries } from "./prepared";
import { sessionSettingsSql } from "./session-settings";

/**
 * The embedded database's thread (built to dist/server/pglite-worker.js; pglite-thread.ts is the
 * other side). PGlite runs every statement on the thread that holds it: here that is not the
 * request loop, so rendering a page and running the next query use both cores.
 *
 * Statements run in the order they arrive. A transaction, once begun, has the database to itself:
 * statements from anyone else wait until it commits or rolls back.
 */
const port = parentPort;
if (!port) throw new Error("pglite-worker runs as a worker thread");
const { dataDir } = workerData as PgliteWorkerData;

const post = (answer: PgliteAnswer) => port.postMessage(answer);

/** An error as plain data: PostgreSQL's fields (code, constraint, detail…) travel with it. */
function plain(error: unknown): { message: string; fields: Record<string, unknown> } {
  const fields: Record<string, unknown> = {};
  if (error && typeof error === "object") {
    for (const [key, value] of Object.entries(error)) {
      if (value === null || ["string", "number", "boolean"].includes(typeof value)) fields[key] = value;
    }
  }
  return { message: error instanceof Error ? error.message : String(error), fields };
}

async function open(): Promise<PGlite> {
  // pg_trgm: migration 0013 creates the extension, so a new database needs it.
  const options = { extensions: { pg_trgm } };
  const db = dataDir.startsWith("memory://") ? new PGlite(options) : new PGlite(dataDir, options);
  await db.waitReady;
  await db.exec(sessionSettingsSql());
  return db;
}

const waiting: PgliteAsk[] = [];
/** The transaction that has the database, if any. */
let inTransaction: number | null = null;
let running = false;
/** The database, and its statements with parameters prepared by name once (prepared.ts). */
let db: { pglite: PGlite; query: ReturnType<typeof preparedQueries> } | null = null;
const stopListening = new Map<string, () => Promise<void>>();

/** The next ask that may run: the oldest, or during a transaction the oldest of that transaction. */
function nextAsk(): PgliteAsk | undefined {
  const index = inTransaction === null ? 0 : waiting.findIndex((ask) => ask.tx === inTransaction);
  return index < 0 ? undefined : waiting.splice(index, 1)[0];
}

async function answer({ pglite: database, query }: NonNullable<typeof db>, ask: PgliteAsk): Promise<void> {
  try {
    switch (ask.kind) {
      case "query": {
        const rows = await query(ask.sql, ask.params, inTransaction !== null);
        post({ id: ask.id, ok: true, rows });
        return;
      }
      case "begin":
        await database.query("begin");
        inTransaction = ask.tx;
        break;
      case "commit":
      case "rollback":
        inTransaction = null;
        await database.query(ask.kind);
        break;
      case "listen": {
        const stop = await database.listen(ask.channel, (payload) => post({ id: 0, notify: ask.channel, payload }));
        stopListening.set(ask.channel, stop);
        break;
      }
      case "unlisten":
        await stopListening.get(ask.channel)?.();
        stopListening.delete(ask.channel);
        break;
      case "close":
        await database.close();
        db = null;
        break;
    }
    post({ id: ask.id, ok: true, rows: [] });
  } catch (error) {
    post({ id: ask.id, ok: false, error: plain(error) });
  }
}

async function work(): Promise<void> {
  if (running || !db) return;
  running = true;
  try {
    for (let ask = nextAsk(); ask && db; ask = nextAsk()) await answer(db, ask);
  } finally {
    running = false;
  }
}

port.on("message", (ask: PgliteAsk) => {
  waiting.push(ask);
  void work();
});

open().then(
  (opened) => {
    db = { pglite: opened, query: preparedQueries(opened) };
    post({ id: 0, ready: true });
    void work();
  },
  (error) => post({ id: 0, ready: false, error: plain(error) }),
);
