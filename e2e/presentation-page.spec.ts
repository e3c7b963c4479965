import { axeViolations, expect, sitemapPresentationUrls, test, waitForHydration } from "./support";

test.describe("public view page", () => {
  test("R2.15 R3.1 a demo presentation shows its title, owner, date, description and transcript, and hydrates", async ({
    page,
  }) => {
    const urls = await sitemapPresentationUrls(page);
    expect(urls.length).toBeGreaterThanOrEqual(30);
    const target = urls.find((url) => url.includes("sourdough-basics")) ?? urls[0] ?? "";
    const response = await page.goto(target);
    expect(response?.status()).toBe(200);
    await waitForHydration(page);

    await expect(page.getByRole("heading", { level: 1, name: "Sourdough Basics" })).toBeVisible();
    // Tim has a public display name; it is shown instead of his first and last name.
    await expect(page.getByRole("link", { name: "Tim from Brandt Studio", exact: true })).toHaveAttribute(
      "href",
      /^\/user\/[a-z0-9]{12}\/$/,
    );
    await expect(page.locator(".toolbar-card").getByText(/^Last modified /)).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: "Transcript" })).toBeVisible();
    await expect(page).toHaveTitle("Sourdough Basics · Podium");

    const bootData = await page.locator("#podium-boot").textContent();
    expect(JSON.parse(bootData ?? "{}").data.oid).toMatch(/^[a-z0-9]{12}$/);

    await page.screenshot({ path: "e2e/screenshots/view-page-desktop.png", fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
  });

  test("R2.33 the view page reads well on a phone", async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    const [first] = await sitemapPresentationUrls(page);
    await page.goto(first ?? "/");
    await waitForHydration(page);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: "e2e/screenshots/view-page-mobile.png", fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
  });

  test("R2.3 the logo leads home, and the home page lists presentations a keyboard can open", async ({ page }) => {
    const [first] = await sitemapPresentationUrls(page);
    await page.goto(first ?? "/");
    await waitForHydration(page);
    await page.getByRole("link", { name: "Podium home" }).click();
    await expect(page).toHaveURL(/\/$/);
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    const cards = page.getByRole("list", { name: "Recently updated" }).getByRole("link");
    expect(await cards.count()).toBeGreaterThanOrEqual(20);
    await page.screenshot({ path: "e2e/screenshots/home.png", fullPage: false });
    expect(await axeViolations(page)).toEqual([]);

    // Keyboard: the skip link comes first, then the logo, Log in, Get started, the search (issue 12), then the cards.
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Podium home" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Log in" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Get started" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("searchbox")).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: "Search", exact: true })).toBeFocused();
    await page.keyboard.press("Tab");
    const focusedHref = await page.evaluate(() =>
      (document.activeElement as HTMLAnchorElement | null)?.getAttribute("href"),
    );
    expect(focusedHref).toMatch(/^\/p\/[a-z0-9]{12}\//);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/p\/[a-z0-9]{12}\//);
    await waitForHydration(page);
  });

  test("an unknown presentation is a real 404 page", async ({ page, consoleProblems }) => {
    const response = await page.goto("/p/zzzzzzzzzzzz/");
    expect(response?.status()).toBe(404);
    // Chromium reports the document's own 404 status on the console; that one is expected.
    const expected = consoleProblems.findIndex((p) => p.includes("status of 404"));
    if (expected >= 0) consoleProblems.splice(expected, 1);
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Go to the Podium home page" })).toBeVisible();
    await page.screenshot({ path: "e2e/screenshots/not-found.png" });
    expect(await axeViolations(page)).toEqual([]);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the view page still shows the title and the presentation's text", async ({ page }) => {
    const urls = await sitemapPresentationUrls(page);
    await page.goto(urls.find((url) => url.includes("the-water-cycle")) ?? "");
    await expect(page.getByRole("heading", { level: 1, name: "The Water Cycle" })).toBeVisible();
    const transcript = page.locator(".transcript");
    await expect(transcript).toContainText("Evaporation");
    expect((await transcript.innerText()).length).toBeGreaterThan(500);
  });
});
