import { devices } from "@playwright/test";
import { recordNativeShares, sharedData } from "./helpers";
import { axeViolations, expect, logIn, sitemapPresentationUrls, test, waitForHydration } from "./support";

test.describe("breakpoints (spec §9: 434, 768, 992, 1200; mobile below 768)", () => {
  for (const width of [360, 768, 1024, 1440]) {
    test(`R2.33 the view page lays out at ${width} px without sideways scrolling`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      const urls = await sitemapPresentationUrls(page);
      await page.goto(urls.find((u) => u.includes("colour-theory")) ?? urls[0] ?? "/");
      await waitForHydration(page);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      const sidebesideMain = await page.evaluate(() => {
        const main = document.querySelector(".view-page__main")?.getBoundingClientRect();
        const side = document.querySelector(".sidebar")?.getBoundingClientRect();
        return main && side ? side.left >= main.right : null;
      });
      // From 992 px the sidebar sits beside the presentation; below, under it.
      expect(sidebesideMain).toBe(width >= 992);
      await page.screenshot({ path: `e2e/screenshots/view-page-${width}.png` });
      expect(await axeViolations(page)).toEqual([]);
    });
  }
});

test.describe("on a phone", () => {
  const { viewport, userAgent, deviceScaleFactor, isMobile, hasTouch } = devices["Pixel 7"];
  test.use({ viewport, userAgent, deviceScaleFactor, isMobile, hasTouch });

  test("R2.17 R6.3 R7.10 logged out: one call to action, no copy button; share uses the phone's share sheet", async ({
    page,
  }) => {
    await recordNativeShares(page);
    const urls = await sitemapPresentationUrls(page);
    const url = urls.find((u) => u.includes("sourdough")) ?? "";
    await page.goto(url);
    await waitForHydration(page);
    const right = page.locator(".toolbar__group--right");
    await expect(right.getByRole("link")).toHaveCount(1);
    await expect(right.getByRole("link", { name: "Get started" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Make a copy" })).toHaveCount(0);
    expect(await axeViolations(page)).toEqual([]);
  });

  test("R7.10 signed in on a phone, Share opens the native share sheet with the title and URL", async ({ page }) => {
    await recordNativeShares(page);
    await logIn(page, "alan@podium.test");
    const urls = await sitemapPresentationUrls(page);
    const url = urls.find((u) => u.includes("sourdough")) ?? "";
    await page.goto(url);
    await waitForHydration(page);
    await page.getByRole("button", { name: "Share" }).click();
    await expect.poll(() => sharedData(page)).toEqual([{ title: "Sourdough Basics", url }]);
    await expect(page.getByRole("dialog", { name: "Share" })).toBeHidden();
    await expect(page.getByRole("button", { name: "Make a copy" })).toHaveCount(0);
  });
});

test("R6.6 curation sends the admin-tools events: hidden-tags-loaded, invoke and reinitialize", async ({ page }) => {
  await logIn(page, "ada@podium.test");
  await page.addInitScript(() => {
    const seen: { type: string; detail: unknown }[] = [];
    (window as unknown as { __adminEvents: unknown[] }).__adminEvents = seen;
    for (const type of ["invoke", "reinitialize", "hidden-tags-loaded"]) {
      window.addEventListener(`podium:admin-tools:${type}`, (event) =>
        seen.push({ type, detail: (event as CustomEvent).detail }),
      );
    }
  });
  const urls = await sitemapPresentationUrls(page);
  await page.goto(urls.find((u) => u.includes("music-theory") || u.includes("circle-of-fifths")) ?? "");
  await waitForHydration(page);
  await page.getByRole("link", { name: "Curate" }).click();
  await waitForHydration(page);
  await expect
    .poll(() =>
      page.evaluate(() =>
        (window as unknown as { __adminEvents: { type: string }[] }).__adminEvents.map((e) => e.type),
      ),
    )
    .toContain("hidden-tags-loaded");
  expect(await axeViolations(page)).toEqual([]);
  await page.getByLabel(/Hidden tags/).fill("music, theory");
  await page.getByRole("button", { name: "Save curation" }).click();
  await expect(page.getByText("Curation saved.")).toBeVisible();
  await waitForHydration(page);
  const events = await page.evaluate(
    () => (window as unknown as { __adminEvents: { type: string; detail: unknown }[] }).__adminEvents,
  );
  expect(events.find((e) => e.type === "reinitialize")?.detail).toMatchObject({
    oid: expect.stringMatching(/^[a-z0-9]{12}$/),
    title: expect.any(String),
  });
  expect(events.find((e) => e.type === "hidden-tags-loaded")?.detail).toEqual({ hasTags: true });
});
