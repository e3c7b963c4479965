import type { Queryable } from "./client";

/**
 * Advisory locks held for a transaction, taken by trying again and again rather than by one
 * statement that waits (issue 16 item 5): every statement is cut after DATABASE_QUERY_TIMEOUT_MS,
 * and a process that starts while another one migrates or seeds a fresh database can wait longer
 * than that. Each try is short, so the statement limit stays what it is for everything else.
 */

/** How long between two tries. */
const LOCK_RETRY_MS = 100;
/** How long a start waits for another process's migration or seed before it gives up. */
export const LOCK_WAIT_MAX_MS = 10 * 60 * 1000;

export class LockWaitError extends Error {
  override readonly name = "LockWaitError";
}

/** Takes the transaction-scoped advisory lock `key`, waiting for whoever holds it; `what` names it in errors. */
export async function takeTransactionLock(
  tx: Queryable,
  key: number,
  what: string,
  maxWaitMs = LOCK_WAIT_MAX_MS,
): Promise<void> {
  const deadline = Date.now() + maxWaitMs;
  for (;;) {
    const [row] = await tx.query<{ locked: boolean }>("select pg_try_advisory_xact_lock($1) as locked", [key]);
    if (row?.locked) return;
    if (Date.now() >= deadline) {
      throw new LockWaitError(`another process held the ${what} lock for more than ${Math.round(maxWaitMs / 1000)} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
  }
}
