import { openAt } from "./helpers";
import { axeViolations, expect, test, waitForHydration } from "./support";

test.describe("issue 12: home and explore", () => {
  for (const width of [375, 1440]) {
    test(`issue 12 R2.4 at ${width} px: home searches; cards show views, likes and date under a two-line title with the whole title at hand`, async ({
      page,
    }) => {
      await openAt(page, "/", { width, height: 900 });
      const cards = page.getByRole("list", { name: "Recently updated" }).getByRole("link");
      const first = cards.first();
      await expect(first.locator(".card__facts")).toContainText(/\d+ likes?/);
      // This year's date without its year (issue 28: the facts fit one line); the machine-readable date is whole.
      await expect(first.locator(".card__facts time")).toHaveText(/^[A-Z][a-z]{2} \d{1,2}(, \d{4})?$/);
      await expect(first.locator(".card__facts time")).toHaveAttribute("datetime", /^\d{4}-\d{2}-\d{2}/);
      // Long titles: two lines at most below the thumbnail, the whole title in the link's tooltip.
      for (const card of await cards.all()) {
        const title = card.locator(".card__title");
        const lines = await title.evaluate(
          (el) => el.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(el).lineHeight),
        );
        expect(lines).toBeLessThanOrEqual(2.05);
        await expect(card).toHaveAttribute("title", (await title.textContent()) ?? "");
        // Issue 28: views, likes and date on one line (the date wrapped to a line of its own, starting "·").
        const tops = await card
          .locator(".card__facts > span")
          .evaluateAll((spans) => spans.map((span) => Math.round(span.getBoundingClientRect().top)));
        expect(new Set(tops).size, `facts on one line: ${tops.join(", ")}`).toBeLessThanOrEqual(1);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `e2e/screenshots/home-cards-${width}.png` });

      await page.getByRole("searchbox", { name: "Search presentations" }).fill("sourdough");
      await page.getByRole("searchbox", { name: "Search presentations" }).press("Enter");
      await expect(page).toHaveURL(/\/explore\/search\/\?search=sourdough$/);
      await waitForHydration(page);
      await expect(page.getByRole("link", { name: /Sourdough Basics/ }).first()).toBeVisible();
    });
  }

  test("issue 12 explore's Most watched cards say how many watched, in the visitor's number format", async ({
    page,
  }) => {
    await page.goto("/explore/");
    await waitForHydration(page);
    const popular = page.locator(".card-grid").first().locator(".card__facts").first();
    await expect(popular).toContainText(/\d+(\.\d)?K views/);
    expect(await axeViolations(page)).toEqual([]);
  });
});
