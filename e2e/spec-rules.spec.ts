import type { ChildProcess } from "node:child_process";
import { chromium, type Page } from "@playwright/test";
import { CHROMIUM_PATH } from "../playwright.config";
import { freePort, spawnWithOutput } from "../src/server/testing/child-output";
import { openDeck } from "./helpers";
import { axeViolations, expect, logIn, recordUsageEvents, test, waitForHydration } from "./support";

/**
 * Issue 13: spec rules an independent check found broken, each as a visitor meets it in Chromium.
 */

interface PostedEvent {
  core: { type: string; event_source: string; schema_id: number; event_type: string };
  body: { event_name: string } & Record<string, unknown>;
}

/**
 * The usage events the page POSTs: each beacon's body as the page hands it to navigator.sendBeacon
 * (recordUsageEvents; Chromium doesn't show a beacon's Blob body to Playwright), and the count of
 * POSTs to /log/json that reached the network.
 */
async function capturePostedEvents(page: Page): Promise<{ posts: () => number }> {
  await recordUsageEvents(page);
  let posts = 0;
  page.context().on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === "/log/json") posts += 1;
  });
  return { posts: () => posts };
}

/** Waits until the page has sent a usage event with this name, and returns it whole. */
async function posted(page: Page, name: string): Promise<PostedEvent> {
  const handle = await page.waitForFunction(
    (eventName) =>
      (window as unknown as { __podiumEvents?: PostedEvent[] }).__podiumEvents?.find(
        (event) => event.body.event_name === eventName,
      ),
    name,
  );
  return (await handle.jsonValue()) as PostedEvent;
}

async function sentEvents(page: Page): Promise<PostedEvent[]> {
  return page.evaluate(() => (window as unknown as { __podiumEvents: PostedEvent[] }).__podiumEvents);
}

test.describe("issue 13: the spec's remaining rules", () => {
  test("R3.9 the page's events go as Analytics/Js, the player's as Analytics/Webgl, the video pages' as the video family", async ({
    page,
  }) => {
    const network = await capturePostedEvents(page);
    await openDeck(page, "sourdough-basics");
    const loaded = await posted(page, "loaded_public_view_page");
    expect(loaded.core).toMatchObject({ type: "Analytics", event_source: "Js", event_type: "loaded_public_view_page" });

    await page.getByRole("button", { name: "Present" }).click();
    const player = page.locator(".player");
    await expect(player).toHaveAttribute("data-player-state", "playing");
    const started = await posted(page, "presentation_started");
    expect(started.core).toMatchObject({ type: "Analytics", event_source: "Webgl", schema_id: 1 });
    expect(started.body.oid).toBe(loaded.body.oid);
    await page.keyboard.press("End");
    await page.keyboard.press("ArrowRight");
    await expect(player).toHaveAttribute("data-player-state", "restart");
    expect((await posted(page, "presentation_ended")).core.event_source).toBe("Webgl");
    await page.getByRole("button", { name: "Restart" }).click();
    expect((await posted(page, "presentation_restarted")).core.event_source).toBe("Webgl");
    // The page's own events stay Analytics/Js.
    // (Issue 33: the player's own step reports, sent every few seconds, are of the player's family too.)
    expect(
      (await sentEvents(page))
        .filter((event) => event.core.event_source === "Webgl")
        .map((e) => e.body.event_name)
        .filter((name) => name !== "step_engagement"),
    ).toEqual(["presentation_started", "presentation_ended", "presentation_restarted"]);

    // The video product's pages: See more videos and the banner's Learn more.
    for (const [path, pageName] of [
      ["/video/explore/", "videos"],
      ["/video", "video"],
    ] as const) {
      await page.goto(path);
      await waitForHydration(page);
      const video = await posted(page, "loaded_video_page");
      expect(video.core).toMatchObject({ type: "Video", event_source: "VideoWeb", event_type: "loaded_video_page" });
      expect(video.body.page).toBe(pageName);
      expect((await sentEvents(page)).every((event) => event.core.type === "Video")).toBe(true);
    }
    // They went over the network as beacons to /log/json.
    expect(network.posts()).toBeGreaterThanOrEqual(6);
  });

  test("R3.10 the bottom band's CTA logs the text of the button the visitor clicked", async ({ page }) => {
    await capturePostedEvents(page);
    await openDeck(page, "sourdough-basics");
    // The band's button leads to / once its log settles; the test keeps this page to read what it sent.
    await page.route(
      (url) => url.pathname === "/",
      (route) => route.fulfill({ status: 204 }),
    );
    const band = page.getByRole("region", { name: "Make presentations people remember" });
    const button = band.getByRole("link", { name: "Learn about Podium" });
    await button.scrollIntoViewIfNeeded();
    const navigation = page.waitForRequest((request) => new URL(request.url()).pathname === "/");
    await button.click();
    await navigation;
    const cta = await posted(page, "cta_clicked");
    expect(cta.body).toMatchObject({
      cta_location: "bottom_band",
      cta_text: "Learn about Podium",
      cta_type: "BUTTON",
      target_url: "/",
    });
  });

  test("R8.4 without plural rules the view count reads as a count (not the ICU template), with one console error", async ({
    page,
    consoleProblems,
  }) => {
    await page.addInitScript(() => {
      Reflect.deleteProperty(Intl, "PluralRules");
    });
    const clientLog = page.waitForRequest((request) => new URL(request.url()).pathname === "/log/client");
    await openDeck(page, "sourdough-basics");
    const views = page.locator(".toolbar__views");
    await expect(views).toHaveText(/^\d{1,3}(,\d{3})* views?$/);
    await expect(page.locator("body")).not.toContainText("plural,");
    // The client log hears it too (production mode).
    expect((await clientLog).postDataJSON()[0]).toMatchObject({
      levelname: "ERROR",
      msg: expect.stringContaining("Intl.PluralRules is not available"),
    });
    expect(await axeViolations(page)).toEqual([]);
    // Exactly the one expected error, and nothing else.
    const expected = consoleProblems.filter((problem) => problem.includes("Intl.PluralRules is not available"));
    expect(expected).toHaveLength(1);
    consoleProblems.splice(consoleProblems.indexOf(expected[0] ?? ""), 1);
  });

  test("R9.13 comma (188) adds the typed hidden tag on the curation page; the tags are saved", async ({ page }) => {
    await logIn(page, "ada@podium.test");
    await openDeck(page, "sourdough-basics");
    await page.getByRole("link", { name: "Curate" }).click();
    await waitForHydration(page);
    const field = page.getByLabel(/Hidden tags/);
    await field.pressSequentially("fermentation");
    await field.press(",");
    await expect(field).toHaveValue("");
    const tags = page.locator(".tag-input__tags");
    await expect(tags.getByText("fermentation", { exact: true })).toBeVisible();
    await field.pressSequentially("weekend bakes,");
    await expect(field).toHaveValue("");
    await expect(page.getByRole("button", { name: "Remove tag weekend bakes" })).toBeVisible();
    // Keyboard only: the remove button is reachable and visibly focused.
    await field.press("Shift+Tab");
    await expect(page.getByRole("button", { name: "Remove tag weekend bakes" })).toBeFocused();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: "e2e/screenshots/curation-tags.png" });
    await page.getByRole("button", { name: "Save curation" }).click();
    await expect(page.getByText("Curation saved.")).toBeVisible();
    await waitForHydration(page);
    await expect(page.getByRole("button", { name: "Remove tag fermentation" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Remove tag weekend bakes" })).toBeVisible();
  });
});

/** The built server on its own port, in an environment, reached at http://podium.test:{port}. */
async function startServer(env: string): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const { child, output } = spawnWithOutput(["dist/server/main.js"], {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    PODIUM_ENV: env,
    PODIUM_PUBLIC_URL: `http://podium.test:${port}`,
    PODIUM_DATA_DIR: "memory://",
    PODIUM_SEED: "off",
    PODIUM_LOG: "off",
    PODIUM_COOKIE_CONSENT: "not-required",
  });
  await expect.poll(output, { timeout: 60_000 }).toContain("podium: serving");
  return { port, child };
}

test("R9.12 the usage cookie's domain follows the environment: the production domain, host-only on local", async () => {
  test.setTimeout(120_000);
  // Issue 29 item 4: the two servers start side by side.
  const [production, local] = await Promise.all([startServer("production"), startServer("local")]);
  // Chromium resolves podium.test and its hosts to this machine, as DNS would for a real domain.
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--host-resolver-rules=MAP podium.test 127.0.0.1, MAP *.podium.test 127.0.0.1",
    ],
  });
  try {
    const usageCookie = async (url: string) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(url);
      await waitForHydration(page);
      // The video page's first event makes the usage session, and its cookie.
      await expect
        .poll(async () => (await context.cookies()).find((cookie) => cookie.name === "podium_usage_session"))
        .toBeTruthy();
      const cookie = (await context.cookies()).find((c) => c.name === "podium_usage_session");
      await context.close();
      return cookie;
    };
    // Production: the production domain, so every host of it shares the session.
    const shared = await usageCookie(`http://www.podium.test:${production.port}/video`);
    expect(shared?.domain).toBe(".podium.test");
    expect(shared?.expires).toBeGreaterThan(Date.now() / 1000 + 29 * 60);
    // Local: a host-only cookie (no domain attribute).
    const hostOnly = await usageCookie(`http://www.podium.test:${local.port}/video`);
    expect(hostOnly?.domain).toBe("www.podium.test");
  } finally {
    await browser.close();
    for (const server of [production, local]) server.child.kill("SIGTERM");
  }
});

test.describe("issue 14 item 7: found by an independent check of the spec", () => {
  test("issue 14 item 7 close_modal is sent once per modal close (close button, Escape)", async ({ page }) => {
    await capturePostedEvents(page);
    await openDeck(page, "sourdough-basics");
    await posted(page, "loaded_public_view_page");
    const closes = async (modal: string) =>
      (await sentEvents(page)).filter((e) => e.body.event_name === "close_modal" && e.body.modal === modal).length;
    /** Waits for the nth show_modal of a modal: everything sent before it has been recorded. */
    const shown = (modal: string, n: number) =>
      page.waitForFunction(
        ([name, count]) =>
          (window as unknown as { __podiumEvents: PostedEvent[] }).__podiumEvents.filter(
            (e) => e.body.event_name === "show_modal" && e.body.modal === name,
          ).length === count,
        [modal, n] as const,
      );

    await page.getByRole("button", { name: "Embed" }).click();
    const embed = page.getByRole("dialog", { name: "Embed" });
    await expect(embed).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await embed.getByRole("button", { name: "Close" }).click();
    await expect(embed).toBeHidden();
    // The next event the page sends comes after any second close_modal would have.
    await page.getByRole("button", { name: "Share" }).click();
    await shown("share", 1);
    expect(await closes("embed")).toBe(1);

    const share = page.getByRole("dialog", { name: "Share" });
    await expect(share).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(share).toBeHidden();
    await page.getByRole("button", { name: "Embed" }).click();
    await shown("embed", 2);
    expect(await closes("share")).toBe(1);
    await page.screenshot({ path: "e2e/screenshots/issue14-modal-closed-once.png" });
  });
});
