import { readFile } from "node:fs/promises";
import { importMarkdownDeck } from "./helpers";
import { axeViolations, expect, logIn, test, waitForHydration } from "./support";

/**
 * Issue 33 item 4, "done when": a download is offered only when the owner allows it, and the file
 * arrives: the PDF (a valid PDF; its text is read back with pdf.js in downloads.test.ts) and a
 * Markdown deck's Markdown. Axe 0 on the pages that offer it and on the owner's setting, and the
 * view page stays whole at every width.
 */

const TITLE = "Knots every sailor ties";
const DECK = `# ${TITLE}\n---\n# Bowline\n- A loop that won't slip\n---\n# Clove hitch\n- Quick to a post\n`;

const DECK_FILE = { name: "knots.md", markdown: DECK };

test.describe("issue 33 downloads", () => {
  test("I33.4 not offered until the owner allows it; then the PDF and the Markdown arrive; axe 0, whole at every width", async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    await logIn(page, "tim@podium.test");
    const oid = await importMarkdownDeck(page, DECK_FILE);
    const manage = `/dashboard/next/presentations/${oid}/`;

    const visitorContext = await browser.newContext({ baseURL });
    await visitorContext.addCookies([{ name: "podium_cookie_consent", value: "necessary", url: baseURL ?? "" }]);
    const visitor = await visitorContext.newPage();
    await visitor.goto(`/p/${oid}/`);
    await waitForHydration(visitor);
    await expect(visitor.getByRole("heading", { name: TITLE, level: 1 })).toBeVisible();
    await expect(visitor.getByRole("link", { name: "Download PDF" })).toHaveCount(0);
    expect((await visitor.request.get(`/p/${oid}/download.pdf`)).status()).toBe(404);

    // The owner allows it on the manage page.
    await page.goto(manage);
    await waitForHydration(page);
    await page.getByLabel("Viewers of the public page may download this presentation").check();
    await page.getByRole("button", { name: "Save the download setting" }).click();
    await expect(page.getByText("The download setting is saved.")).toBeVisible();
    await expect(page.getByLabel("Viewers of the public page may download this presentation")).toBeChecked();
    expect(await axeViolations(page)).toEqual([]);

    await visitor.reload();
    await waitForHydration(visitor);
    const pdfLink = visitor.getByRole("link", { name: "Download PDF" });
    await expect(pdfLink).toBeVisible();
    const [pdf] = await Promise.all([visitor.waitForEvent("download"), pdfLink.click()]);
    expect(pdf.suggestedFilename()).toBe("knots-every-sailor-ties.pdf");
    const pdfBytes = await readFile(await pdf.path());
    expect(pdfBytes.subarray(0, 5).toString()).toBe("%PDF-");
    const [markdown] = await Promise.all([
      visitor.waitForEvent("download"),
      visitor.getByRole("link", { name: "Download Markdown" }).click(),
    ]);
    expect(markdown.suggestedFilename()).toBe("knots-every-sailor-ties.md");
    expect(await readFile(await markdown.path(), "utf8")).toContain("A loop that won't slip");
    expect(await axeViolations(visitor)).toEqual([]);
    for (const width of [320, 375, 768, 1024, 1600]) {
      await visitor.setViewportSize({ width, height: 900 });
      expect(
        await visitor.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth),
        `view page at ${width} px`,
      ).toBe(false);
    }
    await visitorContext.close();

    // Counted on the owner's analytics.
    await page.goto(manage);
    await expect(page.locator('[data-figure="downloads"]')).toHaveText("2");
  });
});
