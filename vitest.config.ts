import { availableParallelism } from "node:os";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

// Issue 29: sign-ups and logins in tests hash with scrypt's N = 2^10 instead of 2^17 (accounts/password.ts;
// password.test.ts proves the full cost is the default). The global setup's seeded databases too.
process.env.PODIUM_TEST_PASSWORD_HASH_COST ??= "10";

export default defineConfig({
  plugins: [react()],
  test: {
    include: ["src/**/*.test.{ts,tsx}", "scripts/**/*.test.ts"],
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
  },
});
