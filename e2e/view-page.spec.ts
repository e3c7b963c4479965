import { openDeck } from "./helpers";
import {
  axeViolations,
  expect,
  logIn,
  recordUsageEvents,
  sitemapPresentationUrls,
  test,
  usageEvent,
  waitForHydration,
} from "./support";

test.describe("the public view page, complete", () => {
  test("R2.4 R2.5 R2.22 header: the placeholder states the real count; Enter searches; trending terms; empty → explore", async ({
    page,
  }) => {
    const urls = await sitemapPresentationUrls(page);
    await openDeck(page, "sourdough-basics");
    const search = page.getByRole("combobox", { name: /^Search [0-9,]+ presentations$/ });
    await expect(search).toHaveAttribute("placeholder", `Search ${urls.length} presentations`);
    await search.fill("water cycle");
    await search.press("Enter");
    await expect(page).toHaveURL("/explore/search/?search=water%20cycle");
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Results for “water cycle”");
    await expect(
      page.getByRole("list", { name: "Search results" }).getByRole("link", { name: /The Water Cycle/ }),
    ).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: "e2e/screenshots/search-results.png" });

    await page.getByRole("combobox", { name: /^Search [0-9,]+ presentations$/ }).fill("");
    await page.getByRole("combobox", { name: /^Search [0-9,]+ presentations$/ }).press("Enter");
    await expect(page).toHaveURL("/explore/");
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1, name: "Explore presentations" })).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);

    const trending = page.getByRole("navigation", { name: "Trending" }).getByRole("link").first();
    const term = (await trending.textContent()) ?? "";
    await trending.click();
    await expect(page).toHaveURL(`/explore/search/?search=${encodeURIComponent(term)}`);
  });

  test("R2.21 on the smallest screens the search is an icon that expands first, then searches", async ({ page }) => {
    await page.setViewportSize({ width: 380, height: 800 });
    await openDeck(page, "sourdough-basics");
    await expect(page.getByRole("combobox", { name: /^Search [0-9,]+ presentations$/ })).toBeHidden();
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL(/\/p\//);
    await expect(page.getByRole("combobox", { name: /^Search [0-9,]+ presentations$/ })).toBeVisible();
    await expect(page.getByRole("button", { name: "Close search" })).toBeVisible();
    await page.getByRole("combobox", { name: /^Search [0-9,]+ presentations$/ }).fill("mars");
    await page.getByRole("combobox", { name: /^Search [0-9,]+ presentations$/ }).press("Enter");
    await expect(page).toHaveURL("/explore/search/?search=mars");
  });

  test("R2.30 R4.7 R7.9 share: four networks in centred popups, the link copied for 3 s, closes on the icon or the background", async ({
    page,
    context,
  }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await context.route("https://**/*", (route) =>
      route.fulfill({ contentType: "text/html", body: "<title>network</title>" }),
    );
    const url = await openDeck(page, "typography-101");
    await page.getByRole("button", { name: "Share" }).click();
    const dialog = page.getByRole("dialog", { name: "Share" });
    await expect(dialog).toBeVisible();
    for (const name of ["Facebook", "LinkedIn", "Twitter", "Google Classroom"]) {
      await expect(dialog.getByRole("button", { name })).toBeVisible();
    }
    const [popup] = await Promise.all([
      page.waitForEvent("popup"),
      dialog.getByRole("button", { name: "Twitter" }).click(),
    ]);
    const shared = new URL(popup.url());
    expect(shared.searchParams.get("url")).toBe(url);
    expect(shared.searchParams.get("text")).toBe("Typography 101");
    expect(shared.searchParams.get("hashtags")).toBeTruthy();
    await popup.close();

    await expect(dialog.getByLabel("Link")).toHaveValue(url);
    await dialog.getByRole("button", { name: "Copy" }).click();
    await expect(dialog.getByRole("button", { name: "Copied" })).toBeDisabled();
    await expect(dialog.getByText("Link copied to the clipboard")).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    await expect(dialog.getByRole("button", { name: "Copy" })).toBeEnabled({ timeout: 5000 });
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: "e2e/screenshots/share-modal.png" });

    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole("button", { name: "Share" }).click();
    await expect(dialog).toBeVisible();
    await page.mouse.click(5, 5);
    await expect(dialog).toBeHidden();
  });

  test("R2.31 R5.1 R4.8 R3.11 embed: 16:9 dimensions, the iframe code, copy then the embed-copy event with product_type", async ({
    page,
    context,
  }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await recordUsageEvents(page);
    await openDeck(page, "crispr");
    await page.getByRole("button", { name: "Embed" }).click();
    const dialog = page.getByRole("dialog", { name: "Embed" });
    // Issue 34: the code is responsive by default; a fixed size is the other choice.
    await expect(dialog.getByRole("textbox", { name: "Code" })).toHaveValue(
      /^<div style="position:relative;width:100%/,
    );
    await dialog.getByRole("radio", { name: "Fixed size" }).check();
    const width = dialog.getByRole("textbox", { name: "Width" });
    const height = dialog.getByRole("textbox", { name: "Height" });
    await expect(width).toHaveValue("560");
    await expect(height).toHaveValue("315");
    await width.fill("1000px");
    await expect(width).toHaveValue("1000");
    await expect(height).toHaveValue("563");
    await height.fill("99999");
    await expect(width).toHaveValue("9999");
    await expect(height).toHaveValue("5624");
    await width.fill("0");
    await expect(height).toHaveValue("");
    await height.fill("360");
    await expect(width).toHaveValue("640");
    const code = dialog.getByRole("textbox", { name: "Code" });
    await expect(code).toHaveValue(
      /<iframe src="http:\/\/127\.0\.0\.1:\d+\/p\/embed\/[a-z0-9]{12}\/" width="640" height="360"/,
    );
    await expect(code).toHaveValue(/allow="autoplay; fullscreen"/);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: "e2e/screenshots/embed-modal.png" });
    await dialog.getByRole("button", { name: "Copy code to clipboard" }).click();
    await expect(dialog.getByRole("button", { name: "Copied!" })).toBeVisible();
    const event = await usageEvent(page, "embed_code_copied");
    expect(event.body).toMatchObject({
      event_name: "embed_code_copied",
      product_type: expect.stringMatching(/^(CLASSIC|NEXT)$/),
    });
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain("<iframe");
  });

  test("R4.9 R9.9 the transcript starts collapsed at 500 px and opens to its full height", async ({ page }) => {
    await recordUsageEvents(page);
    await openDeck(page, "personal-computing");
    // Spec §9: a paged transcript is reported after 1 s.
    await usageEvent(page, "paged_transcript_shown");
    const content = page.locator("#transcript-content");
    await expect(page.getByRole("button", { name: "See full transcript" })).toBeVisible();
    expect((await content.boundingBox())?.height).toBe(500);
    await page.getByRole("button", { name: "See full transcript" }).click();
    await expect(page.getByRole("button", { name: "Hide full transcript" })).toHaveAttribute("aria-expanded", "true");
    await usageEvent(page, "transcript_opened");
    const full = await content.evaluate((el) => el.scrollHeight);
    await expect.poll(async () => (await content.boundingBox())?.height).toBeGreaterThan(full - 1);
    await page.getByRole("button", { name: "Hide full transcript" }).click();
    await expect(page.getByRole("button", { name: "See full transcript" })).toBeVisible();
  });

  test("R2.15 R2.11 R9.10 sidebar: 10 videos, 15 templates, staff picks, lazy thumbnails and See more pages", async ({
    page,
  }) => {
    await openDeck(page, "sourdough-basics");
    await expect(page.getByRole("list", { name: "Videos" }).getByRole("link")).toHaveCount(10);
    await expect(page.getByRole("list", { name: "Templates" }).getByRole("link")).toHaveCount(15);
    expect(await page.getByRole("list", { name: "Staff picks" }).getByRole("link").count()).toBeGreaterThan(0);
    // Issue 12: until it comes near the viewport a thumbnail is an empty box, not an <img> without a src.
    const lastTemplate = page.getByRole("list", { name: "Templates" }).locator("[data-src]").last();
    await expect(lastTemplate).toHaveAttribute("data-loaded", "false");
    expect(await lastTemplate.evaluate((box) => box.tagName)).toBe("SPAN");
    expect((await lastTemplate.boundingBox())?.height).toBeCloseTo(95.63, 1);
    await lastTemplate.scrollIntoViewIfNeeded();
    await expect(lastTemplate).toHaveAttribute("data-loaded", "true");
    expect(await lastTemplate.evaluate((image) => image.tagName)).toBe("IMG");
    expect((await lastTemplate.boundingBox())?.height).toBeCloseTo(95.63, 1);
    await expect.poll(() => lastTemplate.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    const seeMore: [string, string, string][] = [
      ["See more videos", "/video/explore/", "Videos"],
      ["See staff picks", "/gallery/", "Staff picks"],
      ["See more templates", "/presentation-template/", "Templates"],
    ];
    for (const [name, path, heading] of seeMore) {
      await openDeck(page, "sourdough-basics");
      await page.getByRole("link", { name }).click();
      await expect(page).toHaveURL(path);
      await waitForHydration(page);
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
    }
    await page
      .getByRole("link", { name: /Startup Pitch Deck/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/presentation-template\/[a-z0-9-]+\/$/);
    await waitForHydration(page);
    expect(await axeViolations(page)).toEqual([]);
  });

  test("R4.10 R2.3 the video banner closes (not remembered); the bottom band leads to / when logged out", async ({
    page,
  }) => {
    await openDeck(page, "sourdough-basics");
    const banner = page.getByRole("complementary", { name: "Podium Video" });
    await expect(banner.getByRole("link", { name: "Learn more about Podium Video" })).toHaveAttribute("href", "/video");
    await banner.getByRole("button", { name: "Close the banner" }).click();
    await expect(banner).toBeHidden();
    await page.reload();
    await waitForHydration(page);
    await expect(page.getByRole("complementary", { name: "Podium Video" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Learn about Podium" })).toHaveAttribute("href", "/");
    await page.screenshot({ path: "e2e/screenshots/view-page-complete.png", fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
  });

  test("R2.9 R2.18 R2.24 signed in: the name dropdown, Create your own, the band to /product/", async ({ page }) => {
    await logIn(page, "grace@podium.test");
    await openDeck(page, "sourdough-basics");
    const menuButton = page.getByRole("button", { name: "Grace Lindqvist" });
    await menuButton.click();
    await expect(menuButton).toHaveAttribute("aria-expanded", "true");
    await expect(page.getByRole("link", { name: "My dashboard" })).toHaveAttribute(
      "href",
      /^\/dashboard\/next\/\?click_source=/,
    );
    await expect(page.getByRole("link", { name: "Account settings", exact: true })).toHaveAttribute(
      "href",
      /^\/settings\/\?click_source=/,
    );
    await expect(page.getByRole("button", { name: "Log out" })).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await page.mouse.click(5, 400);
    await expect(menuButton).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByRole("link", { name: "Create your own" })).toHaveAttribute("href", "/dashboard/next/");
    await expect(page.getByRole("link", { name: "Learn about Podium" })).toHaveAttribute("href", "/product/");
  });

  test("R2.10 report in a new tab → moderation queue → an admin hides it → 404 for everyone else", async ({
    page,
    browser,
    consoleProblems,
  }) => {
    const url = await openDeck(page, "chess-openings");
    const report = page.getByRole("link", { name: "Report (opens in a new tab)" });
    await expect(report).toHaveAttribute("target", "_blank");
    const [tab] = await Promise.all([page.waitForEvent("popup"), report.click()]);
    await tab.waitForLoadState();
    await expect(tab).toHaveURL(/\/contact\/abuse\/[a-z0-9]{12}\/$/);
    await expect(tab.locator("html")).toHaveAttribute("data-hydrated", "true");
    expect(await axeViolations(tab)).toEqual([]);
    await tab.getByLabel("Spam or misleading").check();
    await tab.getByLabel("Details (optional)").fill("Advertises a casino on every slide.");
    await tab.getByRole("button", { name: "Send report" }).click();
    await expect(tab.getByRole("heading", { name: "Thank you for your report" })).toBeVisible();
    await tab.close();

    await logIn(page, "ada@podium.test");
    await page.goto("/admin/reports/");
    await waitForHydration(page);
    await expect(page.getByText("Advertises a casino on every slide.")).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Hide presentation" }).first().click();
    await expect(page).toHaveURL("/admin/reports/");
    const stranger = await browser.newContext();
    const response = await (await stranger.newPage()).goto(url);
    expect(response?.status()).toBe(404);
    await stranger.close();
    consoleProblems.splice(0, consoleProblems.length, ...consoleProblems.filter((p) => !p.includes("404")));
  });

  test("R5.5 each visit counts a view (one per usage session per 30 minutes)", async ({ page }) => {
    await openDeck(page, "the-printing-press");
    const views = async () => Number(((await page.locator(".toolbar__views").textContent()) ?? "").replace(/\D/g, ""));
    const before = await views();
    await expect
      .poll(async () => {
        await page.reload();
        await waitForHydration(page);
        return views();
      })
      .toBeGreaterThan(before);
  });

  test("R2.13 R6.3 make a copy of a reusable presentation (desktop, signed in)", async ({ page }) => {
    await logIn(page, "tim@podium.test");
    const sitemap = await (await page.request.get("/sitemap.xml")).text();
    const urls = [...sitemap.matchAll(/<loc>([^<]+\/p\/[^<]+)<\/loc>/g)].map((m) => m[1] ?? "");
    let copyButtonUrl: string | null = null;
    for (const url of urls) {
      await page.goto(url);
      await waitForHydration(page);
      if ((await page.getByRole("button", { name: "Make a copy" }).count()) > 0) {
        copyButtonUrl = url;
        break;
      }
    }
    expect(copyButtonUrl).not.toBeNull();
    await page.getByRole("button", { name: "Make a copy" }).click();
    await expect(page.getByText("Your copy is ready.")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Copy of");
  });
});
