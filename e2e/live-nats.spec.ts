import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import pg from "pg";
import { postJsonDeck, titleSlidesDeck } from "./helpers";
import { workerPort } from "./ports";
import { axeViolations, expect, spawnServer, test, waitForHydration, withoutWorkerServer } from "./support";

/**
 * Issue 35 "Done when": two Podium processes on one PostgreSQL database and NATS; the presenter on
 * one, followers on the other. Every change of the session crosses core NATS
 * (`podium.live.<sessionId>`): nothing else connects the two processes' event streams.
 */

const DATABASE_URL = process.env.TEST_DATABASE_URL;
const NATS_URL = process.env.TEST_NATS_URL ?? "nats://127.0.0.1:4222";
/** Offsets 0 and 1 of the worker's block (e2e/ports.ts; shared with many-processes, one test at a time). */
const A_PORT = 0;
const B_PORT = 1;
const STARTUP_TIMEOUT_MS = 120_000;

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function start(port: number, env: Record<string, string>): Run {
  return spawnServer({
    PODIUM_LOG: "off",
    HOST: "127.0.0.1",
    PORT: String(port),
    PODIUM_WORKERS: "1",
    PODIUM_PUBLIC_URL: `http://127.0.0.1:${port}`,
    ...env,
  });
}

const DECK = titleSlidesDeck(["Tide Pools", "Who lives there", "Read the tide table"]);

async function logInAndImport(page: Page): Promise<string> {
  await page.goto("/login/");
  await page.getByLabel("Email").fill("tim@podium.test");
  await page.getByLabel("Password").fill("podium-demo");
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/dashboard/);
  return postJsonDeck(page, "live.json", DECK, { privacy: "private" });
}

withoutWorkerServer();

test.describe("issue 35: a live session across two processes over NATS", () => {
  test.skip(!DATABASE_URL, "needs TEST_DATABASE_URL (CI sets it)");
  test.setTimeout(300_000);

  test("issue 35: the presenter on one process, a follower on the other: steps, questions, answers and the end cross NATS", async ({
    browser,
  }) => {
    const name = `podium_e2e_${randomBytes(5).toString("hex")}`;
    const admin = new pg.Client({ connectionString: String(DATABASE_URL) });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(String(DATABASE_URL));
    url.pathname = `/${name}`;
    const env = {
      DATABASE_URL: url.toString(),
      NATS_URL,
      PODIUM_EVENT_STREAM: `PODIUM_E2E_${randomBytes(5).toString("hex")}`,
    };
    const [aPort, bPort] = [workerPort(A_PORT), workerPort(B_PORT)];
    const runs: Run[] = [];
    try {
      // One after the other: the first migrates and seeds.
      for (const port of [aPort, bPort]) {
        const run = start(port, env);
        runs.push(run);
        await expect
          .poll(() => (run.child.exitCode === null ? run.output() : `exited: ${run.output()}`), {
            timeout: STARTUP_TIMEOUT_MS,
          })
          .toContain("podium: serving");
      }
      const a = `http://127.0.0.1:${aPort}`;
      const b = `http://127.0.0.1:${bPort}`;

      const presenterContext = await browser.newContext({ baseURL: a });
      await presenterContext.addCookies([{ name: "podium_cookie_consent", value: "necessary", url: a }]);
      const presenter = await presenterContext.newPage();
      const oid = await logInAndImport(presenter);
      await presenter.goto(`/p/presenter/${oid}/`);
      await waitForHydration(presenter);
      await expect(presenter.locator(".presenter")).toHaveAttribute("data-load-status", "ready");
      await presenter.getByRole("button", { name: "Go live" }).click();
      const code = ((await presenter.getByTestId("live-code").textContent()) ?? "").replace(" ", "");
      expect(code).toMatch(/^[2-9A-Z]{8}$/);

      // The follower reaches process B.
      const followerContext = await browser.newContext({ baseURL: b });
      await followerContext.addCookies([{ name: "podium_cookie_consent", value: "necessary", url: b }]);
      const follower = await followerContext.newPage();
      const problems: string[] = [];
      follower.on("console", (message) => {
        if (message.type() === "error") problems.push(message.text());
      });
      await follower.goto(`/live/${code}`);
      await waitForHydration(follower);
      const viewer = follower.locator(".viewer");
      await expect(viewer).toHaveAttribute("data-current-step", "1");

      // A step change on A reaches B.
      await presenter.keyboard.press("ArrowRight");
      await expect(viewer).toHaveAttribute("data-current-step", "2");
      await presenter.keyboard.press("ArrowRight");
      await expect(viewer).toHaveAttribute("data-current-step", "3");

      // A question asked on B reaches the presenter on A; marking it answered on A reaches B.
      await follower.getByLabel("Your question").fill("Does it cross processes?");
      await follower.getByRole("button", { name: "Ask" }).click();
      const asked = presenter.locator(".live-panel__question").filter({ hasText: "Does it cross processes?" });
      await expect(asked).toBeVisible();
      await asked.getByRole("button", { name: "Mark answered" }).click();
      await expect(follower.locator(".live-question").filter({ hasText: "Does it cross processes?" })).toContainText(
        "Answered",
      );
      // A reaction on B bursts on A.
      await follower.getByRole("button", { name: "Love it" }).click();
      await expect(presenter.locator('.live-burst[data-reaction="heart"]')).toBeVisible();
      expect(await axeViolations(follower)).toEqual([]);

      // The end, said on A, frees the follower on B.
      await presenter.getByRole("button", { name: "End session" }).click();
      await expect(follower.locator(".live-follow")).toHaveAttribute("data-live-ended", "true");
      expect(problems).toEqual([]);
      await presenterContext.close();
      await followerContext.close();
    } finally {
      for (const run of runs) {
        if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill("SIGTERM");
        await run.exited;
      }
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
