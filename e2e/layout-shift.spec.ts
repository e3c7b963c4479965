import type { Page } from "@playwright/test";
import { expect, sitemapPresentationUrls, test, waitForHydration } from "./support";

/**
 * Issue 30 item 2: nothing that arrives after the first paint moves what is on screen. Each page is
 * loaded as a first-time visitor meets it (the cookie bar showing), then read from top to bottom a
 * screen at a time, so every part that loads as it nears the screen (the author's and related decks,
 * the sidebar's rows, lazy thumbnails) arrives while the visitor looks on. Layout shifts are summed
 * from the first paint on, those right after input excepted, as Chromium reports them (CLS).
 */

/** Issue 30: CLS on the view page, home and explore (Core Web Vitals' "good" is 0.1). */
const MAX_LAYOUT_SHIFT = 0.02;

async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const state = { total: 0, sources: [] as string[] };
    (window as unknown as { __shifts: typeof state }).__shifts = state;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources?: { node?: Node }[];
      })[]) {
        if (entry.hadRecentInput) continue;
        state.total += entry.value;
        for (const source of entry.sources ?? []) {
          const node = source.node;
          const element = node instanceof Element ? node : node?.parentElement;
          state.sources.push(
            `${entry.value.toFixed(4)} ${element?.tagName.toLowerCase() ?? "?"}.${element?.className ?? ""}`,
          );
        }
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
}

const shifts = (page: Page) =>
  page.evaluate(() => (window as unknown as { __shifts: { total: number; sources: string[] } }).__shifts);

/** Scrolls a screen at a time to the end, letting what loads near the screen arrive at each stop. */
async function readToTheEnd(page: Page, height: number): Promise<void> {
  for (let stop = 0; stop < 40; stop += 1) {
    await page.waitForLoadState("networkidle");
    const { y, end } = await page.evaluate(() => ({
      y: window.scrollY,
      end: document.documentElement.scrollHeight - window.innerHeight,
    }));
    if (y >= end) return;
    await page.evaluate((by) => window.scrollBy(0, by), Math.round(height * 0.8));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(y);
  }
}

const PAGES: { name: string; path: (page: Page) => Promise<string>; ready: string }[] = [
  {
    name: "view page",
    path: async (page) => {
      const url = (await sitemapPresentationUrls(page)).find((u) => u.includes("typescript-generics-in-practice"));
      if (!url) throw new Error("no demo presentation for the test");
      return new URL(url).pathname;
    },
    ready: ".more-decks[data-state=loaded]",
  },
  { name: "home", path: async () => "/", ready: "main" },
  { name: "explore", path: async () => "/explore/", ready: "main" },
];

test.describe("issue 30: no layout shift on the view page, home and explore", () => {
  // A first visit: no cookie choice made yet, so the cookie bar shows too.
  test.use({ cookieChoice: null });
  for (const width of [375, 1440]) {
    for (const target of PAGES) {
      test(`issue 30 the ${target.name} at ${width} px: CLS ≤ ${MAX_LAYOUT_SHIFT} from first paint to the end of the page`, async ({
        page,
      }) => {
        const height = width < 768 ? 812 : 900;
        await page.setViewportSize({ width, height });
        await recordLayoutShifts(page);
        await page.goto(await target.path(page));
        await waitForHydration(page);
        await expect(page.locator(".cookie-banner")).toBeVisible();
        await readToTheEnd(page, height);
        await expect(page.locator(target.ready).first()).toBeAttached();
        const { total, sources } = await shifts(page);
        console.log(
          `${target.name} at ${width} px: CLS ${total.toFixed(4)}${sources.length ? ` (${sources.join(", ")})` : ""}`,
        );
        expect(total, sources.join("\n")).toBeLessThanOrEqual(MAX_LAYOUT_SHIFT);
      });
    }
  }
});
