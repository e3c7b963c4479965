import { defineConfig } from "@playwright/test";

/** Where the e2e server listens (a port of its own, so a running `npm start` doesn't clash). */
const PORT = Number(process.env.E2E_PORT ?? 3310);
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * End-to-end tests drive Debian's Chromium through Playwright (no browser download) against
 * the built server on an in-memory database seeded with the demo content. No retries: a
 * flaky test is a bug to fix.
 */
export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: true,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: "reports/e2e.json" }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    browserName: "chromium",
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  webServer: {
    command: "node dist/server/main.js",
    url: `http://127.0.0.1:${PORT}/healthz`,
    reuseExistingServer: false,
    // The build seeds the demo content first: a busy machine needs more than a minute.
    timeout: 180_000,
    env: {
      PORT: String(PORT),
      HOST: "127.0.0.1",
      PODIUM_DATA_DIR: "memory://",
      PODIUM_PUBLIC_URL: `http://127.0.0.1:${PORT}`,
      PODIUM_LOG: "off",
      // Every e2e test comes from one address; keep the throttles out of their way.
      PODIUM_RATE_LIMIT: "100000",
      PODIUM_SIGNUP_RATE_LIMIT: "1000",
      PODIUM_LOGIN_RATE_LIMIT: "1000",
    },
  },
});
