import { deckUrl, holdRequests, layoutShift, oidOf, recordLayoutShifts } from "./helpers";
import { axeViolations, expect, test, waitForHydration } from "./support";

/** Issue 11: an anonymous view page's HTML, raw, with the cookie choice made. */
const VIEW_PAGE_BUDGET_BYTES = 40 * 1024;
/** The sidebar's rows load when it comes within this distance of the viewport (sidebar-rows.ts). */
const LOAD_AHEAD_PX = 600;
const SEE_MORE: [string, string][] = [
  ["See more videos", "/video/explore/"],
  ["See more templates", "/presentation-template/"],
  ["See staff picks", "/gallery/"],
];

test.describe("issue 11: the sidebar's promotional rows load after the page", () => {
  for (const width of [375, 1440]) {
    test(`issue 11 R2.15 R9.10 at ${width} px: no promotional card in the HTML (within 40 KB); near the viewport the rows come (10 videos, 15 templates, picks without this deck) without a layout shift`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
      await recordLayoutShifts(page);
      const url = await deckUrl(page, "personal-computing-one-year-per-slide");
      const oid = oidOf(url);

      // The server's page: within budget, no card, and plain links to the catalogue pages.
      const html = await (await page.request.get(url)).text();
      expect(Buffer.byteLength(html)).toBeLessThanOrEqual(VIEW_PAGE_BUDGET_BYTES);
      expect(html).not.toContain("sidebar-card");
      for (const [, href] of SEE_MORE) expect(html).toContain(`class="sidebar__more" href="${href}"`);

      const held = await holdRequests(page, "**/sidebar.json");
      await page.goto(url);
      await waitForHydration(page);
      const sidebar = page.getByRole("complementary", { name: "More to explore" });
      const sidebarTop = await sidebar.evaluate((aside) => aside.getBoundingClientRect().top);
      if (width >= 992) {
        // Beside the deck: asked for at once.
        await expect.poll(() => held.requests).toEqual([`/p/${oid}/sidebar.json`]);
      } else {
        // Below the transcript on a phone: not asked for until the visitor scrolls near it.
        expect(sidebarTop).toBeGreaterThan(812 + LOAD_AHEAD_PX);
        expect(held.requests).toEqual([]);
        await page.mouse.wheel(0, sidebarTop - 812 - LOAD_AHEAD_PX + 200);
        await expect.poll(() => held.requests).toEqual([`/p/${oid}/sidebar.json`]);
      }
      // While it loads: each row's room is held, quietly.
      await expect(sidebar).toHaveAttribute("data-state", "loading");
      await expect(sidebar.locator(".sidebar__placeholder")).toHaveCount(3);
      // The author's and related decks above it come first (their own loading isn't measured here).
      await sidebar.locator("#sidebar-videos").scrollIntoViewIfNeeded();
      await expect(page.locator(".more-decks")).toHaveAttribute("data-state", "loaded");
      await sidebar.locator("#sidebar-videos").scrollIntoViewIfNeeded();
      await sidebar.screenshot({ path: `e2e/screenshots/sidebar-rows-loading-${width}.png` });
      const placeholders = await sidebar
        .locator(".sidebar__placeholder")
        .evaluateAll((boxes) => boxes.map((box) => box.getBoundingClientRect().height));
      const before = await layoutShift(page);

      held.release();
      const videos = sidebar.getByRole("list", { name: "Videos" });
      const templates = sidebar.getByRole("list", { name: "Templates" });
      const picks = sidebar.getByRole("list", { name: "Staff picks" });
      await expect(videos.getByRole("link")).toHaveCount(10);
      await expect(templates.getByRole("link")).toHaveCount(15);
      const pickLinks = await picks.getByRole("link").evaluateAll((links) => links.map((l) => l.getAttribute("href")));
      expect(pickLinks.length).toBeGreaterThan(0);
      expect(pickLinks.some((href) => href?.includes(oid))).toBe(false);
      await expect(sidebar).toHaveAttribute("data-state", "loaded");
      // Each row is exactly as tall as its placeholder was.
      const rows = await sidebar
        .locator(".sidebar__cards")
        .evaluateAll((lists) => lists.map((list) => list.getBoundingClientRect().height));
      expect(rows).toEqual(placeholders);
      // R9.10: the thumbnails in view load (an <img> of the box's size), the ones far along the row wait.
      const first = videos.locator("[data-src]").first();
      await expect(first).toHaveAttribute("data-loaded", "true");
      await expect.poll(() => first.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
      expect(await layoutShift(page)).toBeLessThan(before + 0.02);
      console.log(`sidebar rows at ${width} px: layout shift while loading ${(await layoutShift(page)) - before}`);

      expect(await axeViolations(page)).toEqual([]);
      await sidebar.screenshot({ path: `e2e/screenshots/sidebar-rows-${width}.png` });
    });
  }

  test("issue 11 a failed load says so with Retry (keyboard too); Retry brings the rows, and a card logs its opening", async ({
    page,
    consoleProblems,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    const url = await deckUrl(page, "crispr-basics");
    let failures = 1;
    await page.route("**/sidebar.json", async (route) => {
      if (failures-- > 0) await route.fulfill({ status: 503, contentType: "application/json", body: "{}" });
      else await route.continue();
    });
    const events: { body?: { event_name?: string } }[] = [];
    await page.route("**/log/json", async (route) => {
      events.push(...JSON.parse(route.request().postDataBuffer()?.toString("utf8") ?? "[]"));
      await route.continue();
    });
    await page.goto(url);
    await waitForHydration(page);
    const sidebar = page.getByRole("complementary", { name: "More to explore" });
    const alert = sidebar.getByRole("alert");
    await expect(alert).toContainText("These suggestions couldn't be loaded.");
    // The catalogue pages stay one link away.
    for (const [name, href] of SEE_MORE)
      await expect(sidebar.getByRole("link", { name })).toHaveAttribute("href", href);
    expect(await axeViolations(page)).toEqual([]);
    await sidebar.screenshot({ path: "e2e/screenshots/sidebar-rows-error.png" });

    await alert.getByRole("button", { name: "Retry" }).focus();
    await page.keyboard.press("Enter");
    await expect(sidebar.getByRole("list", { name: "Templates" }).getByRole("link")).toHaveCount(15);
    await expect(alert).toHaveCount(0);
    await expect(sidebar).toBeFocused();

    // The browser reports the failed request itself: that one is expected.
    consoleProblems.splice(0, consoleProblems.length, ...consoleProblems.filter((p) => !p.includes("503")));

    await sidebar.getByRole("list", { name: "Templates" }).getByRole("link").first().click();
    await expect(page).toHaveURL(/\/presentation-template\/[a-z0-9-]+\/$/);
    expect(events.find((event) => event.body?.event_name === "presentation_card_opened")?.body).toMatchObject({
      card_type: "TEMPLATE",
    });
  });

  test("issue 11 without JavaScript the sidebar is its headings and plain links to the catalogue pages", async ({
    browser,
    baseURL,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
    await context.addCookies([{ name: "podium_cookie_consent", value: "necessary", url: baseURL ?? "" }]);
    const page = await context.newPage();
    await page.goto(await deckUrl(page, "sourdough-basics"));
    const sidebar = page.getByRole("complementary", { name: "More to explore" });
    await expect(sidebar.getByRole("heading", { level: 2 })).toHaveText(["Videos", "Templates", "Staff picks"]);
    // No room held for rows that won't come.
    for (const box of await sidebar.locator(".sidebar__placeholder").all()) await expect(box).toBeHidden();
    for (const [name, href] of SEE_MORE) {
      await sidebar.getByRole("link", { name }).click();
      await expect(page).toHaveURL(href);
      await page.goBack();
    }
    await context.close();
  });

  test("issue 11 /p/{oid}/sidebar.json is shared and cacheable like more.json, and kept by the page cache", async ({
    page,
  }) => {
    const url = await deckUrl(page, "sourdough-basics");
    const path = `/p/${oidOf(url)}/sidebar.json`;
    const first = await page.request.get(path);
    expect(first.status()).toBe(200);
    expect(first.headers()["content-type"]).toMatch(/^application\/json/);
    expect(first.headers()["cache-control"]).toBe("public, max-age=0, s-maxage=60, stale-while-revalidate=600");
    const body = await first.json();
    expect(body.sidebar.videos).toHaveLength(10);
    expect(body.sidebar.templates).toHaveLength(15);
    const second = await page.request.get(path);
    expect(second.headers()["podium-cache"]).toMatch(/^(hit|stale)$/);
    console.log(`sidebar.json: ${(await first.body()).byteLength} bytes`);
    expect((await page.request.get("/p/zzzzzzzzzzzz/sidebar.json")).status()).toBe(404);
  });
});
