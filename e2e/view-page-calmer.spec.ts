import { openAt, openDeck } from "./helpers";
import { axeViolations, expect, test } from "./support";

test.describe("issue 12: a calmer view page", () => {
  test("issue 12 R2.27 the view page's poster is the first slide with Present, not a second title/owner/date; the embed keeps them, Present never over the title", async ({
    page,
  }) => {
    const url = await openDeck(page, "crispr-basics");
    const overlay = page.locator(".overlay");
    await expect(overlay.getByRole("button", { name: "Present" })).toBeVisible();
    await expect(overlay.locator(".overlay__meta")).toHaveCount(0);
    await expect(overlay.getByText("Dr. Katherine Ito")).toHaveCount(0);
    await expect(overlay.getByText(/^Last modified /)).toHaveCount(0);
    // The card below says it, once.
    await expect(page.getByRole("heading", { level: 1, name: "CRISPR Basics" })).toBeVisible();

    // The embed page has no card: its poster keeps title, owner and date, and Present sits apart from them.
    const oid = /\/p\/([a-z0-9]{12})\//.exec(url)?.[1];
    for (const size of [
      { width: 560, height: 315 },
      { width: 1280, height: 720 },
    ]) {
      await openAt(page, `/p/embed/${oid}/`, size);
      await expect(page.locator(".overlay__title")).toHaveText("CRISPR Basics");
      const title = await page.locator(".overlay__meta").boundingBox();
      const present = await page.getByRole("button", { name: "Present" }).boundingBox();
      if (!title || !present) throw new Error("no poster");
      const overlaps =
        present.x < title.x + title.width &&
        title.x < present.x + present.width &&
        present.y < title.y + title.height &&
        title.y < present.y + present.height;
      expect(overlaps, `Present overlaps the title at ${size.width}×${size.height}`).toBe(false);
    }
  });

  test("issue 12 transcript sections link to their step and mark the one on screen (aria-current) as the player moves", async ({
    page,
  }) => {
    await openDeck(page, "crispr-basics");
    const transcript = page.locator("#transcript-content");
    const slide3 = transcript.getByRole("link", { name: "Slide 3", exact: true });
    await expect(slide3).toHaveAttribute("href", "#step=3");
    await expect(transcript.locator("[aria-current]")).toHaveCount(0);

    // A section's link plays its step.
    await slide3.click();
    await expect(page.locator(".viewer")).toHaveAttribute("data-current-step", "3");
    await expect(slide3).toHaveAttribute("aria-current", "step");
    // The player moves on: the mark follows, and only one section has it.
    await page.keyboard.press("ArrowRight");
    await expect(page.locator(".viewer")).toHaveAttribute("data-current-step", "4");
    await expect(transcript.getByRole("link", { name: "Slide 4", exact: true })).toHaveAttribute(
      "aria-current",
      "step",
    );
    await expect(transcript.locator("[aria-current]")).toHaveCount(1);
    // The same link again (the address already says #step=3 after going back) still goes there.
    await page.keyboard.press("ArrowLeft");
    await transcript.getByRole("link", { name: "Slide 1", exact: true }).click();
    await expect(page.locator(".viewer")).toHaveAttribute("data-current-step", "1");
    await expect(transcript.getByRole("link", { name: "Slide 1", exact: true })).toHaveAttribute(
      "aria-current",
      "step",
    );
    const style = await transcript
      .getByRole("link", { name: "Slide 1", exact: true })
      .evaluate((link) => getComputedStyle(link).backgroundColor);
    expect(style).toBe("rgb(63, 60, 187)");
    expect(await axeViolations(page)).toEqual([]);
  });

  for (const width of [375, 1440]) {
    test(`issue 12 at ${width} px: "More from this author" and related come before the promotional cards, load on scroll, and the page is far shorter`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      const requests: string[] = [];
      page.on("request", (request) => {
        if (request.url().endsWith("/more.json")) requests.push(request.url());
      });
      const url = await openDeck(page, "crispr-basics");
      const served = await (await page.request.get(url)).text();
      const html = served.length;
      expect(html).toBeLessThanOrEqual(40 * 1024);
      // The server draws the lists' headings and held room (no layout shift when they come),
      // never their cards: those load from more.json.
      const authorList = served.match(/More from Dr\. Katherine Ito<\/h2>(.*?)<\/ul>/)?.[1] ?? "";
      expect(authorList).toContain("more-card--placeholder");
      expect(authorList).not.toContain("href=");

      const author = page.getByRole("region", { name: "More from Dr. Katherine Ito" });
      const related = page.getByRole("region", { name: "Related presentations" });
      if (width < 768) {
        // Below the fold on a phone: nothing is fetched until the visitor scrolls towards it.
        expect(requests).toEqual([]);
        await page.locator(".view-page__side").scrollIntoViewIfNeeded();
      }
      await expect(author.getByRole("link").first()).toBeVisible();
      expect(requests).toHaveLength(1);
      // Only listed decks, never this one.
      const authorLinks = await author
        .getByRole("link")
        .evaluateAll((links) => links.map((l) => l.getAttribute("href")));
      expect(authorLinks.length).toBeGreaterThan(0);
      expect(authorLinks.some((href) => href?.includes("crispr-basics"))).toBe(false);
      await expect(related.getByRole("link").first()).toBeVisible();

      // Before the promotional cards, in the page's order.
      const order = await page.evaluate(() =>
        [...document.querySelectorAll(".view-page__side h2")].map((h) => h.textContent ?? ""),
      );
      expect(order.slice(0, 3)).toEqual(["More from Dr. Katherine Ito", "Related presentations", "Videos"]);

      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      console.log(`view page at ${width} px: ${height} px tall, ${html} bytes of HTML`);
      if (width === 1440) expect(height).toBeLessThan(2600); // was 4,438 px before issue 12
      expect(scrollWidth).toBeLessThanOrEqual(width);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `e2e/screenshots/view-page-calmer-${width}.png`, fullPage: true });
    });
  }
});
