import type { Page } from "@playwright/test";
import { focusIndicator, openAt } from "./helpers";
import { axeViolations, expect, logIn, sitemapPresentationUrls, test, waitForHydration } from "./support";

/** The element with keyboard focus shows a visible focus indicator. */
async function expectVisibleFocus(page: Page) {
  const focus = await focusIndicator(page);
  expect({ focusVisible: focus?.focusVisible, outline: focus?.outline }).toEqual({ focusVisible: true, outline: true });
}

/** Nothing of the page reaches past the right edge. */
async function pageOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

test.describe("issue 12: the account menu on every page", () => {
  for (const width of [320, 1440]) {
    test(`R2.9 R2.24 at ${width} px the dashboard, settings and home share one account menu, all by keyboard`, async ({
      page,
    }) => {
      // Katherine: no other test renames her (the accounts test renames Ada).
      await logIn(page, "katherine@podium.test");
      await page.setViewportSize({ width, height: 800 });
      for (const url of ["/dashboard/next/", "/settings/", "/"]) {
        await page.goto(url);
        await waitForHydration(page);
        const header = page.locator("header.site-header");
        // One button in the header, no links side by side.
        await expect(header.getByRole("link", { name: "My dashboard" })).toHaveCount(0);
        const button = header.getByRole("button", { name: "Dr. Katherine Ito" });
        await expect(button).toBeVisible();
        await expect(button).toHaveAttribute("aria-expanded", "false");
        // Keyboard: Enter on the button opens the menu onto its first entry.
        await button.focus();
        await page.keyboard.press("Enter");
        await expect(button).toHaveAttribute("aria-expanded", "true");
        const presentations = page.getByRole("link", { name: "My dashboard" });
        await expect(presentations).toBeFocused();
        await expectVisibleFocus(page);
        await expect(page.getByText("Signed in as Dr. Katherine Ito")).toBeVisible();
        // The open menu fits the screen.
        const box = await page.locator(".account-menu__list").boundingBox();
        expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
        expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width);
        expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
        await page.keyboard.press("ArrowDown");
        await expect(page.getByRole("link", { name: "Account settings", exact: true })).toBeFocused();
        await page.keyboard.press("ArrowDown");
        await expect(page.getByRole("button", { name: /^Language/ })).toBeFocused();
        await expectVisibleFocus(page);
        await page.keyboard.press("End");
        await expect(page.getByRole("button", { name: "Log out" })).toBeFocused();
        await page.keyboard.press("ArrowDown");
        await expect(presentations).toBeFocused();
        if (url === "/settings/") expect(await axeViolations(page)).toEqual([]);
        await page.keyboard.press("Escape");
        await expect(button).toHaveAttribute("aria-expanded", "false");
        await expect(button).toBeFocused();
        await expect(presentations).toBeHidden();
      }
      await page.screenshot({ path: `e2e/screenshots/account-menu-closed-${width}.png` });
      await page.locator("header.site-header").getByRole("button", { name: "Dr. Katherine Ito" }).click();
      await page.getByRole("button", { name: /^Language/ }).click();
      await page.screenshot({ path: `e2e/screenshots/account-menu-open-${width}.png` });
      // Tab past the last entry closes it.
      await page.getByRole("button", { name: "Log out" }).focus();
      await page.keyboard.press("Tab");
      await expect(page.getByRole("button", { name: "Log out" })).toBeHidden();
    });
  }

  test("issue 12 the account menu's Language switches the page's language, then Settings and Log out work in it", async ({
    page,
  }) => {
    await logIn(page, "grace@podium.test");
    await page.setViewportSize({ width: 375, height: 800 });
    const urls = await sitemapPresentationUrls(page);
    await page.goto(urls.find((url) => url.includes("sourdough-basics")) ?? "/");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Grace Lindqvist" }).click();
    await page.getByRole("button", { name: /^Language/ }).click();
    const german = page.getByRole("button", { name: "Deutsch", exact: true });
    await expect(german).toHaveAttribute("lang", "de");
    await expect(page.getByRole("button", { name: "English", exact: true })).toHaveAttribute("aria-current", "true");
    await german.click();
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await waitForHydration(page);
    expect((await page.context().cookies()).find((cookie) => cookie.name === "language")?.value).toBe("de");
    const button = page.getByRole("button", { name: "Grace Lindqvist" });
    await button.click();
    await expect(page.getByText("Angemeldet als Grace Lindqvist")).toBeVisible();
    await page.getByRole("button", { name: /^Sprache/ }).click();
    await expect(page.getByRole("button", { name: "Deutsch", exact: true })).toHaveAttribute("aria-current", "true");
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("link", { name: "Einstellungen" }).click();
    await expect(page).toHaveURL(/\/settings\/\?click_source=viewer_header$/);
    await waitForHydration(page);
    await page.getByRole("button", { name: "Grace Lindqvist" }).click();
    await page.getByRole("button", { name: "Abmelden" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("link", { name: "Anmelden" })).toBeVisible();
  });
});

test.describe("issue 12: the first visit's language comes from the browser", () => {
  test.use({ locale: "de-AT" });

  test("a first visit from a German browser (Accept-Language de-AT) is in German; a chosen language wins", async ({
    page,
    baseURL,
  }) => {
    await page.goto("/");
    await waitForHydration(page);
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.getByRole("link", { name: "Anmelden" })).toBeVisible();
    // The footer's switch says so too, and choosing English sticks (the cookie beats the browser).
    const picker = page.locator(".site-footer").getByLabel("Sprache");
    await expect(picker).toHaveValue("de");
    await picker.selectOption("en");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await waitForHydration(page);
    await page.goto("/explore/");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByRole("link", { name: "Log in" })).toBeVisible();
    expect((await page.context().cookies(baseURL)).find((cookie) => cookie.name === "language")?.value).toBe("en");
  });
});

test.describe("issue 12: the footer sits at the bottom of a short page", () => {
  test("a short page's footer touches the viewport's bottom; a long page's follows its content", async ({ page }) => {
    await openAt(page, "/login/", { width: 1440, height: 1000 });
    const footer = page.locator("footer.site-footer");
    const box = await footer.boundingBox();
    expect(Math.abs((box?.y ?? 0) + (box?.height ?? 0) - 1000)).toBeLessThanOrEqual(1);
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBe(1000);
    await page.setViewportSize({ width: 375, height: 700 });
    const phone = await footer.boundingBox();
    // Still at the bottom (the form fits in 700 px), or after the content, never overlapping it.
    const main = await page.locator("main").boundingBox();
    expect(phone?.y ?? 0).toBeGreaterThanOrEqual((main?.y ?? 0) + (main?.height ?? 0) - 1);
    await page.screenshot({ path: "e2e/screenshots/footer-short-page.png" });
    // A long page: the footer comes after everything, at the end of the document.
    await openAt(page, "/", { width: 1440, height: 900 });
    const end = await page.evaluate(() => {
      const rect = document.querySelector("footer.site-footer")?.getBoundingClientRect();
      return { bottom: (rect?.bottom ?? 0) + window.scrollY, height: document.documentElement.scrollHeight };
    });
    expect(end.height).toBeGreaterThan(900);
    expect(Math.abs(end.bottom - end.height)).toBeLessThanOrEqual(1);
  });
});

test.describe("issue 12: the view page's header on narrow screens", () => {
  test("R2.6 R2.21 at 390 px Log in is there; the opened search takes the row with one ×, no sideways scrolling", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    const urls = await sitemapPresentationUrls(page);
    await page.goto(urls.find((url) => url.includes("sourdough-basics")) ?? "/");
    await waitForHydration(page);
    const header = page.locator("header.viewer-header");
    await expect(header.getByRole("link", { name: "Log in" })).toBeVisible();
    await expect(header.getByRole("link", { name: "Log in" })).toHaveAttribute("href", "/login/");
    await expect(header.getByRole("link", { name: "Get started" })).toBeVisible();
    const search = header.getByRole("combobox");
    await expect(search).toBeHidden();
    await header.getByRole("button", { name: "Search", exact: true }).click();
    await expect(search).toBeVisible();
    await search.fill("bread");
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
    // One clear control: ours. The browser's own cancel button of a search field is not drawn: the
    // focused field with a word in it looks exactly like a plain text field with the same word.
    await expect(header.getByRole("button", { name: "Close search" })).toBeVisible();
    await expect(header.getByRole("button", { name: "Close search" })).toHaveCount(1);
    await search.focus();
    const clip = await search.boundingBox();
    if (!clip) throw new Error("the search field has no box");
    const asSearch = await page.screenshot({ clip, animations: "disabled" });
    const field = header.locator(".header-search__input");
    await field.evaluate((input) => input.setAttribute("type", "text"));
    const asText = await page.screenshot({ clip, animations: "disabled" });
    await field.evaluate((input) => input.setAttribute("type", "search"));
    expect(asSearch.equals(asText)).toBe(true);
    const box = await search.boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(200);
    await page.screenshot({ path: "e2e/screenshots/header-search-open-390.png" });
    expect(await axeViolations(page)).toEqual([]);
    // Escape closes it; focus goes back to the search icon, and Log in is back.
    await search.press("Escape");
    await expect(search).toBeHidden();
    await expect(header.getByRole("button", { name: "Search", exact: true })).toBeFocused();
    await expect(header.getByRole("link", { name: "Log in" })).toBeVisible();
  });

  for (const width of [320, 434, 500, 640, 767]) {
    test(`R2.6 at ${width} px Log in and Get started are on screen, each on one line`, async ({ page }) => {
      await openAt(page, "/explore/", { width, height: 800 });
      for (const name of ["Log in", "Get started"]) {
        const link = page.locator("header.viewer-header").getByRole("link", { name });
        await expect(link).toBeInViewport({ ratio: 1 });
        const lines = await link.evaluate((element) => {
          const range = document.createRange();
          range.selectNodeContents(element);
          return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
        });
        expect(lines).toBe(1);
      }
      expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
    });
  }
});
