import type { Browser, Page } from "@playwright/test";
import { importMarkdownDeck } from "./helpers";
import { axeViolations, expect, logIn, test } from "./support";

/**
 * Issue 33 item 3: view links an owner controls. The owner names a link, gives it a passcode and
 * turns it off on the dashboard; a visitor meets the passcode page (in the product's style, axe
 * clean, whole at every width) and then the deck, or a page that says the link is off.
 */

const TITLE = "Tide tables for Acme";
const WIDTHS = [320, 375, 768, 1024, 1600];

/** A deck of Alan's own, so other specs' demo decks stay as they are. */
const DECK_FILE = {
  name: "tides.md",
  markdown: `# ${TITLE}\n## High and low\n---\n# Springs\n- Big ranges\n---\n# Neaps\n- Small ranges\n`,
};

/** What overflows the page sideways at this width, if anything. */
const overflows = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

async function visitor(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL });
  await context.addCookies([{ name: "podium_cookie_consent", value: "necessary", url: baseURL }]);
  return { context, page: await context.newPage() };
}

test.describe("issue 33 view links an owner controls", () => {
  test("I33.3 the owner names a link and sets a passcode; a visitor gets the passcode page (axe 0, every width), a wrong passcode is refused in words, the right one opens the deck; turned off, the link says so", async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    await logIn(page, "alan@podium.test");
    await importMarkdownDeck(page, DECK_FILE);
    const sharing = page.locator("#sharing");
    await sharing.getByLabel("Link name (only you see it)").fill("Investor: Acme");
    await sharing.getByRole("button", { name: "Create a view link" }).click();
    await expect(page.getByText("A new view link is ready.")).toBeVisible();
    const row = page.locator(".view-link").first();
    await expect(row.getByRole("heading", { name: "Investor: Acme" })).toBeVisible();
    await expect(row).toContainText("no views");
    await expect(row).toContainText("not opened yet");
    const address = await row.getByRole("textbox", { name: "View link address" }).inputValue();

    // The settings open from the keyboard, and the form is axe-clean.
    const summary = row.locator("summary");
    await summary.focus();
    await page.keyboard.press("Enter");
    const passcode = row.getByLabel("Passcode (optional)");
    await expect(passcode).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await passcode.fill("harbour-42");
    await row.getByRole("button", { name: "Save link settings" }).click();
    await expect(page.getByText("The link's settings are saved and apply at once.")).toBeVisible();
    await expect(page.locator(".view-link").first()).toContainText("asks for a passcode");
    await page.screenshot({ path: "e2e/screenshots/view-link-settings.png", fullPage: true });
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      expect(await overflows(page), `dashboard at ${width} px`).toBe(false);
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    // A visitor: the passcode page tells nothing of the deck.
    const guest = await visitor(browser, baseURL ?? "");
    const asked = await guest.page.goto(address);
    expect(asked?.status()).toBe(401);
    await expect(guest.page.getByRole("heading", { name: "Enter the passcode" })).toBeVisible();
    await expect(guest.page.getByText(TITLE)).toHaveCount(0);
    expect(await guest.page.title()).not.toContain(TITLE);
    expect(await axeViolations(guest.page)).toEqual([]);
    for (const width of WIDTHS) {
      await guest.page.setViewportSize({ width, height: 800 });
      expect(await overflows(guest.page), `passcode page at ${width} px`).toBe(false);
      const button = await guest.page.getByRole("button", { name: "Open" }).boundingBox();
      expect(button && button.height >= 24 && button.width >= 24).toBe(true);
      if (width === 320) await guest.page.screenshot({ path: "e2e/screenshots/view-link-passcode-320.png" });
    }
    await guest.page.setViewportSize({ width: 1280, height: 800 });
    // The field has the focus; a wrong passcode is refused in words, by keyboard alone.
    await expect(guest.page.getByLabel("Passcode")).toBeFocused();
    await guest.page.keyboard.type("harbour-43");
    await guest.page.keyboard.press("Enter");
    await expect(guest.page.getByRole("alert")).toHaveText("That passcode isn't right. Check it and try again.");
    expect(await axeViolations(guest.page)).toEqual([]);
    await guest.page.getByLabel("Passcode").fill("harbour-42");
    await guest.page.getByRole("button", { name: "Open" }).click();
    await expect(guest.page).toHaveURL(address);
    await expect(guest.page.getByRole("heading", { name: TITLE })).toBeVisible();

    // The owner turns it off: the visitor's next visit says so, in words.
    await page.reload();
    const again = page.locator(".view-link").first();
    await expect(again).toContainText("1 view");
    await again.locator("summary").click();
    await again.getByLabel("Link is on (untick to turn it off)").uncheck();
    await again.getByRole("button", { name: "Save link settings" }).click();
    await expect(page.getByText("The link's settings are saved and apply at once.")).toBeVisible();
    await expect(page.locator(".view-link").first()).toContainText("Turned off: it opens nothing");
    const off = await guest.page.goto(address);
    expect(off?.status()).toBe(404);
    await expect(guest.page.getByRole("heading", { name: "This link is turned off" })).toBeVisible();
    await expect(guest.page.getByText(TITLE)).toHaveCount(0);
    expect(await axeViolations(guest.page)).toEqual([]);
    await guest.context.close();
  });
});
