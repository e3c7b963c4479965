import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type Database, DatabaseUnavailableError, openDatabase, redactUrl } from "../db/client";
import { migrate } from "../db/migrate";
import { PGLITE_WORKER_FILE } from "../db/pglite-thread";
import { EventStreamUnavailableError } from "../features/events/pipeline/jetstream";
import { LiveHubUnavailableError } from "../features/live/hub";
import { buildApp } from "./app";
import { clusterWorkerSlot, runPrimary } from "./cluster";
import { type Config, ConfigError, configFromEnv } from "./config";
import { seedDemoContent } from "./seed/seed";

/** How long a shutdown waits for requests in flight before it gives up. */
const SHUTDOWN_GRACE_MS = 10_000;

/** The built browser assets sit beside the built server (dist/client next to dist/server). */
function defaultClientDir(): string | null {
  const dir = process.env.PODIUM_CLIENT_DIR ?? fileURLToPath(new URL("../client", import.meta.url));
  return existsSync(join(dir, ".vite", "manifest.json")) ? dir : null;
}

/**
 * The script cluster workers run: the server bundle's entry, main.js, beside this chunk
 * (not process.argv[1], which is scripts/start.mjs under `npm start` and would rebuild).
 */
function serverEntry(): string {
  const main = fileURLToPath(new URL("./main.js", import.meta.url));
  return existsSync(main) ? main : (process.argv[1] ?? main);
}

/** Log lines of a cluster worker say which one speaks. */
let logPrefix = "podium:";

function fail(message: string): never {
  console.error(`${logPrefix} ${message}`);
  process.exit(1);
}

function readConfig(): Config {
  try {
    return configFromEnv(process.env, { clientDir: defaultClientDir() });
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
}

function databaseName(config: Config): string {
  return config.databaseUrl ? `PostgreSQL at ${redactUrl(config.databaseUrl)}` : `PGlite in ${config.dataDir}`;
}

/**
 * A migration may rewrite a whole table (adding a stored column to 100,000 presentations took
 * longer than the 5 s a request's statement may take): migrations and the seed get this long
 * per statement, on a connection pool of their own that is closed before serving.
 */
const PREPARE_QUERY_TIMEOUT_MS = 60 * 60 * 1000;

async function open(config: Config, queryTimeoutMs?: number): Promise<{ db: Database; where: string }> {
  try {
    // PGlite runs on a thread of its own, built beside this bundle (vite.config.ts), as the document workers are.
    const worker = new URL(
      PGLITE_WORKER_FILE,
      pathToFileURL(`${config.workerDir ?? fileURLToPath(new URL(".", import.meta.url))}/`),
    );
    const db = await openDatabase(
      config.databaseUrl ? { url: config.databaseUrl, queryTimeoutMs } : { dataDir: config.dataDir, worker },
    );
    return { db, where: databaseName(config) };
  } catch (error) {
    if (error instanceof DatabaseUnavailableError) fail(error.message);
    throw error;
  }
}

/** Migrations and the demo seed: once per start, in the only process or in the cluster's primary. */
async function prepare(config: Config, db: Database, where: string): Promise<void> {
  try {
    const applied = await migrate(db);
    if (applied.length > 0) console.log(`podium: applied migrations ${applied.join(", ")} (${where})`);
    if (config.seedDemo) {
      const seeded = await seedDemoContent(db);
      const added = Object.values(seeded).reduce((sum, n) => sum + n, 0);
      console.log(
        added > 0
          ? `podium: seeded demo content: ${seeded.users} users, ${seeded.presentations} presentations, ${seeded.templates} templates, ${seeded.videoCards} video cards, ${seeded.viewLinks} view links`
          : "podium: demo content already present",
      );
    }
  } catch (error) {
    await db.close().catch(() => {});
    fail(`could not prepare the database (${where}): ${(error as Error).message}`);
  }
}

/** Builds the app on an open database, listens, and stops gracefully on SIGTERM/SIGINT. */
async function serve(config: Config, db: Database, where: string, workerSlot: number | null): Promise<void> {
  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    app = await buildApp(config, db);
  } catch (error) {
    // Issue 14 item 2: NATS_URL names a NATS that can't be reached: say so and stop.
    if (error instanceof EventStreamUnavailableError || error instanceof LiveHubUnavailableError) {
      await db.close().catch(() => {});
      fail(error.message);
    }
    throw error;
  }
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await app.close().catch(() => {});
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") fail(`port ${config.port} is already in use. Stop the other server or set PORT.`);
    fail(`could not listen on ${config.host}:${config.port}: ${(error as Error).message}`);
  }
  // In a cluster the primary says "serving" once every worker listens.
  if (workerSlot === null) console.log(`podium: serving ${config.publicUrl} (${where}, ${config.env}, one process)`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    // Issue 16 item 6: /readyz answers 503 at once; for PODIUM_DRAIN_SECONDS requests are still
    // served, so a load balancer polling it stops sending new ones before this process stops listening.
    app.startDraining();
    if (config.drainMs > 0) {
      console.log(`${logPrefix} ${signal} received; draining for ${config.drainMs / 1000} s (/readyz answers 503)`);
    }
    if (config.drainMs > 0) setTimeout(() => close(signal), config.drainMs);
    else close(signal);
  };
  const close = (signal: string) => {
    console.log(`${logPrefix} ${signal} received; finishing requests in flight`);
    const timer = setTimeout(() => fail("shutdown took too long; exiting"), SHUTDOWN_GRACE_MS);
    timer.unref();
    // close() stops accepting, waits for requests in flight, then closes the database (onClose).
    app.close().then(
      () => {
        console.log(`${logPrefix} stopped`);
        process.exit(0);
      },
      (error: Error) => fail(`error while stopping: ${error.message}`),
    );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

async function main(): Promise<void> {
  const config = readConfig();
  const workerSlot = clusterWorkerSlot();
  if (workerSlot !== null) {
    // A worker of the cluster: the primary has migrated and seeded; open, build, listen.
    logPrefix = `podium (worker ${workerSlot}):`;
    const { db, where } = await open(config);
    await serve(config, db, where, workerSlot);
    return;
  }
  if (!config.clientDir) {
    console.warn("podium: no built browser assets found; pages render without scripts. Run `npm run build`.");
  }
  if (config.databaseUrl) {
    const preparing = await open(config, PREPARE_QUERY_TIMEOUT_MS);
    await prepare(config, preparing.db, preparing.where);
    await preparing.db.close();
    if (config.workers === 1) {
      const { db, where } = await open(config);
      await serve(config, db, where, null);
      return;
    }
  } else {
    // PGlite: one handle on its files, and no statement timeout to lift.
    const { db, where } = await open(config);
    await prepare(config, db, where);
    if (config.workers === 1) {
      await serve(config, db, where, null);
      return;
    }
    await db.close();
  }
  // Issue 11, item 4: the primary only prepares the database and keeps the workers running.
  const where = databaseName(config);
  runPrimary({
    workers: config.workers,
    entry: serverEntry(),
    servingLine: (workers) => `podium: serving ${config.publicUrl} (${where}, ${config.env}, ${workers} workers)`,
    // The workers drain first (PODIUM_DRAIN_SECONDS), then finish their requests.
    graceMs: SHUTDOWN_GRACE_MS + config.drainMs,
  });
}

void main().catch((error: Error) => fail(error.stack ?? error.message));
