import { postJsonDeck } from "./helpers";
import { axeViolations, expect, logIn, test, waitForHydration } from "./support";

const p = (text: string, listType: "NONE" | "BULLET" = "NONE", size = 36) => ({
  text,
  listType,
  biggestFontSize: size,
});
const frame = { x: 0, y: 0, width: 1600, height: 900, rotation: 0, background: null, images: [] };

/** A JSON import (document version 1, as exported): a slide with a callout topic that no path step visits. */
const DECK = {
  format: "podium.presentation",
  version: 1,
  schemaVersion: "2",
  topics: [
    {
      ...frame,
      id: "slide-1",
      texts: [
        { id: "t1", styleClasses: ["title"], paragraphs: [p("Tide pool survey", "NONE", 96)] },
        {
          id: "t2",
          styleClasses: ["body"],
          paragraphs: [p("What we counted:"), p("Anemones", "BULLET"), p("Hermit crabs", "BULLET"), p("All by hand.")],
        },
      ],
      topics: [
        {
          ...frame,
          id: "callout",
          x: 1000,
          y: 600,
          width: 500,
          height: 250,
          texts: [{ id: "t3", styleClasses: ["body_2"], paragraphs: [p("Low tide at 06:40")] }],
          topics: [],
        },
      ],
    },
  ],
  path: ["slide-1"],
};

test.describe("R3.7 the transcript of a JSON import", () => {
  test("R3.7 a nested topic that is no step keeps its text, and bullets beside plain paragraphs keep their markers", async ({
    page,
  }) => {
    await logIn(page, "tim@podium.test");
    const oid = await postJsonDeck(page, "tide.json", DECK, { title: "Tide pool survey", privacy: "unlisted" });
    await page.goto(`/p/${oid}/`);
    await waitForHydration(page);
    const transcript = page.locator(".transcript");
    // The callout is on the slide (the present viewer draws nested topics) and in the transcript.
    await expect(transcript.getByText("Low tide at 06:40")).toBeVisible();
    const items = transcript.locator("li");
    await expect(items).toHaveText(["Anemones", "Hermit crabs"]);
    for (const item of await items.all()) {
      const look = await item.evaluate((li) => {
        const style = getComputedStyle(li);
        return { display: style.display, marker: style.listStyleType };
      });
      expect(look).toEqual({ display: "list-item", marker: "disc" });
    }
    await expect(transcript.getByText("What we counted:")).toBeVisible();
    await expect(transcript.getByText("All by hand.")).toBeVisible();
    await transcript.screenshot({ path: "e2e/screenshots/transcript-json-import.png" });
    expect(await axeViolations(page)).toEqual([]);
  });
});
