import { createHash } from "node:crypto";
import { type PGlite, parse, protocol } from "@electric-sql/pglite";

/**
 * Named prepared statements, on both drivers. A statement with parameters is parsed once per
 * connection under a name taken from its text, then only bound and executed: PostgreSQL skips
 * parsing, and once it has seen that a generic plan is as good as the custom ones, planning too.
 * Podium's SQL is static text, so the names are few; past the cap, statements go unnamed.
 *
 * Measured: PostgreSQL (issue 4): half of the time per like went to parsing and planning.
 * PGlite (issue 15): the search statement over 200 words on 10,000 presentations took 4.9 ms a
 * search unnamed, of which 2.9 ms parsing and planning, and 2.7 ms named.
 */

/** Prepared statements per connection at most (each holds the database's memory). */
export const MAX_PREPARED_STATEMENTS = 500;

/** The statement's name on every connection: the same text always gets the same name. */
export function statementName(sql: string): string {
  return `podium_${createHash("sha1").update(sql).digest("hex").slice(0, 20)}`;
}

/** PostgreSQL's answer when a prepared statement's result columns changed under it (a DDL). */
const resultTypeChanged = (error: unknown) =>
  (error as { code?: string }).code === "0A000" && String((error as Error).message).includes("cached plan");

const serialize = protocol.serialize;
const LOCAL = { syncToFs: false } as const;

/**
 * A query function over one PGlite that prepares statements with parameters by name (as
 * node-postgres does on PostgreSQL with `name`). PGlite's own `query` parses and plans every
 * statement anew. The caller runs one statement at a time (pglite-worker.ts, or client.ts's turns).
 *
 * Statements run through PGlite's public protocol API with the messages its own `query` sends
 * (bind, describe, execute, sync), and the results are read by its own parser, so values come back
 * exactly as from `query`.
 */
export function preparedQueries(db: PGlite, max = MAX_PREPARED_STATEMENTS) {
  /** The statements prepared on this database: name and parameter types, by text. */
  const prepared = new Map<string, { name: string; types: number[] }>();

  const run = async (messages: Uint8Array) => db.execProtocolStream(messages, LOCAL);

  async function prepare(sql: string): Promise<{ name: string; types: number[] }> {
    const name = statementName(sql);
    const described: Awaited<ReturnType<typeof run>> = [];
    try {
      await run(serialize.parse({ name, text: sql }));
      described.push(...(await run(serialize.describe({ type: "S", name }))));
    } finally {
      await run(serialize.sync());
    }
    const parameters = described.find((message) => message.name === "parameterDescription") as
      | { dataTypeIDs: number[] }
      | undefined;
    const statement = { name, types: parameters?.dataTypeIDs ?? [] };
    prepared.set(sql, statement);
    return statement;
  }

  async function execute<Row>(statement: { name: string; types: number[] }, params: readonly unknown[]) {
    const values = params.map((value, index) => {
      if (value === null || value === undefined) return null;
      const serializer = db.serializers[statement.types[index] ?? 0];
      return serializer ? serializer(value) : String(value);
    });
    const messages: Awaited<ReturnType<typeof run>> = [];
    try {
      messages.push(...(await run(serialize.bind({ statement: statement.name, values }))));
      messages.push(...(await run(serialize.describe({ type: "P" }))));
      messages.push(...(await run(serialize.execute({}))));
    } finally {
      messages.push(...(await run(serialize.sync())));
    }
    await db.syncToFs();
    return (parse.parseResults(messages, db.parsers)[0]?.rows ?? []) as Row[];
  }

  /** Forgets a statement whose result columns changed (the next use prepares it again). */
  async function forget(sql: string, name: string): Promise<void> {
    prepared.delete(sql);
    try {
      await run(serialize.close({ type: "S", name }));
    } finally {
      await run(serialize.sync());
    }
  }

  /**
   * One statement. In a transaction (`transaction`: PGlite's, or true when begun with SQL), a
   * statement without parameters runs on it, and a statement whose result columns changed is not
   * run again (the failure aborted the transaction) but fails as PGlite's own would.
   */
  return async function query<Row>(
    sql: string,
    params?: readonly unknown[],
    transaction: Pick<PGlite, "query"> | boolean = false,
  ): Promise<Row[]> {
    if (!params || (!prepared.has(sql) && prepared.size >= max)) {
      const unnamed = typeof transaction === "object" ? transaction : db;
      return (await unnamed.query<Row>(sql, params ? [...params] : undefined)).rows;
    }
    return db.runExclusive(async () => {
      const statement = prepared.get(sql) ?? (await prepare(sql));
      try {
        return await execute<Row>(statement, params);
      } catch (error) {
        if (!resultTypeChanged(error) || transaction) throw error;
        await forget(sql, statement.name);
        return execute<Row>(await prepare(sql), params);
      }
    });
  };
}
