import type { Page } from "@playwright/test";
import { openAt, sendSignupForm, sticksOut } from "./helpers";
import { slidePdf } from "./pdf-decks";
import { axeViolations, expect, test, waitForHydration } from "./support";

/**
 * Issue 28, item 3 ("a first deck in a minute"): sign-up lands on one drop zone that takes
 * Markdown, JSON or PDF; a PDF dropped there ends on its view page; the dashboard lists decks
 * before a compact Import once there are some.
 */

/** A slide-shaped PDF: a heading and a line on each page, and a coloured band. */
const pdfOf = (pages: number, heading: string) =>
  slidePdf(pages, heading, {
    band: [0.1, 0.45, 0.4],
    lines: (n) => [`Page ${n}: what the tide leaves behind`],
    lineSize: 24,
  });

/** Every address the tab showed, in order (redirects the server answered are not shown, so not here). */
function recordAddresses(page: Page): string[] {
  const seen: string[] = [];
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) seen.push(new URL(frame.url()).pathname);
  });
  return seen;
}

/** Get started's sign-up (R2.6, R2.8): what Podium is for, then the form; it lands on /v/create/. */
async function signUpThroughTheForm(page: Page, email: string) {
  await page.goto("/signup/");
  await waitForHydration(page);
  await page.getByRole("radio", { name: "Teacher" }).check();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/signup\/\?next=/);
  await waitForHydration(page);
  await sendSignupForm(page, { firstName: "Wren", lastName: "Tidewell", email });
  await expect(page).toHaveURL(/\/v\/create\/$/);
  await waitForHydration(page);
}

/** The view page of a PDF deck: the player plays its first page, drawn from the PDF. */
async function expectViewPageOf(page: Page, heading: string) {
  await expect(page).toHaveURL(/\/p\/[a-z0-9]{12}\/$/, { timeout: 45_000 });
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${heading} 1`);
  await page.getByRole("button", { name: "Present" }).click();
  await expect(page.locator(".player")).toHaveAttribute("data-player-state", "playing");
  const first = page.locator(`img[alt^="Page 1: ${heading} 1"]`).first();
  await expect(first).toBeVisible();
  await expect.poll(() => first.evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBeGreaterThan(1000);
}

/** The drop zone's top is on the first screen: nothing stands above it but the page's heading. */
async function expectZoneOnFirstScreen(page: Page) {
  const zone = page.locator(".drop-zone");
  await expect(zone).toBeVisible();
  const box = await zone.boundingBox();
  const height = page.viewportSize()?.height ?? 0;
  expect(box?.y ?? Number.POSITIVE_INFINITY).toBeLessThan(height - 120);
}

test.describe("issue 28 item 3 a first deck in a minute", () => {
  test("issue 28 item 3 sign up → a PDF chosen in /v/create/'s drop zone → its view page, at 375 px, never on the dashboard", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    const addresses = recordAddresses(page);
    await signUpThroughTheForm(page, `wren.${Date.now()}@podium.test`);

    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Start a new presentation");
    await expectZoneOnFirstScreen(page);
    await expect(page.getByRole("link", { name: "Start from a template" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: "e2e/screenshots/first-deck-create-375.png", fullPage: true });

    await page.getByLabel("Markdown or JSON file, or a PDF").setInputFiles({
      name: "rock-pools.pdf",
      mimeType: "application/pdf",
      buffer: await pdfOf(3, "Rock pools"),
    });
    await expect(page.getByText("Ready to import: rock-pools.pdf")).toBeVisible();
    await page.getByRole("button", { name: "Import", exact: true }).focus();
    const sent = Date.now();
    await page.keyboard.press("Enter");

    await expectViewPageOf(page, "Rock pools");
    // A figure for the report, not a limit: from Import to the deck playing on its view page.
    console.log(
      `first deck: Import → view page playing page 1 in ${((Date.now() - sent) / 1000).toFixed(1)} s (3-page PDF)`,
    );
    await page.screenshot({ path: "e2e/screenshots/first-deck-view-375.png" });
    // The way there: the sign-up pages, /v/create/ and the deck; the dashboard was never shown.
    expect(addresses.filter((path) => path.startsWith("/dashboard"))).toEqual([]);
    expect(addresses.at(-1)).toMatch(/^\/p\/[a-z0-9]{12}\/$/);
  });

  test("issue 28 item 3 sign up → a PDF dropped on the drop zone (a real drop event) → its view page, at 1440 px", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    const addresses = recordAddresses(page);
    await signUpThroughTheForm(page, `kelp.${Date.now()}@podium.test`);
    await expectZoneOnFirstScreen(page);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: "e2e/screenshots/first-deck-create-1440.png", fullPage: true });

    const bytes = (await pdfOf(2, "Kelp forest")).toString("base64");
    await page.locator(".drop-zone").evaluate((zone, base64) => {
      const raw = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([raw], "kelp-forest.pdf", { type: "application/pdf" }));
      for (const type of ["dragenter", "dragover", "drop"]) {
        zone.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
      }
    }, bytes);
    await expect(page.getByText("Ready to import: kelp-forest.pdf")).toBeVisible();
    // The dropped file is the input's own, as if it had been chosen.
    expect(await page.locator("#import-file").evaluate((input) => (input as HTMLInputElement).files?.[0]?.name)).toBe(
      "kelp-forest.pdf",
    );
    await page.getByRole("button", { name: "Import", exact: true }).click();

    await expectViewPageOf(page, "Kelp forest");
    await page.screenshot({ path: "e2e/screenshots/first-deck-view-1440.png" });
    expect(addresses.filter((path) => path.startsWith("/dashboard"))).toEqual([]);
  });

  test("issue 28 item 3 an empty dashboard shows the drop zone first; a file chosen by keyboard makes a deck; then the list comes before Import", async ({
    page,
  }) => {
    await signUpThroughTheForm(page, `moss.${Date.now()}@podium.test`);
    for (const width of [375, 1440]) {
      await openAt(page, "/dashboard/next/", { width, height: width < 768 ? 800 : 900 });
      await expect(page.getByRole("heading", { name: "Start from a file" })).toBeVisible();
      await expect(page.getByRole("heading", { name: "All my presentations" })).toHaveCount(0);
      await expectZoneOnFirstScreen(page);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `e2e/screenshots/first-deck-empty-dashboard-${width}.png`, fullPage: true });
    }

    // The keyboard's way: Tab to the file input, Space opens the chooser; Enter on Import sends.
    const input = page.getByLabel("Markdown or JSON file, or a PDF");
    // Headless Chromium now and then opens no chooser for a key pressed just after a full-page
    // screenshot (its paint holding, cf. microsoft/playwright#28023): the keyboard's way is still
    // what is proven, Space on the focused input, asked again until a chooser opens.
    // A page of its own for it (not the one just captured whole), painted.
    await page.goto("/dashboard/next/");
    await waitForHydration(page);
    await page.evaluate(() => new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(painted))));
    await expect(async () => {
      await input.focus();
      const chooser = page.waitForEvent("filechooser", { timeout: 5_000 });
      await page.keyboard.press("Space");
      await (await chooser).setFiles({
        name: "limpets.md",
        mimeType: "text/markdown",
        buffer: Buffer.from("# Limpets\n---\n# How they hold on\n- a muscular foot\n"),
      });
    }).toPass({ timeout: 30_000 });
    await expect(page.getByText("Ready to import: limpets.md")).toBeVisible();
    // The choices wait behind one line that says what they are; the keyboard opens it.
    const more = page.getByText("Title, who can see it and style: Public, Slides (pitch)");
    await more.focus();
    await page.keyboard.press("Enter");
    await page.getByLabel("Who can see it").selectOption("unlisted");
    await expect(page.getByText("Title, who can see it and style: Unlisted, Slides (pitch)")).toBeVisible();
    await page.getByRole("button", { name: "Import", exact: true }).focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/dashboard\/next\/presentations\/[a-z0-9]{12}\/\?notice=created/);
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Limpets");

    for (const width of [375, 1440]) {
      await openAt(page, "/dashboard/next/", { width, height: width < 768 ? 800 : 900 });
      const list = page.getByRole("heading", { name: "All my presentations" });
      const importHeading = page.getByRole("heading", { name: "New presentation" });
      await expect(list).toBeVisible();
      const deck = page.getByRole("link", { name: "Limpets", exact: true });
      await expect(deck).toBeVisible();
      const listTop = (await list.boundingBox())?.y ?? Number.POSITIVE_INFINITY;
      const deckTop = (await deck.boundingBox())?.y ?? Number.POSITIVE_INFINITY;
      const importTop = (await importHeading.boundingBox())?.y ?? 0;
      expect(listTop).toBeLessThan(importTop);
      expect(deckTop).toBeLessThan(importTop);
      // On a phone the list starts on the first screen.
      expect(deckTop).toBeLessThan(page.viewportSize()?.height ?? 0);
      await expect(page.locator(".import-panel--compact")).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `e2e/screenshots/first-deck-dashboard-with-decks-${width}.png`, fullPage: true });
    }
  });

  test("issue 28 item 3 start from a template: the choice leads to a template whose copy becomes one's own deck", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signUpThroughTheForm(page, `tern.${Date.now()}@podium.test`);
    await page.getByRole("link", { name: "Start from a template" }).click();
    await expect(page).toHaveURL(/\/presentation-template\/$/);
    await waitForHydration(page);
    await page.locator(".catalog a[href^='/presentation-template/']").first().click();
    await expect(page).toHaveURL(/\/presentation-template\/[a-z0-9-]+\/$/);
    await waitForHydration(page);
    await page.getByRole("button", { name: "Use this template" }).click();
    await expect(page).toHaveURL(/\/dashboard\/next\/presentations\/[a-z0-9]{12}\/\?notice=copied$/);
  });

  test("issue 28 item 3 /v/create/ and the empty dashboard fit from 320 px to 1600 px", async ({ page }) => {
    await signUpThroughTheForm(page, `sweep.${Date.now()}@podium.test`);
    for (const path of ["/v/create/", "/dashboard/next/"]) {
      for (const width of [320, 375, 768, 1024, 1280, 1600]) {
        await openAt(page, path, { width, height: 900 });
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth),
          `${path} at ${width} px`,
        ).toBeLessThanOrEqual(width);
        const overflow = await sticksOut(page.locator(".import-panel"), "input, select, button, label, p, a, summary");
        expect(overflow, `${path} at ${width} px`).toBe(0);
      }
    }
  });
});
