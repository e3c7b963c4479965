import type { Page } from "@playwright/test";
import { topicsById } from "../src/document/schema";
import { deckUrl, oidOf, openAt } from "./helpers";
import { axeViolations, expect, test, waitForHydration } from "./support";

/** A demo deck's view page address and oid. */
async function deck(page: Page, slugPart: string): Promise<{ url: string; oid: string }> {
  const url = await deckUrl(page, slugPart);
  return { url, oid: oidOf(url) };
}

interface DocumentTopic {
  id: string;
  texts: { paragraphs: { text: string }[] }[];
  topics: DocumentTopic[];
}

/** Each step's topic's first words, from the deck's own document (what each section must show). */
async function stepTexts(page: Page, oid: string): Promise<(string | null)[]> {
  const document = (await (await page.request.get(`/p/${oid}/document.json`)).json()) as {
    topics: DocumentTopic[];
    path: string[];
  };
  const byId = topicsById(document);
  const seen = new Set<string>();
  return document.path.map((id) => {
    const first = !seen.has(id);
    seen.add(id);
    const text = byId.get(id)?.texts[0]?.paragraphs[0]?.text ?? null;
    return first ? text : null;
  });
}

async function noHorizontalOverflow(page: Page): Promise<void> {
  const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(widths[0], "page wider than the window").toBeLessThanOrEqual(widths[1] ?? 0);
}

test.describe("issue 12: reading mode", () => {
  for (const width of [375, 1440]) {
    test(`issue 12 reading mode at ${width} px: every step in order with its text, a heading each, links back to the player, no overflow, axe clean`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      const { url, oid } = await deck(page, "crispr-basics");
      const texts = await stepTexts(page, oid);

      // Reached from the view page's poster.
      await page.goto(url);
      await waitForHydration(page);
      await page.locator(".overlay").getByRole("link", { name: "Read slide by slide" }).click();
      await expect(page).toHaveURL(new RegExp(`/p/read/${oid}/$`));
      await waitForHydration(page);

      await expect(page.getByRole("heading", { level: 1, name: "CRISPR Basics" })).toBeVisible();
      const sections = page.locator("section.reading-slide");
      await expect(sections).toHaveCount(texts.length);
      expect(await sections.evaluateAll((all) => all.map((s) => s.id))).toEqual(
        texts.map((_, index) => `step-${index + 1}`),
      );
      for (const [index, text] of texts.entries()) {
        const section = page.locator(`#step-${index + 1}`);
        await expect(section.getByRole("heading", { level: 2 })).toHaveText(`Slide ${index + 1} of ${texts.length}`);
        // The slide itself is drawn with real text (the shared renderer), and its text is readable below it.
        if (text) {
          await expect(section.locator(".reading-slide__frame .topic")).toContainText(text);
          await expect(section.locator(".reading-slide__text")).toContainText(text);
        }
        await expect(section.getByRole("link", { name: `Present from slide ${index + 1}` })).toHaveAttribute(
          "href",
          new RegExp(`/p/${oid}/[a-z0-9-]+/#step=${index + 1}$`),
        );
      }
      // Scaled to the column: a slide fills its frame's width, whatever the window.
      const fit = await page.locator("#step-2 .reading-slide__frame").evaluate((frame) => {
        const topic = frame.querySelector(".topic")?.getBoundingClientRect();
        const box = frame.getBoundingClientRect();
        return topic ? [Math.round(topic.width), Math.round(box.width)] : [0, 1];
      });
      expect(Math.abs((fit[0] ?? 0) - (fit[1] ?? 0))).toBeLessThanOrEqual(2);
      await noHorizontalOverflow(page);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `e2e/screenshots/reading-${width}.png` });

      // Present from a slide: the player opens on that step.
      await page.locator("#step-3").getByRole("link", { name: "Present from slide 3" }).click();
      await waitForHydration(page);
      await expect(page.locator(".viewer")).toHaveAttribute("data-current-step", "3");
    });
  }

  test("issue 12 reading mode: cached like the view page; an unknown deck's is a 404; a view link's is private, no-store", async ({
    page,
  }) => {
    const { oid } = await deck(page, "crispr-basics");
    const response = await page.request.get(`/p/read/${oid}/`);
    expect(response.status()).toBe(200);
    expect(response.headers()["cache-control"]).toContain("public");
    const html = await response.text();
    expect(html).toMatch(new RegExp(`<link rel="canonical" href="[^"]*/p/${oid}/crispr-basics/"`));
    // The slides travel once, as markup: the boot data carries no document.
    const boot = JSON.parse(
      /<script type="application\/json" id="podium-boot">(.*?)<\/script>/s.exec(html)?.[1] ?? "{}",
    );
    expect(boot.data.document).toBeNull();
    expect((await page.request.get("/p/read/zzzzzzzzzzzz/")).status()).toBe(404);

    const link = await page.request.get("/view/demo-view-link-kitchen-renovation/read/");
    expect(link.status()).toBe(200);
    expect(link.headers()["cache-control"]).toBe("private, no-store");
    expect(await link.text()).toContain('name="robots" content="noindex');
    expect((await page.request.get("/view/no-such-link/read/")).status()).toBe(404);
  });

  test("issue 12 the view-link page offers the reading mode, and it reads the private deck", async ({ page }) => {
    await openAt(page, "/view/demo-view-link-kitchen-renovation/", { width: 375, height: 800 });
    await page.getByRole("link", { name: "Read slide by slide" }).click();
    await expect(page).toHaveURL(/\/view\/demo-view-link-kitchen-renovation\/read\/$/);
    await waitForHydration(page);
    await expect(page.locator("#step-1")).toBeVisible();
    await expect(page.locator("#step-1").getByRole("link", { name: "Present from slide 1" })).toHaveAttribute(
      "href",
      "/view/demo-view-link-kitchen-renovation/#step=1",
    );
    await noHorizontalOverflow(page);
    expect(await axeViolations(page)).toEqual([]);
  });
});
