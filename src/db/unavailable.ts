/** The database can't be reached or didn't answer in time: requests get 503, never 500. */
export class DatabaseUnavailableError extends Error {
  override readonly name = "DatabaseUnavailableError";
  readonly statusCode = 503;
}

/**
 * A stalled connection must not hang requests (issue 9): each PostgreSQL statement has this long
 * on the server (statement_timeout) and, a little longer, on the client, which then drops the
 * connection. Podium's request queries take milliseconds; 5 s leaves room for a busy server.
 */
export const DATABASE_QUERY_TIMEOUT_MS = 5_000;
/** /healthz waits this long for the database before answering 503 (within 2 s in all). */
export const DATABASE_PING_TIMEOUT_MS = 1_000;
