import sharp from "sharp";
import { dropMarkdownDeck } from "./helpers";
import { axeViolations, expect, logIn, test, waitForHydration } from "./support";

/**
 * Issue 28 item 7: a Markdown talk whose images sit beside it (`![…](tide-chart.png)`) goes in;
 * the import's result says each image file isn't in Podium yet and offers it for upload right
 * there; once uploaded, the image shows on its slide. With a keyboard, at 375 and 1280 px.
 */
const DECK = [
  "# Rock pools",
  "",
  "---",
  "",
  "## The tide chart",
  "",
  "![Tide heights for May](tide-chart.png)",
  "",
  "---",
  "",
  "## What lives there",
  "",
  "- Anemones",
  "- Limpets",
  "",
].join("\n");

test.describe("issue 28 item 7: relative images", () => {
  for (const width of [375, 1280]) {
    test(`issue 28 item 7 at ${width} px: a relative image is offered for upload where its warning shows, and then shows on its slide`, async ({
      page,
    }) => {
      test.setTimeout(120_000);
      await page.setViewportSize({ width, height: 900 });
      await logIn(page, "grace@podium.test");
      const oid = await dropMarkdownDeck(page, { name: "rock-pools.md", markdown: DECK });
      await waitForHydration(page);

      const warnings = page.getByTestId("import-warnings");
      await expect(warnings).toContainText("Slide 2: an image file from your computer isn't in Podium yet");
      await expect(warnings).not.toContainText("from another site");
      const offer = warnings.getByRole("region", { name: "Images to upload" });
      await expect(offer).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

      // Upload without a file chosen: said in words.
      const upload = offer.getByRole("button", { name: "Upload tide-chart.png" });
      await upload.focus();
      await page.keyboard.press("Enter");
      await expect(offer.getByRole("alert")).toHaveText("Choose the image file for tide-chart.png first.");

      const chart = await sharp({ create: { width: 1200, height: 675, channels: 3, background: "#0e7490" } })
        .png()
        .toBuffer();
      await offer
        .getByLabel("tide-chart.png (slide 2)")
        .setInputFiles({ name: "tide-chart.png", mimeType: "image/png", buffer: chart });
      await upload.focus();
      await page.keyboard.press("Enter");
      await expect(offer.getByRole("status")).toHaveText("tide-chart.png is uploaded and shows on slide 2.", {
        timeout: 30_000,
      });
      await expect(upload).toBeDisabled();
      await offer.screenshot({ path: `e2e/screenshots/local-images-${width}.png` });

      // The deck's one image is now the uploaded one (in Podium: an asset), on its slide.
      interface Topic {
        images: { src: string }[];
        topics: Topic[];
      }
      const deck = (await (await page.request.get(`/p/${oid}/document.json`)).json()) as { topics: Topic[] };
      const imagesIn = (topics: Topic[]): string[] =>
        topics.flatMap((topic) => [...topic.images.map((image) => image.src), ...imagesIn(topic.topics)]);
      const images = imagesIn(deck.topics);
      expect(images).toHaveLength(1);
      expect(images[0]).toMatch(/^\/assets\/[0-9a-f]{64}\.webp$/);
    });
  }
});
