import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Database, DatabaseUnavailableError, openDatabase, redactUrl } from "../db/client";
import { migrate } from "../db/migrate";
import { buildApp } from "./app";
import { ConfigError, configFromEnv } from "./config";
import { seedDemoContent } from "./seed/seed";

/** How long a shutdown waits for requests in flight before it gives up. */
const SHUTDOWN_GRACE_MS = 10_000;

/** The built browser assets sit beside the built server (dist/client next to dist/server). */
function defaultClientDir(): string | null {
  const dir = process.env.PODIUM_CLIENT_DIR ?? fileURLToPath(new URL("../client", import.meta.url));
  return existsSync(join(dir, ".vite", "manifest.json")) ? dir : null;
}

function fail(message: string): never {
  console.error(`podium: ${message}`);
  process.exit(1);
}

async function main(): Promise<void> {
  let config: ReturnType<typeof configFromEnv>;
  try {
    config = configFromEnv(process.env, { clientDir: defaultClientDir() });
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
  if (!config.clientDir) {
    console.warn("podium: no built browser assets found; pages render without scripts. Run `npm run build`.");
  }

  let db: Database;
  try {
    db = await openDatabase(config.databaseUrl ? { url: config.databaseUrl } : { dataDir: config.dataDir });
  } catch (error) {
    if (error instanceof DatabaseUnavailableError) fail(error.message);
    throw error;
  }
  const where = config.databaseUrl ? `PostgreSQL at ${redactUrl(config.databaseUrl)}` : `PGlite in ${config.dataDir}`;

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

  const app = await buildApp(config, db);
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await app.close().catch(() => {});
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") fail(`port ${config.port} is already in use. Stop the other server or set PORT.`);
    fail(`could not listen on ${config.host}:${config.port}: ${(error as Error).message}`);
  }
  console.log(`podium: serving ${config.publicUrl} (${where}, ${config.env})`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`podium: ${signal} received; finishing requests in flight`);
    const timer = setTimeout(() => fail("shutdown took too long; exiting"), SHUTDOWN_GRACE_MS);
    timer.unref();
    // close() stops accepting, waits for requests in flight, then closes the database (onClose).
    app.close().then(
      () => {
        console.log("podium: stopped");
        process.exit(0);
      },
      (error: Error) => fail(`error while stopping: ${error.message}`),
    );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

void main().catch((error: Error) => fail(error.stack ?? error.message));
