import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { dropMarkdownDeck, uploadImage } from "./helpers";
import { axeViolations, expect, logIn, test, waitForHydration } from "./support";

/**
 * Issue 10, "Done when": a newcomer's real Markdown talk with every construct (the fixture the
 * Vitest suite also imports) goes in through the dashboard's drop zone as a .md file, plays in
 * Chromium with every construct drawn as what it is, and comes back in the editor as written.
 * Each slide is saved as e2e/screenshots/talk-{nn}.png to be looked at.
 */
const FIXTURE = readFileSync(new URL("../src/document/fixtures/every-construct.md", import.meta.url), "utf8");
const PLACEHOLDER = "/assets/0000000000000000000000000000000000000000000000000000000000000000.webp";

/** A chart-like picture for the image slide, uploaded as a Podium image. */
async function uploadChart(page: Page): Promise<string> {
  const bars = [40, 90, 210, 520]
    .map((h, i) => `<rect x="${140 + i * 260}" y="${700 - h}" width="160" height="${h}" fill="#1a73e8"/>`)
    .join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800">
    <rect width="1200" height="800" fill="#ffffff"/>${bars}
    <line x1="100" y1="700" x2="1140" y2="700" stroke="#202124" stroke-width="6"/>
    <text x="600" y="770" font-size="44" font-family="sans-serif" text-anchor="middle" fill="#202124">Day 1 → Day 4</text>
  </svg>`;
  return uploadImage(page, "rollout.png", await sharp(Buffer.from(svg)).png().toBuffer());
}

/** Waits until the camera has arrived at the step and the step's images are decoded. */
async function settled(page: Page, step: number) {
  await expect(page.locator(".viewer")).toHaveAttribute("data-current-step", String(step));
  await expect(page.locator(".viewer")).toHaveAttribute("data-camera", "settled");
  await page.waitForFunction(() => [...document.images].every((image) => image.complete));
}

test.describe("issue 10: a real Markdown talk", () => {
  test.use({ viewport: { width: 1280, height: 900 } });
  test.setTimeout(120_000);

  test("issue 10: imports through the drop zone, plays every construct as itself, and edits as written", async ({
    page,
  }) => {
    await logIn(page, "tim@podium.test");
    const chart = await uploadChart(page);
    const source = FIXTURE.replace(PLACEHOLDER, chart);

    // The dashboard's drop zone takes the .md file; the deck's manage page lists what it showed differently.
    const oid = await dropMarkdownDeck(page, { name: "shipping-safely.md", markdown: source });
    await expect(page.getByTestId("import-warnings")).toContainText(
      "Slide 8: raw HTML is shown as text, not as markup.",
    );
    expect(await axeViolations(page)).toEqual([]);

    await page.goto(`/p/${oid}/`);
    await waitForHydration(page);
    await page.getByRole("button", { name: "Present" }).click();
    const player = page.locator(".player").first();
    await expect(player).toHaveAttribute("data-player-state", "playing");
    for (let step = 1; step <= 8; step += 1) {
      if (step > 1) await page.keyboard.press("ArrowRight");
      await settled(page, step);
      await player.screenshot({ path: `e2e/screenshots/talk-${String(step).padStart(2, "0")}.png` });
      expect(await axeViolations(page), `slide ${step}`).toEqual([]);
    }

    const slide = (n: number) => page.locator(`[data-topic-id="slide-${n}"]`);
    // Marks and links, with their target shown and opened safely.
    await expect(slide(2).locator("strong")).toHaveText("small");
    await expect(slide(2).locator("em").first()).toHaveText("everywhere");
    await expect(slide(2).locator("s")).toHaveText("tested");
    await expect(slide(2).locator("code")).toHaveText("deploy --canary");
    const link = slide(2).locator('a[href="https://status.example.com/2026/03"]');
    await expect(link).toHaveAttribute("rel", "noopener noreferrer nofollow");
    // Issue 28: the address is the link's title, not words drawn after it.
    await expect(link).toHaveAttribute("title", "status.example.com/2026/03");
    await expect(slide(2)).not.toContainText("(status.example.com/2026/03)");
    await expect(slide(2).locator('a[href="mailto:sre@example.com"]')).toBeAttached();
    // Numbered from 3, nested bullets, task items.
    await expect(slide(3).locator("ol").first()).toHaveAttribute("start", "3");
    await expect(slide(3).locator("ol ul li")).toHaveText(["error rate", "p99 latency"]);
    await expect(slide(3).locator('input[type="checkbox"]')).toHaveCount(2);
    // A quote with no literal ">", code in a monospace face with tokens, a table with a header.
    await expect(slide(4).locator("blockquote")).toContainText("Nothing broke");
    await expect(slide(4)).not.toContainText(">");
    const code = slide(5).locator("pre code");
    await expect(code.locator(".tok-keyword").first()).toHaveText("export");
    expect(await code.evaluate((element) => getComputedStyle(element).fontFamily)).toMatch(/mono|courier|consol/i);
    expect(await code.evaluate((element) => getComputedStyle(element).whiteSpace)).toMatch(/pre/);
    await expect(slide(6).locator("table th")).toHaveText(["Stage", "Share", "Errors"]);
    // The image, decoded, with its alt text.
    const image = slide(7).locator("img");
    await expect(image).toHaveAttribute("alt", "Rollout from 1% to 100% over four days");
    expect(await image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);

    // Issue 28: speaker notes are the presenter's; the public transcript never shows them.
    await expect(page.locator(".transcript")).toContainText("Thank you");
    await expect(page.locator(".transcript")).not.toContainText("Pause here. Ask who has shipped on a Friday.");

    // The editor gives back the Markdown as it was imported.
    await page.goto(`/p/edit/${oid}/`);
    await waitForHydration(page);
    await expect(page.locator("#editor-markdown")).toHaveValue(source);
  });
});
