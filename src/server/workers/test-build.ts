// Vitest global setup: builds the document worker (src/server/workers/document-worker.ts) the
// way `npm run build` does, into a cache folder, so route tests run imports in real worker
// threads (Node can't start a worker from TypeScript source).
import { resolve } from "node:path";
import { WORKER_ENTRIES } from "./entries";

export const TEST_WORKER_DIR = resolve("node_modules/.cache/podium-test-workers");

export default async function setup(): Promise<void> {
  const { build } = await import("vite");
  await build({
    configFile: false,
    logLevel: "warn",
    build: {
      ssr: true,
      outDir: TEST_WORKER_DIR,
      emptyOutDir: true,
      target: "node20",
      sourcemap: true,
      rolldownOptions: {
        input: {
          ...WORKER_ENTRIES,
        },
        output: { chunkFileNames: "[name]-[hash].js" },
      },
    },
  });
}
