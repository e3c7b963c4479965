import type { Page } from "@playwright/test";
import { openAt, postDeck, sticksOut } from "./helpers";
import { slidePdf } from "./pdf-decks";
import { axeViolations, expect, logIn, test, waitForHydration } from "./support";

/** Issue 10, items 4 and 6: the dashboard's drop zone imports a PDF, with both progress bars, and opens the deck. */

/** A slide-shaped PDF with a heading, a few lines and a coloured band on each page. */
const pdfOf = (pages: number, heading: string) =>
  slidePdf(pages, heading, {
    band: [0.25, 0.24, 0.73],
    lines: (n) =>
      Array.from({ length: 5 }, (_, line) => `Point ${line + 1} of page ${n}: tide pools, kelp and limpets`),
    lineSize: 22,
  });

/**
 * Notes in sessionStorage (which outlives the navigation to the deck) every progress bar the
 * page shows: its label and its value text, as they change.
 */
async function recordProgressBars(page: Page) {
  await page.addInitScript(() => {
    const seen = (): string[] => JSON.parse(sessionStorage.getItem("progress-seen") ?? "[]");
    const note = () => {
      const bars = document.querySelectorAll('[role="progressbar"]');
      const entries = seen();
      for (const bar of bars) {
        const labelId = bar.getAttribute("aria-labelledby") ?? "";
        const label = document.getElementById(labelId)?.textContent ?? "";
        const entry = `${label} | ${bar.getAttribute("aria-valuetext")}`;
        if (!entries.includes(entry)) entries.push(entry);
      }
      sessionStorage.setItem("progress-seen", JSON.stringify(entries));
    };
    new MutationObserver(note).observe(document, { subtree: true, childList: true, attributes: true });
  });
}

async function progressSeen(page: Page): Promise<string[]> {
  return page.evaluate(() => JSON.parse(sessionStorage.getItem("progress-seen") ?? "[]"));
}

async function expectDeckOnPageOne(page: Page, heading: string) {
  // The conversion's own time: 24 pages took over 10 s on the shared 2-core machine at a load of 19.
  await expect(page).toHaveURL(/\/p\/[a-z0-9]{12}\/$/, { timeout: 45_000 });
  await waitForHydration(page);
  await page.getByRole("button", { name: "Present" }).click();
  await expect(page.locator(".player")).toHaveAttribute("data-player-state", "playing");
  const first = page.locator(`img[alt^="Page 1: ${heading} 1"]`).first();
  await expect(first).toBeVisible();
  await expect.poll(() => first.evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBeGreaterThan(1000);
  await page.screenshot({ path: `e2e/screenshots/pdf-import-deck-${heading.toLowerCase().replace(/\W+/g, "-")}.png` });
}

test.describe("issue 10 PDF import", () => {
  test("issue 10 PDF import in the editor: a PDF replaces a Markdown deck's slides, by keyboard, and the deck plays its pages", async ({
    page,
  }) => {
    await logIn(page, "tim@podium.test");
    const oid = await postDeck(
      page,
      { name: "notes.md", mimeType: "text/markdown", buffer: Buffer.from("# Field notes\n---\nDraft slide") },
      { title: "Field notes", privacy: "public" },
    );
    await page.goto(`/p/edit/${oid}/`);
    await waitForHydration(page);
    const zone = page.locator(".import-panel");
    await expect(zone.getByRole("heading", { name: "Replace the slides with a PDF" })).toBeVisible();
    // The deck keeps its title, privacy and style: the zone asks for none of them.
    await expect(zone.getByLabel("Title (optional: taken from the first slide)")).toBeHidden();
    await expect(zone.getByRole("radio", { name: /Slides/ })).toBeHidden();
    expect(await axeViolations(page)).toEqual([]);
    await zone.getByLabel("PDF file").setInputFiles({
      name: "field-notes.pdf",
      mimeType: "application/pdf",
      buffer: await pdfOf(3, "Field notes"),
    });
    await zone.getByRole("button", { name: "Replace the slides" }).focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/p/edit/${oid}/\\?notice=slidesReplaced$`), { timeout: 30_000 });
    await waitForHydration(page);
    await expect(page.getByText("The slides are replaced with the PDF's pages.")).toBeVisible();
    await expect(page.getByTestId("page-deck")).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: "e2e/screenshots/pdf-import-editor-replaced.png", fullPage: true });
    await page.goto(`/p/${oid}/`);
    await expectDeckOnPageOne(page, "Field notes");
  });

  test("issue 10 PDF import: a PDF chosen in the drop zone shows the upload bar, then pages N of M, then opens on page 1", async ({
    page,
  }) => {
    await recordProgressBars(page);
    await logIn(page, "tim@podium.test");
    await page.goto("/dashboard/next/");
    await waitForHydration(page);
    const zone = page.locator(".import-panel");
    await expect(zone.getByLabel("Markdown or JSON file, or a PDF")).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel("Markdown or JSON file, or a PDF").setInputFiles({
      name: "rock-pools.pdf",
      mimeType: "application/pdf",
      buffer: await pdfOf(24, "Rock pools"),
    });
    await expect(zone.getByText("Ready to import: rock-pools.pdf")).toBeVisible();
    // Issue 28, item 3: the choices wait behind one line that says what they are now.
    await zone.getByText("Title, who can see it and style: Public, Slides (pitch)").click();
    await page.getByLabel("Who can see it").selectOption("unlisted");
    await expect(zone.getByText("Only people who have the link can watch it.")).toBeVisible();
    await zone.getByRole("button", { name: "Import" }).click();

    // Both bars are on screen together while the pages convert: the upload's (complete) and the pages'.
    const upload = page.getByRole("progressbar", { name: "Uploading rock-pools.pdf" });
    const pages = page.getByRole("progressbar", { name: "Converting pages" });
    await expect(upload).toBeVisible();
    await expect(pages).toBeVisible();
    await expect(pages).toHaveAttribute("aria-valuetext", /^\d+ of 24 pages$/);
    await expect(upload).toHaveAttribute("aria-valuetext", /^(.+) of \1$/);
    expect(await axeViolations(page)).toEqual([]);
    await zone.screenshot({ path: "e2e/screenshots/pdf-import-progress.png" });

    await expectDeckOnPageOne(page, "Rock pools");
    const seen = await progressSeen(page);
    console.log(`progress bars seen: ${seen.join("; ")}`);
    expect(seen.some((entry) => entry.startsWith("Uploading rock-pools.pdf | "))).toBe(true);
    expect(seen.some((entry) => /^Converting pages \| \d+ of 24 pages$/.test(entry))).toBe(true);
  });

  test("issue 10 PDF import: a PDF dragged and dropped on the zone is imported", async ({ page }) => {
    await recordProgressBars(page);
    await logIn(page, "tim@podium.test");
    await page.goto("/dashboard/next/");
    await waitForHydration(page);
    const bytes = (await pdfOf(6, "Kelp forest")).toString("base64");
    await page.locator(".drop-zone").evaluate((zone, base64) => {
      const raw = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([raw], "kelp-forest.pdf", { type: "application/pdf" }));
      zone.dispatchEvent(new DragEvent("dragenter", { dataTransfer: transfer, bubbles: true, cancelable: true }));
      zone.dispatchEvent(new DragEvent("dragover", { dataTransfer: transfer, bubbles: true, cancelable: true }));
      zone.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }, bytes);
    await expect(page.getByText("Ready to import: kelp-forest.pdf")).toBeVisible();
    // The dropped file is the input's own, as if it had been chosen.
    expect(await page.locator("#import-file").evaluate((input) => (input as HTMLInputElement).files?.[0]?.name)).toBe(
      "kelp-forest.pdf",
    );
    await page.locator(".import-panel").getByRole("button", { name: "Import" }).click();
    await expectDeckOnPageOne(page, "Kelp forest");
    const seen = await progressSeen(page);
    expect(seen.some((entry) => entry.startsWith("Uploading kelp-forest.pdf | "))).toBe(true);
    expect(seen.some((entry) => /^Converting pages \| 6 of 6 pages$/.test(entry))).toBe(true);
  });

  test("issue 10 PDF import: a damaged PDF is refused in words, by keyboard, and the form stays usable", async ({
    page,
    consoleProblems,
  }) => {
    await logIn(page, "tim@podium.test");
    await page.goto("/dashboard/next/");
    await waitForHydration(page);
    await page.getByLabel("Markdown or JSON file, or a PDF").setInputFiles({
      name: "broken.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.from("%PDF-1.7\n1 0 obj <<<< nonsense ]]] endobj\n%%EOF\n"),
    });
    await page.locator(".import-panel").getByRole("button", { name: "Import" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("alert")).toHaveText(/That PDF is damaged or isn't a PDF Podium can read/);
    await expect(page.locator(".import-panel").getByRole("button", { name: "Import" })).toBeEnabled();
    expect(await axeViolations(page)).toEqual([]);
    // The refusal's own status (422) is the one console line Chromium writes for it; nothing else may appear.
    const refusal = consoleProblems.findIndex((line) => /status of 422/.test(line));
    expect(refusal).toBeGreaterThanOrEqual(0);
    consoleProblems.splice(refusal, 1);
  });

  test("issue 10 PDF import: the drop zone fits from 320 px to 1600 px (screenshots at 375 px and 1280 px)", async ({
    page,
  }) => {
    await logIn(page, "tim@podium.test");
    for (const width of [320, 375, 1280, 1600]) {
      await openAt(page, "/dashboard/next/", { width, height: 900 });
      const panel = page.locator(".import-panel");
      // Nothing sticks out of the card: every control ends inside it.
      expect(await sticksOut(panel, "input, select, button, label, p")).toBe(0);
      // The card itself can be as narrow as the page's content box (24 px margins): nothing in it is wider.
      const narrowest = await panel.evaluate((card) => {
        const element = card as HTMLElement;
        element.style.width = "min-content";
        const least = element.getBoundingClientRect().width;
        element.style.width = "";
        return least;
      });
      expect(narrowest).toBeLessThanOrEqual(width - 48);
      if (width === 375 || width === 1280) {
        await page.locator("#import-file").focus();
        await panel.screenshot({ path: `e2e/screenshots/pdf-import-drop-zone-${width}.png` });
      }
    }
  });
});

test.describe("issue 10 PDF import without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("issue 10 PDF import: without JavaScript the form still posts Markdown, and a PDF gets a page that says what to do", async ({
    page,
    consoleProblems,
    baseURL,
  }) => {
    await page.context().clearCookies();
    await page.context().addCookies([{ name: "podium_cookie_consent", value: "necessary", url: baseURL ?? "" }]);
    await page.goto("/login/");
    await page.getByLabel("Email").fill("tim@podium.test");
    await page.getByLabel("Password").fill("podium-demo");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page).toHaveURL(/dashboard/);
    await page.goto("/dashboard/next/");
    await expect(page.getByText("PDF files need JavaScript")).toBeVisible();

    await page.getByLabel("Markdown or JSON file, or a PDF").setInputFiles({
      name: "tide.md",
      mimeType: "text/markdown",
      buffer: Buffer.from("# The tide\n---\n# Going out\n- slowly\n"),
    });
    await page.locator(".import-panel").getByRole("button", { name: "Import" }).click();
    await expect(page.getByText("Your presentation is imported.")).toBeVisible();

    await page.goto("/dashboard/next/");
    await page.getByLabel("Markdown or JSON file, or a PDF").setInputFiles({
      name: "tide.pdf",
      mimeType: "application/pdf",
      buffer: await pdfOf(1, "Tide"),
    });
    await page.locator(".import-panel").getByRole("button", { name: "Import" }).click();
    await expect(page.locator(".notice--error")).toHaveText(
      /Podium imports Markdown \(\.md, \.markdown, \.txt\) and JSON/,
    );
    await expect(page.getByText("PDF files need JavaScript")).toBeVisible();
    // The refusal page's own status (400) is the one console line Chromium writes for it.
    const refusal = consoleProblems.findIndex((line) => /status of 400/.test(line));
    expect(refusal).toBeGreaterThanOrEqual(0);
    consoleProblems.splice(refusal, 1);
  });
});
