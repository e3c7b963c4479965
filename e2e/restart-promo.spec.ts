import type { Page } from "@playwright/test";
import { expect, sitemapPresentationUrls, test, waitForHydration } from "./support";

/**
 * R2.29, issue 28 item 8: the restart overlay's promotional variant works at every player size —
 * the video ad shows (scaled down, beside the buttons on a short player), "Get Podium" is one line
 * and the overlay fits inside the player. A server of its own with the flag on: the `promoServer`
 * fixture of e2e/support.ts, started once per worker and shared with
 * e2e/preproduction-server.spec.ts (a pre-production server; these visitors are anonymous, so
 * its native-app badges, shown only to people signed in, don't appear).
 */
test.use({ baseURL: async ({ promoServer }, use) => use(promoServer.origin) });

/** The ad's drawing must stay readable: at least this tall (px) on the smallest player tested. */
const MIN_AD_HEIGHT = 60;

const SIZES: { name: string; width: number; height: number; embed?: boolean }[] = [
  { name: "phone-375", width: 375, height: 812 },
  { name: "tablet-768", width: 768, height: 1024 },
  { name: "laptop-1024", width: 1024, height: 768 },
  { name: "desktop-1280", width: 1280, height: 800 },
  { name: "desktop-1440", width: 1440, height: 900 },
  // The embed modal's default iframe (DEFAULT_EMBED) and a small one.
  { name: "embed-560x315", width: 560, height: 315, embed: true },
  { name: "embed-320x180", width: 320, height: 180, embed: true },
];

async function reachRestart(page: Page) {
  await page.getByRole("button", { name: "Present" }).click();
  const player = page.locator(".player").first();
  await expect(player).toHaveAttribute("data-player-state", "playing");
  await page.locator(".viewer__stage").focus();
  await page.keyboard.press("End");
  const total = await page.locator(".viewer").getAttribute("data-step-count");
  await expect(page.locator(".viewer")).toHaveAttribute("data-current-step", total ?? "");
  await page.keyboard.press("ArrowRight");
  await expect(player).toHaveAttribute("data-player-state", "restart");
  await page.waitForFunction(() =>
    (document.querySelector(".overlay")?.getAnimations({ subtree: true }) ?? []).every(
      (animation) => animation.playState === "finished",
    ),
  );
  return player;
}

test.describe("R2.29 the promotional restart overlay at every player size", () => {
  for (const size of SIZES) {
    test(`R2.29 issue 28 ${size.name}: the ad shows, "Get Podium" is one line, the overlay fits in the player`, async ({
      page,
    }) => {
      await page.setViewportSize({ width: size.width, height: size.height });
      const view = (await sitemapPresentationUrls(page)).find((u) =>
        u.includes("personal-computing-one-year-per-slide"),
      );
      if (!view) throw new Error("no demo presentation for the test");
      const path = new URL(view).pathname;
      const oid = /^\/p\/([a-z0-9]+)\//.exec(path)?.[1] ?? "";
      await page.goto(size.embed ? `/p/embed/${oid}/` : path);
      await waitForHydration(page);
      const player = await reachRestart(page);

      const ad = player.getByRole("img", { name: /^Podium promo: / });
      await expect(ad).toBeVisible();
      const cta = player.getByRole("link", { name: "Get Podium" });
      await expect(cta).toBeVisible();
      await expect(player.getByRole("button", { name: "Restart" })).toBeVisible();

      const measured = await player.evaluate((root) => {
        const box = (element: Element | null) => {
          const rect = element?.getBoundingClientRect();
          return rect ? { top: rect.top, left: rect.left, bottom: rect.bottom, right: rect.right } : null;
        };
        const ctaLink = root.querySelector(".restart-promo__cta");
        const range = document.createRange();
        if (ctaLink) range.selectNodeContents(ctaLink);
        const lineTops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
        const video = root.querySelector(".restart-promo__video")?.getBoundingClientRect();
        const parts = [".restart-promo", ".overlay__restart", ".restart-promo__video", ".restart-promo__cta"];
        const title = root.querySelector(".restart-promo__title");
        if (title && getComputedStyle(title).display !== "none") parts.push(".restart-promo__title");
        return {
          player: box(root),
          parts: parts.map((selector) => ({ selector, box: box(root.querySelector(selector)) })),
          ctaLines: lineTops.size,
          // The drawing keeps its 16:9 inside the ad's box (xMidYMid meet).
          adHeight: video ? Math.min(video.height, (video.width * 9) / 16) : 0,
        };
      });
      console.log(
        `restart promo ${size.name}: player ${JSON.stringify(measured.player)}, ad ${measured.adHeight} px tall`,
      );
      expect(measured.ctaLines).toBe(1);
      expect(measured.adHeight).toBeGreaterThanOrEqual(MIN_AD_HEIGHT);
      const outer = measured.player;
      if (!outer) throw new Error("no player");
      for (const part of measured.parts) {
        expect(part.box, part.selector).not.toBeNull();
        const inner = part.box ?? outer;
        expect(inner.top, `${part.selector} top`).toBeGreaterThanOrEqual(outer.top);
        expect(inner.left, `${part.selector} left`).toBeGreaterThanOrEqual(outer.left);
        expect(inner.bottom, `${part.selector} bottom`).toBeLessThanOrEqual(outer.bottom);
        expect(inner.right, `${part.selector} right`).toBeLessThanOrEqual(outer.right);
      }
      await player.screenshot({ path: `e2e/screenshots/restart-promo-${size.name}.png` });
    });
  }
});
