import { holdRequests, layoutShift, recordLayoutShifts } from "./helpers";
import { expect, sitemapPresentationUrls, test, waitForHydration } from "./support";

/**
 * Issue 28 item 8: "More from {author}" and the related list come after the page
 * (`/p/{oid}/more.json`), and their room is held meanwhile: the page data says how many cards each
 * list will have, so nothing visible moves when they arrive.
 */

/** The view page's layout-shift budget while the lists load (Core Web Vitals' "good" is 0.1). */
const MAX_LAYOUT_SHIFT = 0.02;

test.describe("issue 28: the view page holds the room of the author's and related decks", () => {
  for (const width of [1440, 375]) {
    test(`issue 28 at ${width} px: "More from {author}" and related decks arrive without a layout shift (CLS ≤ ${MAX_LAYOUT_SHIFT})`, async ({
      page,
    }) => {
      const height = width < 768 ? 812 : 900;
      await page.setViewportSize({ width, height });
      await recordLayoutShifts(page);
      const url = (await sitemapPresentationUrls(page)).find((u) =>
        u.includes("personal-computing-one-year-per-slide"),
      );
      if (!url) throw new Error("no demo presentation for the test");
      const held = await holdRequests(page, "**/more.json");
      const scripts: string[] = [];
      page.on("request", (request) => {
        if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
      });
      await page.goto(url);
      await waitForHydration(page);
      // Issue 30: on a phone the lists are far below the deck, and so is their code: it loads as they near.
      if (width < 768) {
        await page.waitForLoadState("networkidle");
        expect(scripts.filter((path) => /\/SideLists-/.test(path))).toEqual([]);
      }

      const more = page.locator(".more-decks");
      // On a phone the lists sit below the deck and load as they near: bring them to mid-screen.
      await more.evaluate((element, viewport) => {
        window.scrollTo(0, element.getBoundingClientRect().top + window.scrollY - viewport / 2);
      }, height);
      await expect.poll(() => held.requests.length).toBe(1);
      expect(scripts.filter((path) => /\/SideLists-/.test(path))).toHaveLength(1);
      await expect(more).toHaveAttribute("data-state", "waiting");
      // While it loads, both headings and their cards' room are there already.
      await expect(more.getByRole("heading", { name: /^More from / })).toBeVisible();
      const headings = await more.getByRole("heading").allInnerTexts();
      const expected = await more.locator(".more-card--placeholder").count();
      expect(expected).toBeGreaterThan(0);
      const box = await more.evaluate((element) => element.getBoundingClientRect().height);
      await more.screenshot({ path: `e2e/screenshots/more-decks-waiting-${width}.png` });

      held.release();
      await expect(more).toHaveAttribute("data-state", "loaded");
      await expect(more.locator("a.more-card")).toHaveCount(expected);
      await expect(more.locator(".more-card--placeholder")).toHaveCount(0);
      expect(await more.getByRole("heading").allInnerTexts()).toEqual(headings);
      expect(await more.evaluate((element) => element.getBoundingClientRect().height)).toBe(box);
      const shift = await layoutShift(page);
      console.log(`more decks at ${width} px: ${expected} cards, CLS ${shift.toFixed(4)}`);
      expect(shift).toBeLessThanOrEqual(MAX_LAYOUT_SHIFT);
      await more.screenshot({ path: `e2e/screenshots/more-decks-${width}.png` });
    });
  }
});

test("issue 30 at 375 px: a visitor who scrolls past the lists before their code arrives finds them loaded (and the rows after them)", async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 812 });
  const url = (await sitemapPresentationUrls(page)).find((u) => u.includes("typescript-generics-in-practice"));
  if (!url) throw new Error("no demo presentation for the test");
  // A slow phone: the lists' code is held until the visitor has read to the end of the page.
  const held = await holdRequests(page, "**/SideLists-*.js");
  await page.goto(url);
  await waitForHydration(page);
  const more = page.locator(".more-decks");
  await more.evaluate((element) => window.scrollTo(0, element.getBoundingClientRect().top + window.scrollY));
  await expect.poll(() => held.requests.length).toBe(1);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect.poll(() => more.evaluate((element) => element.getBoundingClientRect().bottom)).toBeLessThan(-300);
  held.release();
  await expect(more).toHaveAttribute("data-state", "loaded");
  await expect(more.locator("a.more-card").first()).toBeAttached();
  await expect(page.locator(".sidebar")).toHaveAttribute("data-state", "loaded");
});
