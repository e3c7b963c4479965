import type { Page } from "@playwright/test";
import { APP_STORE, axeViolations, expect, PLAY_STORE, signInCookies, test, waitForHydration } from "./support";

/**
 * A server of its own (the built one, started by the `promoServer` fixture in e2e/support.ts,
 * once per worker and shared with e2e/restart-promo.spec.ts) for what the worker's e2e server
 * can't show: pre-production (R7.3), a configured pair of native apps (R2.26) and the restart
 * overlay's promotional variant behind its flag (R2.29).
 */

function likeButton(page: Page) {
  return page.getByRole("button", { name: /^Like \d/ });
}

async function likeCount(page: Page): Promise<number> {
  return Number((await page.locator(".like-button__count").first().innerText()).replace(/\D/g, ""));
}

test.describe("a pre-production server with both native apps and the restart promo on", () => {
  test.use({ baseURL: async ({ promoServer }, use) => use(promoServer.origin) });
  let port = 0;
  let origin = "";
  test.beforeEach(({ promoServer }) => {
    port = promoServer.port;
    origin = promoServer.origin;
  });

  /** Signs in on the plain address (cookies belong to the host, whatever the address carries), without the form. */
  async function signIn(page: Page) {
    await page.context().clearCookies();
    await page.context().addCookies([{ name: "podium_cookie_consent", value: "necessary", url: origin }]);
    await signInCookies(page, "tim@podium.test", origin);
  }

  async function firstViewPath(page: Page): Promise<string> {
    const xml = await (await page.request.get(`${origin}/sitemap.xml`)).text();
    return new URL(/<loc>([^<]+\/p\/[^<]+)<\/loc>/.exec(xml)?.[1] ?? "").pathname;
  }

  test("R7.3 Like on http://qa:secret@host/… sends Basic authorization to an address without credentials, and succeeds", async ({
    page,
  }) => {
    await signIn(page);
    const path = await firstViewPath(page);
    await page.goto(`http://qa:secret@127.0.0.1:${port}${path}`);
    expect(await page.evaluate(() => document.URL)).toContain("qa:secret@");
    await waitForHydration(page);

    const button = likeButton(page);
    const pressed = await button.getAttribute("aria-pressed");
    const before = await likeCount(page);
    const call = page.waitForRequest((request) => /\/api\/v4\/presentation\/[a-z0-9]{12}\/like\/$/.test(request.url()));
    await button.click();
    const request = await call;
    expect(request.method()).toBe(pressed === "true" ? "DELETE" : "PUT");
    expect(request.url()).toBe(`${origin}/api/v4/presentation/${path.split("/")[2]}/like/`);
    expect(await request.headerValue("authorization")).toBe("Basic cWE6c2VjcmV0");
    expect((await request.response())?.status()).toBeLessThan(300);
    await expect(button).toHaveAttribute("aria-pressed", pressed === "true" ? "false" : "true");
    expect(await likeCount(page)).toBe(pressed === "true" ? before - 1 : before + 1);
  });

  test("R2.26 signed in, the header shows the iPhone and the Android badge; each tries its app, then its store after 300 ms", async ({
    page,
  }) => {
    await signIn(page);
    const path = await firstViewPath(page);
    // The stores are outside Podium: answer for them here, and note when each is asked for.
    const storeVisits: { url: string; at: number }[] = [];
    await page.context().route(/^https:\/\/(apps|play)\.example\//, (route) => {
      storeVisits.push({ url: route.request().url(), at: Date.now() });
      return route.fulfill({ contentType: "text/html", body: "<title>Store</title><p>Store</p>" });
    });
    await page.goto(`${origin}${path}`);
    await waitForHydration(page);
    const badges = page.getByRole("group", { name: "Podium has apps for iPhone and Android." });
    await expect(badges.getByRole("button")).toHaveText(["Open in the iPhone app", "Open in the Android app"]);
    await page.locator(".native-app").screenshot({ path: "e2e/screenshots/native-app-badges.png" });
    expect(await axeViolations(page)).toEqual([]);
    // Each badge in a tab of its own (a tab that has tried an app protocol keeps Chromium's prompt for it).
    for (const [name, store] of [
      ["Open in the iPhone app", APP_STORE],
      ["Open in the Android app", PLAY_STORE],
    ] as const) {
      const tab = await page.context().newPage();
      const problems: string[] = [];
      tab.on("console", (message) => {
        if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
      });
      await tab.goto(`${origin}${path}`);
      await waitForHydration(tab);
      const badge = tab
        .getByRole("group", { name: "Podium has apps for iPhone and Android." })
        .getByRole("button", { name });
      await badge.focus();
      const clickedAt = Date.now();
      await tab.keyboard.press("Enter");
      await expect.poll(() => storeVisits.find((visit) => visit.url.startsWith(store))).toBeTruthy();
      const visit = storeVisits.find((v) => v.url.startsWith(store));
      expect((visit?.at ?? 0) - clickedAt).toBeGreaterThanOrEqual(300);
      await expect(tab).toHaveURL(store);
      expect(problems).toEqual([]);
      await tab.close();
    }
  });

  test("R2.29 with its flag on, the restart overlay shows the promotional video ad and a get-the-product link", async ({
    page,
  }) => {
    await page.context().addCookies([{ name: "podium_cookie_consent", value: "necessary", url: origin }]);
    const path = await firstViewPath(page);
    await page.goto(`${origin}${path}`);
    await waitForHydration(page);
    await page.getByRole("button", { name: "Present" }).click();
    const player = page.locator(".player").first();
    await expect(player).toHaveAttribute("data-player-state", "playing");
    await page.keyboard.press("End");
    const total = await page.locator(".viewer").getAttribute("data-step-count");
    await expect(page.locator(".viewer")).toHaveAttribute("data-current-step", total ?? "");
    await page.keyboard.press("ArrowRight");
    await expect(player).toHaveAttribute("data-player-state", "restart");
    await expect(page.getByRole("button", { name: "Restart" })).toBeFocused();
    // The ad: drawn here (no network, no audio), named for screen readers; then the call to action.
    await expect(player.getByRole("img", { name: /^Podium promo: / })).toBeVisible();
    await expect(player.getByText("Your next talk, on one open canvas")).toBeVisible();
    const cta = player.getByRole("link", { name: "Get Podium" });
    await expect(cta).toHaveAttribute("href", "/product/");
    await expect(player.getByRole("link", { name: "Learn about Podium" })).toHaveCount(0);
    // Keyboard: Tab from Restart reaches the call to action.
    await page.keyboard.press("Tab");
    await expect(cta).toBeFocused();
    await page.waitForFunction(() =>
      (document.querySelector(".restart-promo")?.getAnimations({ subtree: true }) ?? []).every(
        (animation) => animation.playState === "finished",
      ),
    );
    await player.screenshot({ path: "e2e/screenshots/restart-promo.png" });
    expect(await axeViolations(page)).toEqual([]);
  });
});
