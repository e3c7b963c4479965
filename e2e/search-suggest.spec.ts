import type { Page } from "@playwright/test";
import { openDeck } from "./helpers";
import { axeViolations, expect, test, waitForHydration } from "./support";

/** Issue 15 item 4: the header's search box offers suggestions as an ARIA combobox (WAI-ARIA 1.2). */

/** Presses Tab until the header's combobox has the focus (keyboard only, as a person would). */
async function tabToSearch(page: Page) {
  const box = page.getByRole("combobox", { name: /Search \d+ presentations/ });
  for (let presses = 0; presses < 15; presses += 1) {
    await page.keyboard.press("Tab");
    if (await box.evaluate((element) => element === document.activeElement)) return box;
  }
  throw new Error("Tab never reached the search box");
}

const noSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

test.describe("issue 15 item 4: search suggestions", () => {
  test("keyboard only at 1600 px: typing opens the list, arrows/Home/End move, Escape closes, Enter opens a title; axe passes", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1600, height: 900 });
    await openDeck(page, "sourdough-basics");
    const box = await tabToSearch(page);
    await expect(box).toHaveAttribute("aria-expanded", "false");
    // It controls the (hidden) listbox.
    const controls = (await box.getAttribute("aria-controls")) ?? "";
    await expect(page.locator(`[id="${controls}"]`)).toHaveAttribute("role", "listbox");
    const listbox = page.getByRole("listbox", { name: "Search suggestions" });

    // Typing asks after a pause; the list opens with the titles whose words start with it.
    await page.keyboard.type("basics");
    await expect(listbox).toBeVisible();
    await expect(box).toHaveAttribute("aria-expanded", "true");
    const options = listbox.getByRole("option");
    await expect(options.filter({ hasText: "Sourdough Basics" })).toHaveCount(1);
    const count = await options.count();
    expect(count).toBeGreaterThanOrEqual(3);
    await expect(listbox.getByRole("group", { name: "Presentations" })).toBeVisible();
    // The count is announced (a live region).
    await expect(page.getByRole("status").filter({ hasText: `${count} suggestions` })).toHaveCount(1);
    // Nothing is active yet: Enter searches for what was typed, as before.
    await expect(box).not.toHaveAttribute("aria-activedescendant", /.+/);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL("/explore/search/?search=basics");
    await waitForHydration(page);

    // On the results page, ↓ opens the list on the first option.
    const results = await tabToSearch(page);
    await expect(results).toHaveValue("basics");
    await page.keyboard.press("ArrowDown");
    const list = page.getByRole("listbox", { name: "Search suggestions" });
    await expect(list).toBeVisible();
    const all = list.getByRole("option");
    const ids = await all.evaluateAll((elements) => elements.map((element) => element.id));
    const activeIs = async (index: number) => {
      await expect(results).toHaveAttribute("aria-activedescendant", ids[index] ?? "?");
      await expect(all.nth(index)).toHaveAttribute("aria-selected", "true");
    };
    await activeIs(0);
    await page.keyboard.press("ArrowDown");
    await activeIs(1);
    await page.keyboard.press("ArrowUp");
    await activeIs(0);
    await page.keyboard.press("ArrowUp");
    await activeIs(ids.length - 1);
    await page.keyboard.press("Home");
    await activeIs(0);
    await page.keyboard.press("End");
    await activeIs(ids.length - 1);
    // The active option is visibly marked.
    const outline = await all.nth(ids.length - 1).evaluate((element) => getComputedStyle(element).outlineStyle);
    expect(outline).toBe("solid");
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: "e2e/screenshots/search-suggest-desktop.png" });

    // Escape closes the list and keeps the text and the focus.
    await page.keyboard.press("Escape");
    await expect(list).toBeHidden();
    await expect(results).toHaveAttribute("aria-expanded", "false");
    await expect(results).not.toHaveAttribute("aria-activedescendant", /.+/);
    await expect(results).toBeFocused();
    await expect(results).toHaveValue("basics");

    // ↓ again, then Enter on the first: its view page.
    await page.keyboard.press("ArrowDown");
    await activeIs(0);
    const title = (await all.nth(0).textContent()) ?? "";
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/p\/[a-z0-9]{12}\/[^/]+\/$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  });

  test("Tab leaves and closes the list; private and unlisted decks are never offered", async ({ page }) => {
    await openDeck(page, "sourdough-basics");
    const box = await tabToSearch(page);
    const answered = page.waitForResponse((response) => response.url().includes("/api/search/suggest?q=lumenly"));
    await page.keyboard.type("lumenly");
    const answer = (await (await answered).json()) as { titles: { title: string }[] };
    // The demo's Q3 review is listed; its board update (unlisted) and the kitchen plan (private) are not.
    expect(answer.titles.map((t) => t.title)).toEqual(["Lumenly Q3 Business Review"]);
    const listbox = page.getByRole("listbox", { name: "Search suggestions" });
    await expect(listbox.getByRole("option")).toHaveText(["Lumenly Q3 Business Review"]);
    await page.keyboard.press("Tab");
    await expect(listbox).toBeHidden();
    await expect(box).toHaveAttribute("aria-expanded", "false");
  });
});

test.describe("issue 15 item 4: search suggestions on a phone", () => {
  test.use({ hasTouch: true, isMobile: true, viewport: { width: 320, height: 640 } });

  test("at 320 px the opened search suggests within the screen, a tap opens the title; axe passes", async ({
    page,
  }) => {
    await openDeck(page, "sourdough-basics");
    await page.getByRole("button", { name: "Search", exact: true }).tap();
    const box = page.getByRole("combobox", { name: /Search \d+ presentations/ });
    await expect(box).toBeVisible();
    await box.focus();
    await page.keyboard.type("basics");
    const listbox = page.getByRole("listbox", { name: "Search suggestions" });
    await expect(listbox).toBeVisible();
    const option = listbox.getByRole("option", { name: "Sourdough Basics" });
    const bounds = await listbox.boundingBox();
    expect(bounds?.x ?? -1).toBeGreaterThanOrEqual(0);
    expect((bounds?.x ?? 0) + (bounds?.width ?? 1000)).toBeLessThanOrEqual(320);
    expect(await noSideways(page)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: "e2e/screenshots/search-suggest-phone.png" });
    await option.tap();
    await expect(page).toHaveURL(/\/p\/[a-z0-9]{12}\/sourdough-basics\/$/);
  });
});
