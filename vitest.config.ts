import { availableParallelism } from "node:os";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

// Issue 29: sign-ups and logins in tests hash with scrypt's N = 2^10 instead of 2^17 (accounts/password.ts;
// password.test.ts proves the full cost is the default). The global setup's seeded databases too.
process.env.PODIUM_TEST_PASSWORD_HASH_COST ??= "10";

const TEST_FILES = ["src/**/*.test.{ts,tsx}", "scripts/**/*.test.ts"];

/**
 * Test files that start from nothing (a fresh module registry): those that mock modules
 * (`vi.mock` stays in the process it ran in), the PGlite thread's own statements (module state in
 * its worker), and a check of how time grows with input size (measured best on a fresh start).
 */
export const ISOLATED_FILES = [
  "src/i18n/compiled-messages.test.ts",
  "src/features/accounts/password.test.ts",
  "src/features/accounts/signup-races.test.ts",
  "src/server/plugins/request-limit.test.ts",
  "src/features/presentation/components/pages.test.tsx",
  "src/features/view-page/components/view-page.test.tsx",
  "src/features/explore/components/header.test.tsx",
  "src/db/prepared.test.ts",
  "src/document/markdown.test.ts",
];

export default defineConfig({
  plugins: [react()],
  test: {
    environment: "node",
    // Dates must not depend on the machine's zone: tests run far from UTC so zone bugs show.
    env: { TZ: "Pacific/Auckland" },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Issue 29: a test file per core. Vitest's default leaves a core to its main process, which on
    // this 2-core machine ran the files one at a time; the main process mostly waits for reports.
    maxWorkers: Number(process.env.VITEST_WORKERS ?? availableParallelism()),
    // Builds the document worker once per run (route tests parse imports in worker threads), and
    // prepares the databases test databases copy (issue 29: no migrations or seeding per test database).
    setupFiles: ["src/ui/testing/dom-setup.ts"],
    globalSetup: ["src/server/testing/build-workers.ts", "src/server/testing/templates.ts"],
    // Issue 29: a test file's imports (Fastify, React, the app, PGlite) took about as long as its
    // tests when each file started from nothing. Files share a process's loaded modules, except
    // those that replace modules (vi.mock) or keep state of their own in a module, which still
    // start from nothing.
    projects: [
      { extends: true, test: { name: "shared", isolate: false, include: TEST_FILES, exclude: ISOLATED_FILES } },
      { extends: true, test: { name: "isolated", isolate: true, include: ISOLATED_FILES } },
    ],
  },
});
