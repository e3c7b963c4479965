import { resolve } from "node:path";
import { openDatabase, redactUrl } from "../../db/client";
import { migrate } from "../../db/migrate";
import { removeBulk, seedBulk } from "./bulk";

/**
 * `npm run seed:bulk -- --count N [--run-id ID] [--skewed] [--remove] [--database URL]` (issue 15
 * item 1; `--skewed`, issue 32: every deck newer than the staff picks, no views, one tag on every
 * other deck, one owner with every other deck).
 * The database: --database, else DATABASE_URL, else PGlite in PODIUM_DATA_DIR (./data), as the app.
 * Migrates it first (so it works on a fresh one), then adds run ID's missing decks, or removes the run.
 */
/** Without --count, this many decks; without --run-id, this run. */
const DEFAULT_COUNT = 10_000;
const DEFAULT_RUN_ID = "bulk";

function argument(args: string[], name: string): string | undefined {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
}

async function main(args: string[]): Promise<void> {
  const count = Number(argument(args, "count") ?? DEFAULT_COUNT);
  const runId = argument(args, "run-id") ?? DEFAULT_RUN_ID;
  const url = argument(args, "database") ?? process.env.DATABASE_URL;
  const dataDir = resolve(process.env.PODIUM_DATA_DIR ?? "./data");
  const db = await openDatabase(url ? { url, queryTimeoutMs: 600_000 } : { dataDir });
  const where = url ? `PostgreSQL at ${redactUrl(url)}` : `PGlite in ${dataDir}`;
  try {
    await migrate(db);
    const started = performance.now();
    if (args.includes("--remove")) {
      const removed = await removeBulk(db, runId);
      console.log(
        `seed:bulk: removed run "${runId}" from ${where}: ${removed.presentations} presentations, ${removed.owners} owners`,
      );
    } else {
      const report = await seedBulk(db, {
        count,
        runId,
        skewed: args.includes("--skewed"),
        onProgress: (done) => process.stdout.write(`\rseed:bulk: ${done} / ${count}`),
      });
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(
        `\nseed:bulk: run "${runId}" in ${where}: ${report.presentations} presentations and ${report.likes} likes added (${report.owners} owners) in ${seconds} s`,
      );
    }
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`seed:bulk: ${(error as Error).message}`);
  process.exitCode = 1;
});
