import { createServer } from "node:http";
import { devices, type Locator, type Page } from "@playwright/test";
import { openDeck, recordNativeShares, sharedData, stageView } from "./helpers";
import { axeViolations, expect, logIn, test, waitForHydration } from "./support";

/**
 * Issue 12: the view page on phones and tablets. Mobile is the viewport narrower than 768 px
 * (spec §9), not the user agent; the cookie bar, the share modal, the phone's player and the
 * embed code.
 */

const VIEW_LINK = "/view/demo-view-link-kitchen-renovation/";

const toolbarRight = (page: Page) => page.locator(".toolbar__group--right");

/** Asserts the desktop toolbar: embed, share and report, no phone call to action. */
async function expectDesktopToolbar(page: Page): Promise<void> {
  const right = toolbarRight(page);
  await expect(right.getByRole("button", { name: "Embed" })).toBeVisible();
  await expect(right.getByRole("button", { name: "Share" })).toBeVisible();
  await expect(right.getByRole("link", { name: /^Report/ })).toBeVisible();
  await expect(right.getByRole("link", { name: "Get started" })).toBeHidden();
}

/** Asserts the phone toolbar of a logged-out visitor: one call to action on the right (R2.17). */
async function expectPhoneToolbar(page: Page): Promise<void> {
  const right = toolbarRight(page);
  await expect(right.getByRole("link", { name: "Get started" })).toBeVisible();
  await expect(right.getByRole("button")).toHaveCount(0);
  await expect(right.getByRole("link")).toHaveCount(1);
  // On the toolbar's right, also when it wraps under the likes (issue 28: at 320–390 px it sat at the left).
  const cta = await right.getByRole("link", { name: "Get started" }).boundingBox();
  const toolbar = await page.locator(".toolbar").first().boundingBox();
  if (!cta || !toolbar) throw new Error("no toolbar");
  expect(cta.x + cta.width).toBeGreaterThan(toolbar.x + toolbar.width - 2);
}

test.describe("issue 12: the toolbar follows the viewport, not the user agent", () => {
  test.describe("an iPad in landscape", () => {
    const { userAgent, deviceScaleFactor, isMobile, hasTouch } = devices["iPad Pro 11 landscape"];
    test.use({ userAgent, deviceScaleFactor, isMobile, hasTouch, viewport: { width: 1180, height: 820 } });

    test("R2.16 R2.33 an iPad at 1180 px gets the desktop toolbar: embed, share and report", async ({ page }) => {
      await openDeck(page, "sourdough");
      expect(await page.evaluate(() => window.innerWidth)).toBe(1180);
      await expectDesktopToolbar(page);
      await page.locator(".toolbar-card").screenshot({ path: "e2e/screenshots/ipad-1180-toolbar.png" });
      // The share button opens the modal: mobile's native share sheet is for phones only (R7.10).
      await toolbarRight(page).getByRole("button", { name: "Share" }).click();
      await expect(page.getByRole("dialog", { name: "Share" })).toBeVisible();
    });
  });

  test("R2.17 at 320, 360 and 390 px the one call to action is on the toolbar's right", async ({ page }) => {
    for (const width of [320, 360, 390]) {
      await page.setViewportSize({ width, height: 800 });
      await openDeck(page, "sourdough");
      await expectPhoneToolbar(page);
    }
    await page.locator(".toolbar").first().screenshot({ path: "e2e/screenshots/phone-320-toolbar.png" });
  });

  test("R2.17 R2.33 a desktop browser at 600 px gets the phone toolbar: one call to action", async ({ page }) => {
    await page.setViewportSize({ width: 600, height: 900 });
    await openDeck(page, "sourdough");
    await expectPhoneToolbar(page);
    expect(await axeViolations(page)).toEqual([]);
  });

  test("R2.17 R6.3 R7.10 resizing across 768 px switches the toolbar, Make a copy and the share sheet", async ({
    page,
  }) => {
    await recordNativeShares(page);
    await page.setViewportSize({ width: 1000, height: 900 });
    await openDeck(page, "sourdough");
    await expectDesktopToolbar(page);
    await page.setViewportSize({ width: 767, height: 900 });
    await expectPhoneToolbar(page);
    await page.setViewportSize({ width: 768, height: 900 });
    await expectDesktopToolbar(page);

    // Signed in: Make a copy (a reusable deck) is desktop only; Share is the phone's sheet below 768 px.
    await logIn(page, "alan@podium.test");
    await page.setViewportSize({ width: 1000, height: 900 });
    const url = await openDeck(page, "accessibility-basics");
    await expect(page.getByRole("button", { name: "Make a copy" })).toBeVisible();
    await page.setViewportSize({ width: 700, height: 900 });
    await expect(page.getByRole("button", { name: "Make a copy" })).toBeHidden();
    await toolbarRight(page).getByRole("button", { name: "Share" }).click();
    await expect
      .poll(() => sharedData(page))
      .toEqual([{ title: await page.locator("#presentation-title").innerText(), url }]);
    await expect(page.getByRole("dialog", { name: "Share" })).toBeHidden();
    await page.setViewportSize({ width: 1000, height: 900 });
    await expect(page.getByRole("button", { name: "Make a copy" })).toBeVisible();
    await toolbarRight(page).getByRole("button", { name: "Share" }).click();
    await expect(page.getByRole("dialog", { name: "Share" })).toBeVisible();
  });

  test("issue 28 signed in at 1440 px the toolbar is one row, each action named under its icon, Make a copy included", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await logIn(page, "grace@podium.test");
    // A reusable deck (it has Make a copy: the most actions a visitor gets) and an ordinary one.
    for (const slugPart of ["accessibility", "sourdough"]) {
      await openDeck(page, slugPart);
      if (slugPart === "accessibility")
        await expect(toolbarRight(page).getByRole("button", { name: "Make a copy" })).toBeVisible();
      const groups = await page
        .locator(".toolbar__group")
        .evaluateAll((elements) => elements.map((element) => Math.round(element.getBoundingClientRect().top)));
      expect(new Set(groups).size, `${slugPart}: one row`).toBe(1);
      for (const label of await toolbarRight(page).locator(".toolbar__action .toolbar__label").all()) {
        expect((await label.boundingBox())?.width ?? 0).toBeGreaterThan(20);
      }
    }
    await page.locator(".toolbar-card").screenshot({ path: "e2e/screenshots/signed-in-toolbar-1440.png" });
    expect(await axeViolations(page)).toEqual([]);
  });

  test.describe("signed in on a phone", () => {
    const { userAgent, deviceScaleFactor, isMobile, hasTouch } = devices["iPhone SE"];
    test.use({ userAgent, deviceScaleFactor, isMobile, hasTouch, viewport: { width: 320, height: 568 } });

    test("R2.16 R2.18 the action row fits one line from 320 to 767 px: icons named for screen readers, by keyboard", async ({
      page,
    }) => {
      await logIn(page, "alan@podium.test");
      await openDeck(page, "sourdough");
      const right = toolbarRight(page);
      const actions = [
        right.getByRole("button", { name: "Embed" }),
        right.getByRole("button", { name: "Share" }),
        right.getByRole("link", { name: "Report (opens in a new tab)" }),
        right.getByRole("link", { name: "Create your own" }),
      ];
      for (const width of [320, 375, 480, 600, 767]) {
        await page.setViewportSize({ width, height: 568 });
        const tops = new Set<number>();
        for (const action of actions) {
          await expect(action).toBeVisible();
          const box = await action.boundingBox();
          if (!box) throw new Error("an action has no box");
          tops.add(Math.round(box.y));
          // A target big enough for a thumb (WCAG 2.5.8 asks 24 px).
          expect(box.width, `${width} px`).toBeGreaterThanOrEqual(39.5);
          // Issue 28: each icon has its name beside it, not only for screen readers.
          const label = await action.locator(".toolbar__label").boundingBox();
          expect(label?.width ?? 0, `${width} px: a visible name`).toBeGreaterThan(20);
          expect(box.x + box.width, `${width} px`).toBeLessThanOrEqual(width - 24);
        }
        expect([...tops], `one line at ${width} px`).toHaveLength(1);
        // Inside its card (the header's width at these sizes is another item of issue 12).
        const overflow = await page.locator(".toolbar-card").evaluate((card) => card.scrollWidth - card.clientWidth);
        expect(overflow, `${width} px`).toBeLessThanOrEqual(0);
      }
      await page.setViewportSize({ width: 320, height: 568 });
      await page.locator(".toolbar").screenshot({ path: "e2e/screenshots/phone-toolbar-320.png" });
      expect(await axeViolations(page)).toEqual([]);

      // By keyboard: from Like, Tab reaches Embed, and Enter opens its dialog.
      await right.page().locator(".toolbar__group--left").getByRole("button", { name: /^Like/ }).focus();
      await page.keyboard.press("Tab");
      await expect(actions[0] as Locator).toBeFocused();
      await page.keyboard.press("Enter");
      await expect(page.getByRole("dialog", { name: "Embed" })).toBeVisible();
    });
  });
});

test.describe("issue 12: the cookie bar never covers the main action", () => {
  test.use({ cookieChoice: null });

  /** Whether the point at the centre of the element hits the element itself (nothing covers it). */
  async function uncovered(locator: Locator): Promise<boolean> {
    return locator.evaluate((element) => {
      const box = element.getBoundingClientRect();
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return hit !== null && element.contains(hit);
    });
  }

  for (const { width, height, profile } of [
    { width: 375, height: 667, profile: "phone" },
    { width: 667, height: 375, profile: "phone in landscape" },
    { width: 1440, height: 900, profile: "desktop" },
  ]) {
    test(`R4.12 at ${width}×${height} (${profile}) the bar is slim and Present stays uncovered, on the view page and the view-link page`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height });
      const bar = page.getByRole("region", { name: "Cookie choices" });
      for (const where of ["view page", "view-link page"]) {
        if (where === "view page") await openDeck(page, "sourdough");
        else {
          await page.goto(VIEW_LINK);
          await waitForHydration(page);
        }
        await expect(bar).toBeVisible();
        const barBox = await bar.boundingBox();
        if (!barBox) throw new Error("no cookie bar box");
        // Along the bottom edge, and slim: at most a quarter of a 667 px phone screen.
        expect(barBox.y + barBox.height).toBeCloseTo(height, 0);
        expect(barBox.height, where).toBeLessThanOrEqual(Math.min(height, 667) * 0.25);
        const present = page.getByRole("button", { name: /Present/ }).first();
        await present.scrollIntoViewIfNeeded();
        await expect(present).toBeVisible();
        expect(await uncovered(present), `Present on the ${where}`).toBe(true);
        // The page ends above the bar: its last line scrolls clear of it.
        const padding = await page.evaluate(() => Number.parseFloat(getComputedStyle(document.body).paddingBottom));
        expect(Math.abs(padding - barBox.height), where).toBeLessThan(1);
        await page.screenshot({ path: `e2e/screenshots/cookie-bar-${where.replace(/ /g, "-")}-${width}.png` });
      }
      expect(await axeViolations(page)).toEqual([]);
      // Once chosen, the bar and its padding go.
      await bar.getByRole("button", { name: "Necessary only" }).click();
      await expect(bar).toBeHidden();
      expect(await page.evaluate(() => getComputedStyle(document.body).paddingBottom)).toBe("0px");
    });
  }
});

test.describe("issue 12: the share modal", () => {
  test("R9.4 R4.7 is 500×300 at desktop width, and its Link copied tooltip shows whole inside it", async ({
    page,
    context,
    baseURL,
  }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
    await page.setViewportSize({ width: 1440, height: 900 });
    await openDeck(page, "sourdough");
    await toolbarRight(page).getByRole("button", { name: "Share" }).click();
    const dialog = page.getByRole("dialog", { name: "Share" });
    await expect(dialog).toBeVisible();
    const box = await dialog.boundingBox();
    expect(box?.width).toBeCloseTo(500, 0);
    expect(box?.height).toBeCloseTo(300, 0);
    await dialog.getByRole("button", { name: "Copy" }).click();
    await expectTooltipInside(page);
    await page.screenshot({ path: "e2e/screenshots/share-modal-1440.png" });
    expect(await axeViolations(page)).toEqual([]);
  });

  test("R9.4 fits a 320 px screen, tooltip included", async ({ page, context, baseURL }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
    await logIn(page, "alan@podium.test");
    await page.setViewportSize({ width: 320, height: 568 });
    await openDeck(page, "sourdough");
    await toolbarRight(page).getByRole("button", { name: "Embed" }).focus();
    // Signed in at 320 px with no native share sheet: Share opens the modal.
    await toolbarRight(page).getByRole("button", { name: "Share" }).click();
    const dialog = page.getByRole("dialog", { name: "Share" });
    await expect(dialog).toBeVisible();
    const box = await dialog.boundingBox();
    if (!box) throw new Error("no dialog box");
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(320);
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(568);
    await dialog.getByRole("button", { name: "Copy" }).click();
    await expectTooltipInside(page);
    await page.screenshot({ path: "e2e/screenshots/share-modal-320.png" });
  });

  async function expectTooltipInside(page: Page): Promise<void> {
    const tooltip = page.getByRole("status").filter({ hasText: "Link copied to the clipboard" });
    await expect(tooltip).toBeVisible();
    const result = await tooltip.evaluate((element) => {
      const tip = element.getBoundingClientRect();
      const dialog = (element.closest("dialog") as HTMLElement).getBoundingClientRect();
      const hit = document.elementFromPoint(tip.left + tip.width / 2, tip.top + tip.height / 2);
      return {
        inside:
          tip.left >= dialog.left && tip.right <= dialog.right && tip.top >= dialog.top && tip.bottom <= dialog.bottom,
        hitsItself: hit !== null && element.contains(hit),
      };
    });
    expect(result).toEqual({ inside: true, hitsItself: true });
  }
});

test.describe("issue 12: the phone's player shows one slide", () => {
  const { userAgent, deviceScaleFactor, isMobile, hasTouch } = devices["iPhone 8"];
  test.use({ userAgent, deviceScaleFactor, isMobile, hasTouch, viewport: { width: 375, height: 667 } });

  for (const where of ["view page", "view-link page"]) {
    test(`one slide fills the width with nothing else around it, tap and swipe move, and so in full screen (${where})`, async ({
      page,
    }) => {
      if (where === "view page") await openDeck(page, "sourdough");
      else {
        await page.goto(VIEW_LINK);
        await waitForHydration(page);
      }
      await page
        .getByRole("button", { name: /Present/ })
        .first()
        .click();
      const viewer = page.locator(".viewer");
      await expect(viewer).toHaveAttribute("data-camera", "settled");
      // Tap moves on (to a slide of its own: the classic deck's first step is its overview).
      await page.locator(".viewer__stage").tap();
      await expect(viewer).toHaveAttribute("data-current-step", "2");
      // "settled" may still be the overview's until the camera sets off: wait for the slide to fill the width.
      await expect
        .poll(async () => {
          // Mid-move the stage's centre may fall between pages: not there yet.
          const shown = await stageView(page).catch(() => null);
          return shown ? shown.page.width / shown.viewportWidth : 0;
        })
        .toBeGreaterThanOrEqual(0.9);
      await expect(viewer).toHaveAttribute("data-camera", "settled");
      const view = await stageView(page);
      expect(view.page.width / view.viewportWidth).toBeGreaterThanOrEqual(0.9);
      expect(view.others).toEqual([]);
      await page.screenshot({ path: `e2e/screenshots/phone-player-${where.replace(/ /g, "-")}-375.png` });

      // A swipe to the left moves on, as before.
      const stage = await page.locator(".viewer__stage").boundingBox();
      if (!stage) throw new Error("no stage box");
      const y = stage.y + stage.height / 2;
      await page.mouse.move(stage.x + stage.width * 0.8, y);
      await page.mouse.down();
      await page.mouse.move(stage.x + stage.width * 0.2, y, { steps: 4 });
      await page.mouse.up();
      await expect(viewer).toHaveAttribute("data-current-step", "3");
      await expect(viewer).toHaveAttribute("data-camera", "settled");
      expect((await stageView(page)).others).toEqual([]);

      // Portrait full screen: still one slide, filling the width, no next slides below it.
      await page.getByRole("button", { name: "Full screen" }).click();
      await page.waitForFunction(() => document.fullscreenElement !== null);
      await expect
        .poll(async () => (await page.locator(".viewer__stage").boundingBox())?.height ?? 0)
        .toBeGreaterThan(500);
      await expect(viewer).toHaveAttribute("data-camera", "settled");
      const full = await stageView(page);
      expect(full.page.width / full.viewportWidth).toBeGreaterThanOrEqual(0.9);
      expect(full.others).toEqual([]);
      await page.screenshot({ path: `e2e/screenshots/phone-player-fullscreen-${where.replace(/ /g, "-")}-375.png` });
      expect(await axeViolations(page)).toEqual([]);
    });
  }
});

test.describe("issue 12: the embed code", () => {
  test("R2.2 the copied code plays in a host page on another origin, full screen allowed, without a console warning", async ({
    page,
    consoleProblems,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await openDeck(page, "crispr");
    await toolbarRight(page).getByRole("button", { name: "Embed" }).click();
    const code = await page.getByRole("dialog", { name: "Embed" }).getByRole("textbox", { name: /code/i }).inputValue();
    expect(code).toContain('allow="autoplay; fullscreen"');
    expect(code).not.toContain("allowfullscreen");
    const host = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(`<!doctype html><html lang="en"><title>A blog</title><h1>A blog post</h1>${code}`);
    });
    await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
    try {
      const address = host.address();
      await page.goto(`http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/post`);
      const frame = page.frameLocator("iframe");
      await expect(frame.locator("html")).toHaveAttribute("data-hydrated", "true");
      await frame
        .getByRole("button", { name: /Present/ })
        .first()
        .click();
      await expect(frame.locator(".player")).toHaveAttribute("data-player-state", "playing");
      await frame.getByRole("button", { name: "Full screen" }).click();
      await expect(frame.getByRole("button", { name: "Exit full screen" })).toBeVisible();
      // The host page's console stays clean (the fixture fails the test on any warning too).
      expect(consoleProblems).toEqual([]);
    } finally {
      host.close();
    }
  });
});
