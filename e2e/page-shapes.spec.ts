import type { Page } from "@playwright/test";
import { stageView } from "./helpers";
import { axeViolations, expect, type ShapedDecks, sitemapPresentationUrls, test, waitForHydration } from "./support";

/**
 * Issue 28, item 2 "Every page shape, every screen", Done when: a portrait PDF deck, a square deck
 * and a 16:9 deck (and a deck of mixed shapes) each show exactly one page filling the stage at 375
 * and 1440 px, in full screen and embedded; screenshots in e2e/screenshots/page-shapes-*.png.
 *
 * Issue 29: the tests only look (the decks are imported once per worker by the `shapedDecks`
 * fixture), so they run in parallel over the workers. Each test loads its deck once at its own
 * screen size and looks at the view page, full screen and the embed from that load.
 */
test.describe.configure({ mode: "parallel" });

const WIDTHS = [
  { width: 375, height: 667 },
  { width: 1440, height: 900 },
];
/** A page fills the stage when it takes this share of the stage's width or height (the rest is bars). */
const FILLS = 0.97;

interface Deck {
  name: string;
  url: string;
  /** Steps to look at (1-based). */
  steps: number[];
  /** Every page has the stage's shape (a mixed deck's others fit with bars beside or above them). */
  uniform: boolean;
}

/**
 * The decks, from the worker's `shapedDecks` (imported once per worker, shared with
 * e2e/width-sweep.spec.ts) and the Markdown demo deck from the sitemap.
 */
async function theDecks(page: Page, shapedDecks: ShapedDecks): Promise<Deck[]> {
  const urls = await sitemapPresentationUrls(page);
  const sixteenNine = new URL(urls.find((url) => url.includes("sourdough-basics")) ?? "").pathname;
  return [
    { name: "portrait-pdf", url: shapedDecks.portrait.url, steps: [1, 2], uniform: true },
    { name: "square-pdf", url: shapedDecks.square.url, steps: [1, 2], uniform: true },
    // The Markdown demo deck is classic: its first step is the overview of all its slides.
    { name: "16-9-markdown", url: sixteenNine, steps: [2, 3], uniform: true },
    { name: "mixed-pdf", url: shapedDecks.mixed.url, steps: [1, 2, 3, 4, 5], uniform: false },
  ];
}

/** One page, whole, filling the stage's width or height, nothing of another page beside it. */
async function expectOnePageFilling(page: Page, where: string) {
  const viewer = page.locator(".viewer");
  await expect(viewer).toHaveAttribute("data-camera", "settled");
  // Right after a step's click the flag may still be the last step's "settled": wait for the camera
  // to have arrived (the page inside the stage, no other beside it), then look.
  await expect
    .poll(async () => {
      // Mid-move the stage's centre may show no page yet: not there yet, so try again.
      const now = await stageView(page).catch(() => null);
      return now?.inside === true && now.others.length === 0;
    })
    .toBe(true)
    .catch(() => undefined);
  const view = await stageView(page);
  const described = `${where}: ${JSON.stringify(view)}`;
  expect(view.others, described).toEqual([]);
  expect(view.inside, described).toBe(true);
  expect(Math.max(view.widthShare, view.heightShare), described).toBeGreaterThanOrEqual(FILLS);
  expect(view.pageWidth, described).toBeLessThanOrEqual(view.viewportWidth);
  return view;
}

async function goToStep(page: Page, step: number) {
  const viewer = page.locator(".viewer");
  while (Number(await viewer.getAttribute("data-current-step")) < step) {
    const before = Number(await viewer.getAttribute("data-current-step"));
    await page.getByRole("button", { name: "Next step" }).click();
    await expect(viewer).toHaveAttribute("data-current-step", String(before + 1));
  }
}

for (const size of WIDTHS) {
  test.describe(`issue 28 every page shape at ${size.width} px`, () => {
    test.use({ viewport: size });
    for (const name of ["portrait-pdf", "square-pdf", "16-9-markdown", "mixed-pdf"]) {
      test(`issue 28 the ${name} deck shows one page filling the stage in the view page, full screen and the embed`, async ({
        page,
        shapedDecks,
      }) => {
        test.setTimeout(120_000);
        const deck = (await theDecks(page, shapedDecks)).find((candidate) => candidate.name === name);
        if (!deck) throw new Error(`no deck ${name}`);
        const shot = (where: string) => `e2e/screenshots/page-shapes-${name}-${size.width}-${where}.png`;

        // The view page: its width is the screen's, and the player, poster and all, is the page's shape.
        await page.goto(deck.url);
        await waitForHydration(page);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
        const player = await page.locator(".player").boundingBox();
        if (!player) throw new Error("no player");
        // The whole player (its control bar too) fits in the screen's height.
        expect(player.height).toBeLessThanOrEqual(size.height);
        if (size.width >= 768) expect(player.y + player.height).toBeLessThanOrEqual(size.height);
        await page.screenshot({ path: shot("poster") });
        await page.getByRole("button", { name: "Present", exact: true }).click();
        await expect(page.locator(".player")).toHaveAttribute("data-player-state", "playing");
        for (const step of deck.steps) {
          await goToStep(page, step);
          const view = await expectOnePageFilling(page, `view page, step ${step}`);
          // A deck of one shape fills the phone's whole width (issue 12's 16:9 did; now every shape).
          if (deck.uniform && size.width < 768) expect(view.widthShare).toBeGreaterThanOrEqual(FILLS);
          await page.screenshot({ path: shot(`view-step-${step}`) });
        }
        expect(await axeViolations(page)).toEqual([]);

        // Full screen: the same, on the whole screen.
        await page.getByRole("button", { name: "Full screen" }).click();
        await page.waitForFunction(() => document.fullscreenElement !== null);
        await expect
          .poll(async () => (await page.locator(".viewer__stage").boundingBox())?.height ?? 0)
          .toBeGreaterThan(size.height * 0.8);
        for (const step of [...deck.steps].reverse()) {
          const viewer = page.locator(".viewer");
          if (Number(await viewer.getAttribute("data-current-step")) > step) {
            await page.getByRole("button", { name: "Previous step" }).click();
            await expect(viewer).toHaveAttribute("data-current-step", String(step));
          }
          await expectOnePageFilling(page, `full screen, step ${step}`);
          await page.screenshot({ path: shot(`fullscreen-step-${step}`) });
        }
        await page.getByRole("button", { name: "Exit full screen" }).click();
        await page.waitForFunction(() => document.fullscreenElement === null);

        // The embed page: the player is the whole frame.
        const oid = /\/p\/([a-z0-9]{12})\//.exec(new URL(page.url()).pathname)?.[1] ?? "";
        await page.goto(`/p/embed/${oid}/`);
        await waitForHydration(page);
        await page.screenshot({ path: shot("embed-poster") });
        await page.getByRole("button", { name: "Present", exact: true }).click();
        await expect(page.locator(".player")).toHaveAttribute("data-player-state", "playing");
        await goToStep(page, deck.steps[0] ?? 1);
        await expectOnePageFilling(page, "embed");
        await page.screenshot({ path: shot("embed") });
        expect(await axeViolations(page)).toEqual([]);
      });
    }
  });
}
