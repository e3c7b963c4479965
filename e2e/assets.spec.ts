import type { Page } from "@playwright/test";
import { importMarkdownDeck } from "./helpers";
import { axeViolations, expect, logIn, test, waitForHydration } from "./support";

/** Issue 10, item 5: presentation images, from the editor's Markdown field to the player. */

/** The smallest PNG: one pixel. */
const ONE_PIXEL_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/** A deck of Tim's own, so other specs' demo decks stay as they are. */
const DECK_FILE = {
  name: "rock-pools.md",
  markdown: "# Rock pools\n## What the tide leaves\n---\n# Who lives there\n- Anemones\n",
};

/** Signs Tim in and opens a new deck of his own in the editor; its oid. */
async function editNewDeck(page: Page): Promise<string> {
  await logIn(page, "tim@podium.test");
  const oid = await importMarkdownDeck(page, DECK_FILE);
  await page.goto(`/p/edit/${oid}/`);
  await waitForHydration(page);
  return oid;
}

test.describe("issue 10 images", () => {
  test("issue 10 images: a PNG dropped into the editor's Markdown is uploaded, inserted on its own line, saved, and shown by the player", async ({
    page,
  }) => {
    const oid = await editNewDeck(page);
    await expect(page.getByRole("button", { name: "Add image" })).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);

    const markdown = page.getByLabel("Slides in Markdown");
    await markdown.click();
    await markdown.press("Control+End");
    await markdown.pressSequentially("---\n");

    // A PNG made in the page (a canvas), dropped as a File in a DataTransfer.
    await markdown.evaluate(async (field) => {
      const canvas = document.createElement("canvas");
      canvas.width = 160;
      canvas.height = 90;
      const context = canvas.getContext("2d");
      if (!context) throw new Error("no 2d context");
      context.fillStyle = "#1b6f8a";
      context.fillRect(0, 0, 160, 90);
      context.fillStyle = "#f3c14b";
      context.fillRect(40, 20, 80, 50);
      const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/png"));
      if (!blob) throw new Error("no PNG");
      const transfer = new DataTransfer();
      transfer.items.add(new File([blob], "sea_anemone-close-up.png", { type: "image/png" }));
      field.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
    });

    await expect(page.getByRole("status").filter({ hasText: "The image is uploaded." })).toBeVisible();
    await expect(markdown).toHaveValue(/\n---\n!\[Sea anemone close up\]\(\/assets\/[0-9a-f]{64}\.webp\)\n/);
    const source = await markdown.inputValue();
    const url = /\/assets\/[0-9a-f]{64}\.webp/.exec(source)?.[0] ?? "";
    // The preview draws the slide itself: the image, with its alt text.
    await expect(page.locator(".editor-preview").getByRole("img", { name: "Sea anemone close up" })).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: "e2e/screenshots/editor-image.png" });

    // Served as an immutable, sandboxed WebP.
    const served = await page.request.get(url);
    expect(served.status()).toBe(200);
    expect(served.headers()["content-type"]).toBe("image/webp");
    expect(served.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");

    await page.locator(".editor__actions").getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Your changes are saved.")).toBeVisible();

    // The view page plays it: the image on the last step has really loaded.
    await page.goto(`/p/${oid}/`);
    await waitForHydration(page);
    await page.getByRole("button", { name: "Present" }).click();
    await expect(page.locator(".player")).toHaveAttribute("data-player-state", "playing");
    await page.keyboard.press("End");
    const image = page.locator(`img[src="${url}"]`).first();
    await expect(image).toBeVisible();
    await expect(image).toHaveAttribute("alt", "Sea anemone close up");
    await expect.poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  });

  test("issue 10 images: the Add image button works by keyboard: the picked image goes in at the cursor", async ({
    page,
  }) => {
    await editNewDeck(page);
    const markdown = page.getByLabel("Slides in Markdown");
    await markdown.focus();
    await markdown.press("Control+Home");
    const chooser = page.waitForEvent("filechooser");
    await page.getByRole("button", { name: "Add image" }).focus();
    await page.keyboard.press("Enter");
    await (await chooser).setFiles({
      name: "tide-line.png",
      mimeType: "image/png",
      buffer: Buffer.from(ONE_PIXEL_PNG, "base64"),
    });
    await expect(page.getByRole("status").filter({ hasText: "The image is uploaded." })).toBeVisible();
    await expect(markdown).toHaveValue(/^!\[Tide line\]\(\/assets\/[0-9a-f]{64}\.webp\)\n# Rock pools\n/);
    await expect(markdown).toBeFocused();
  });

  test("issue 10 images: the dashboard's Images section uploads by keyboard and gives the Markdown to paste", async ({
    page,
  }) => {
    await logIn(page, "tim@podium.test");
    await page.goto("/dashboard/next/");
    await waitForHydration(page);
    await page.getByLabel("Image file").setInputFiles({
      name: "kelp_forest.png",
      mimeType: "image/png",
      buffer: Buffer.from(ONE_PIXEL_PNG, "base64"),
    });
    await page.getByRole("button", { name: "Upload image" }).focus();
    await page.keyboard.press("Enter");
    const snippet = page.getByLabel("Markdown for your slides");
    await expect(snippet).toHaveValue(/^!\[Kelp forest\]\(\/assets\/[0-9a-f]{64}\.webp\)$/);
    await expect(page.getByRole("button", { name: "Copy Markdown" })).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
  });
});
