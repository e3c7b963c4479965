import type { Page } from "@playwright/test";
import { axeViolations, expect, sitemapPresentationUrls, test, waitForHydration } from "./support";

/** The path of the first deck the sitemap lists. */
async function firstDeckPath(page: Page) {
  const [url] = await sitemapPresentationUrls(page);
  return new URL(url ?? "").pathname;
}

test.describe("R4.1 the fallback preview", () => {
  test("R4.1 when the preview fails, the player shows the fallback image (the thumbnail without its images)", async ({
    page,
    consoleProblems,
  }) => {
    const path = await firstDeckPath(page);
    // The preview fails (as a broken image service would): 404 for thumbnail.svg only.
    await page.route(/\/thumbnail\.svg$/, (route) => route.fulfill({ status: 404, body: "" }));
    await page.goto(path);
    await waitForHydration(page);
    const player = page.locator(".player").first();
    await expect(player).toHaveAttribute("data-preview-state", "fallback");
    const preview = page.locator(".overlay__preview").first();
    await expect(preview).toBeVisible();
    await expect(preview).toHaveAttribute("src", /\/thumbnail-plain\.svg$/);
    await expect
      .poll(() =>
        preview.evaluate((image) => (image as HTMLImageElement).complete && (image as HTMLImageElement).naturalWidth),
      )
      .toBeGreaterThan(0);
    await player.screenshot({ path: "e2e/screenshots/fallback-preview.png" });
    expect(await axeViolations(page)).toEqual([]);
    // The failed preview's 404 is what this test makes happen: not a problem of the page.
    for (let at = consoleProblems.findIndex((p) => p.includes("status of 404")); at >= 0; ) {
      consoleProblems.splice(at, 1);
      at = consoleProblems.findIndex((p) => p.includes("status of 404"));
    }
  });

  test("R4.1 issue 28: when the fallback fails too, the player asks for each image once and the page goes idle", async ({
    page,
    consoleProblems,
  }) => {
    const path = await firstDeckPath(page);
    const html = await (await page.request.get(path)).text();
    const previewUrl = /"previewUrl":"([^"]+)"/.exec(html)?.[1];
    const fallbackUrl = /"fallbackPreviewUrl":"([^"]+)"/.exec(html)?.[1];
    expect(previewUrl).toBeTruthy();
    expect(fallbackUrl).toBeTruthy();
    const asked = { preview: 0, fallback: 0 };
    // Every thumbnail fails (the cards' too); the player's own two are counted.
    await page.route(/\/thumbnail(-plain)?\.svg$/, (route) => {
      const asks = new URL(route.request().url()).pathname;
      if (asks === fallbackUrl) asked.fallback += 1;
      if (asks === previewUrl) asked.preview += 1;
      return route.fulfill({ status: 404, body: "" });
    });
    await page.goto(path);
    await waitForHydration(page);
    await expect(page.locator(".player").first()).toHaveAttribute("data-preview-state", "none");
    // With the loop, images were asked for without end and the network never went quiet.
    await page.waitForLoadState("networkidle");
    expect(asked).toEqual({ preview: 1, fallback: 1 });
    await expect(page.locator(".overlay__preview").first()).toBeHidden();
    for (let at = consoleProblems.findIndex((p) => p.includes("status of 404")); at >= 0; ) {
      consoleProblems.splice(at, 1);
      at = consoleProblems.findIndex((p) => p.includes("status of 404"));
    }
  });

  test("R4.1 the server sends a real fallback preview URL, and it answers with an SVG", async ({ page }) => {
    const html = await (await page.request.get(await firstDeckPath(page))).text();
    const fallback = /"fallbackPreviewUrl":"([^"]+)"/.exec(html)?.[1];
    expect(fallback).toMatch(/^\/p\/[a-z0-9]{12}\/thumbnail-plain\.svg$/);
    const response = await page.request.get(fallback ?? "");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("image/svg+xml");
    expect(await response.text()).toContain("<svg");
  });
});
