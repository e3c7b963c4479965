import { WORKER_ENTRIES } from "../workers/entries";

/**
 * Builds the server the way `npm run build` does (vite.config.ts), from the sources under test,
 * into `outDir`: its worker entries, and (`withMain`) src/server/main.ts; or only the modules
 * `input` names (name → source path: `outDir/{name}.js`). Shared by the process tests and the
 * tests' global setup (issue 31: each wrote the build out).
 */
export async function buildServer(
  outDir: string,
  { withMain = true, sourcemap = false, input = undefined as Record<string, string> | undefined } = {},
): Promise<void> {
  const { build } = await import("vite");
  await build({
    configFile: false,
    logLevel: "warn",
    // JSX as `npm run build` makes it: the processes run with NODE_ENV=production, where
    // react/jsx-dev-runtime (what Vitest's NODE_ENV=test would pick) has no jsxDEV to call.
    oxc: { jsx: { development: false } },
    build: {
      ssr: true,
      outDir,
      emptyOutDir: true,
      target: "node20",
      sourcemap,
      rolldownOptions: {
        input: input ?? (withMain ? { main: "src/server/main.ts", ...WORKER_ENTRIES } : { ...WORKER_ENTRIES }),
        output: { chunkFileNames: "[name]-[hash].js" },
      },
    },
  });
}
