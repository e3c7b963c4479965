import { randomBytes } from "node:crypto";
import pg from "pg";

/** Runs one statement on a PostgreSQL server as its admin (a fresh connection, closed after). */
export async function adminQuery<Row extends pg.QueryResultRow>(url: string, sql: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(sql)).rows;
  } finally {
    await client.end();
  }
}

/**
 * An empty database of its own on the PostgreSQL server at `admin`, for tests that start the
 * server as a process (cluster, shutdown): its address, and `drop` for after the test.
 */
export async function scratchDatabase(admin: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `podium_test_${randomBytes(6).toString("hex")}`;
  await adminQuery(admin, `create database ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => adminQuery(admin, `drop database if exists ${name} with (force)`).then(() => {}),
  };
}
