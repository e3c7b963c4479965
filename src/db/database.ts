/**
 * The database's interface, apart from the drivers that implement it (issue 31, item 4): client.ts
 * (node-postgres, in-process PGlite) and pglite-thread.ts (PGlite on a thread of its own) both
 * import it, so neither imports the other's types. client.ts re-exports both for the repositories.
 */

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
  /**
   * Hears NOTIFY on a channel (issue 11's change feed): `onMessage` gets each payload, in commit
   * order. `onState` says "up" when listening starts or starts again and "down" when the
   * connection is lost (notifications sent meanwhile are missed: treat "up" after "down" as "anything
   * may have changed"). On PostgreSQL a connection of its own listens, and comes back by itself.
   * Resolves once listening; the returned function stops.
   */
  listen(
    channel: string,
    onMessage: (payload: string) => void,
    onState?: (state: "up" | "down") => void,
  ): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
