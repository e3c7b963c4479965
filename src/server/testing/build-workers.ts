// Vitest global setup: builds the worker entries (src/server/workers/entries.ts: the document
// worker, the PDF converter, the embedded database's thread) the way `npm run build` does, into a
// cache folder, so route tests run imports in real worker threads and child processes (Node
// can't start either from TypeScript source).
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { buildServer } from "./server-build";

/**
 * One folder per checkout: node_modules may be shared by several checkouts (git worktrees with a
 * linked node_modules), and each must run its own workers, not whichever checkout built last.
 */
export const TEST_WORKER_DIR = resolve(
  `node_modules/.cache/podium-test-workers-${createHash("sha256").update(process.cwd()).digest("hex").slice(0, 12)}`,
);

export default async function setup(): Promise<void> {
  await buildServer(TEST_WORKER_DIR, { withMain: false, sourcemap: true });
  // Inside node_modules no package.json says these are ES modules; this one does.
  writeFileSync(resolve(TEST_WORKER_DIR, "package.json"), '{ "type": "module" }\n');
}
