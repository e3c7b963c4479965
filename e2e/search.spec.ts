import type { Page } from "@playwright/test";
import { openAt } from "./helpers";
import { axeViolations, expect, test, waitForHydration } from "./support";

/** Presses Tab until the focused element matches `selector` (a keyboard user's way there). */
async function tabTo(page: Page, selector: string, most = 60): Promise<void> {
  for (let n = 0; n < most; n += 1) {
    await page.keyboard.press("Tab");
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

/** The focused element shows a focus ring (WCAG 2.4.7): an outline of some width. */
async function focusRingWidth(page: Page): Promise<number> {
  return page.evaluate(() => {
    const element = document.activeElement;
    return element ? Number.parseFloat(getComputedStyle(element).outlineWidth) || 0 : 0;
  });
}

test.describe("issue 15: search results", () => {
  for (const width of [320, 1440]) {
    test(`issue 15 item 3 at ${width} px: highlighted results, type filters with counts, axe clean, no overflow`, async ({
      page,
    }) => {
      await openAt(page, "/explore/search/?search=sourdough", { width, height: 900 });
      const results = page.getByRole("list", { name: "Search results" });
      await expect(results.getByRole("link", { name: /Sourdough Basics/ }).first()).toBeVisible();
      // The matched word is highlighted in the title and in the snippet.
      await expect(results.locator("mark").first()).toHaveText(/sourdough/i);
      const types = page.getByRole("navigation", { name: "Result type" });
      await expect(types.getByRole("link", { name: /^All/ })).toHaveAttribute("aria-current", "page");
      await expect(types.getByRole("link", { name: /^Presentations \d/ })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `e2e/screenshots/search-results-${width}.png`, fullPage: width === 320 });
    });
  }

  test("issue 15 item 3: the filters work by keyboard, with visible focus, and stay in the address", async ({
    page,
  }) => {
    await openAt(page, "/explore/search/?search=pitch", { width: 1440, height: 900 });
    await tabTo(page, '.search-types a[href*="type=template"]');
    expect(await focusRingWidth(page)).toBeGreaterThan(0);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/type=template/);
    await waitForHydration(page);
    const results = page.getByRole("list", { name: "Search results" });
    await expect(results.getByRole("link", { name: /Startup Pitch Deck/ })).toBeVisible();
    await expect(page.getByRole("link", { name: /^Templates/ })).toHaveAttribute("aria-current", "page");

    await tabTo(page, "#search-tag-input");
    expect(await focusRingWidth(page)).toBeGreaterThan(0);
    await page.keyboard.type("startup");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/type=template&tag=startup|tag=startup&type=template/);
    await waitForHydration(page);
    await expect(page.getByText("Only results tagged “startup”.")).toBeVisible();
    await expect(page.getByRole("textbox", { name: "Tag" })).toHaveValue("startup");
    expect(await axeViolations(page)).toEqual([]);
  });

  test('issue 15 item 3: a typo still finds ("sourdoguh" → Sourdough Basics) and says so', async ({ page }) => {
    await page.goto("/explore/search/?search=sourdoguh");
    await waitForHydration(page);
    await expect(page.getByRole("main").getByRole("status")).toContainText("No exact matches for “sourdoguh”");
    await expect(
      page.getByRole("list", { name: "Search results" }).getByRole("link", { name: /Sourdough Basics/ }),
    ).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
  });

  test("issue 28 item 5: a phrase a deck holds is reported as found, alike decks listed apart", async ({ page }) => {
    await page.goto(`/explore/search/?search=${encodeURIComponent("sleep pressure")}`);
    await waitForHydration(page);
    const status = page.getByRole("main").getByRole("status");
    await expect(status).toHaveText("1 result found.");
    const found = page.getByRole("list", { name: "Search results" }).getByRole("link");
    await expect(found).toHaveCount(1);
    await expect(found.first()).toContainText("An Introduction to Sleep Science");
    await expect(found.first().locator("mark").first()).toHaveText(/sleep/i);
    await expect(page.getByRole("heading", { name: "Titles and tags that look like “sleep pressure”" })).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
  });
});
