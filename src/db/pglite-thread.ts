import { Worker } from "node:worker_threads";
import type { Database, Queryable } from "./database";
import { DATABASE_PING_TIMEOUT_MS, DatabaseUnavailableError } from "./unavailable";

/**
 * The embedded database on a thread of its own (pglite-worker.ts runs there). In the request loop
 * PGlite's statements and React's rendering took turns on one core: a search page waited for both.
 * Here the loop only posts each statement and goes on serving; the database thread runs them in
 * the order they were asked for, a transaction's statements together.
 */

/** The built worker's file name beside the server bundle (vite.config.ts). */
export const PGLITE_WORKER_FILE = "pglite-worker.js";

export interface PgliteWorkerData {
  dataDir: string;
}

/** What the loop asks the database thread. `tx` marks the statements of one transaction. */
export type PgliteAsk = { id: number } & (
  | { kind: "query"; sql: string; params?: unknown[]; tx?: number }
  | { kind: "begin" | "commit" | "rollback"; tx: number }
  | { kind: "listen" | "unlisten"; channel: string; tx?: undefined }
  | { kind: "close"; tx?: undefined }
);

interface PlainError {
  message: string;
  fields: Record<string, unknown>;
}

/** What the database thread answers: a statement's rows or error, a notification, or whether it opened. */
export type PgliteAnswer =
  | { id: number; ok: true; rows: unknown[] }
  | { id: number; ok: false; error: PlainError }
  | { id: 0; notify: string; payload: string }
  | { id: 0; ready: true }
  | { id: 0; ready: false; error: PlainError };

/** The error as PostgreSQL reported it: the same message and fields (code, constraint…) as in the thread. */
function rebuild(error: PlainError): Error {
  const rebuilt = Object.assign(new Error(error.message), error.fields);
  rebuilt.message = error.message;
  return rebuilt;
}

type Ask = PgliteAsk extends infer A ? (A extends PgliteAsk ? Omit<A, "id"> : never) : never;

export async function openPgliteThread(dataDir: string, workerFile: URL): Promise<Database> {
  const worker = new Worker(workerFile, { workerData: { dataDir } satisfies PgliteWorkerData });
  const pending = new Map<number, { resolve(rows: unknown[]): void; reject(error: unknown): void }>();
  const listeners = new Map<string, (payload: string) => void>();
  let nextId = 1;
  let nextTransaction = 1;
  let gone: DatabaseUnavailableError | null = null;
  let closed = false;

  const opened = new Promise<void>((resolve, reject) => {
    worker.on("message", (answer: PgliteAnswer) => {
      if ("ready" in answer) {
        if (answer.ready) resolve();
        else reject(new DatabaseUnavailableError(answer.error.message));
        return;
      }
      if ("notify" in answer) {
        listeners.get(answer.notify)?.(answer.payload);
        return;
      }
      const waiter = pending.get(answer.id);
      if (!waiter) return;
      pending.delete(answer.id);
      if (pending.size === 0) worker.unref();
      if (answer.ok) waiter.resolve(answer.rows);
      else waiter.reject(rebuild(answer.error));
    });
    const lose = (reason: string) => {
      gone ??= new DatabaseUnavailableError(`The embedded database stopped: ${reason}`);
      reject(gone);
      for (const waiter of pending.values()) waiter.reject(gone);
      pending.clear();
    };
    worker.on("error", (error) => lose(error.message));
    worker.on("exit", (code) => lose(`its thread exited (${code})`));
  });
  try {
    await opened;
  } catch (error) {
    await worker.terminate();
    throw error;
  }

  const call = <Row>(ask: Ask): Promise<Row[]> => {
    if (gone) return Promise.reject(gone);
    const id = nextId++;
    return new Promise<Row[]>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (rows: unknown[]) => void, reject });
      // Keeps the process alive while a statement is out, not while the database is idle.
      worker.ref();
      try {
        worker.postMessage({ ...ask, id });
      } catch (error) {
        pending.delete(id);
        reject(error);
      }
    });
  };
  const query = <Row>(sql: string, params?: readonly unknown[], tx?: number) =>
    call<Row>({ kind: "query", sql, params: params ? [...params] : undefined, tx });
  worker.unref();

  return {
    kind: "pglite",
    query: (sql, params) => query(sql, params),
    async transaction(fn) {
      const tx = nextTransaction++;
      await call({ kind: "begin", tx });
      const inside: Queryable = { query: (sql, params) => query(sql, params, tx) };
      try {
        const result = await fn(inside);
        await call({ kind: "commit", tx });
        return result;
      } catch (error) {
        await call({ kind: "rollback", tx }).catch(() => {});
        throw error;
      }
    },
    async listen(channel, onMessage, onState) {
      listeners.set(channel, onMessage);
      await call({ kind: "listen", channel });
      onState?.("up");
      return async () => {
        listeners.delete(channel);
        if (!closed) await call({ kind: "unlisten", channel }).catch(() => {});
      };
    },
    async ping() {
      if (closed || gone) return false;
      let timer: NodeJS.Timeout | undefined;
      try {
        return await Promise.race([
          query("select 1").then(() => true),
          new Promise<boolean>((resolve) => {
            timer = setTimeout(() => resolve(false), DATABASE_PING_TIMEOUT_MS);
          }),
        ]);
      } catch {
        return false;
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      if (!gone) await call({ kind: "close" }).catch(() => {});
      await worker.terminate();
    },
  };
}
