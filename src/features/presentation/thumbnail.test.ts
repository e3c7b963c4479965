import { writeFileSync } from "node:fs";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { posterTopicOf } from "../../document/page-shape";
import { parseDocument, type Topic } from "../../document/schema";
import { SLIDE_PALETTES } from "../../document/slide-layout";
import { richDeck } from "../../document/testing/rich-fixture";
import { renderThumbnailSvg, wrapLines } from "./thumbnail";

const deck = (theme: "light" | "dark" | "contrast") => parseDocument(richDeck(theme, "/assets/x.webp"));
const slide = (n: number, theme: "light" | "dark" | "contrast" = "light") => deck(theme).topics[n - 1] as Topic;
const DATA = "data:image/webp;base64,UklGRg==";

/** THUMBNAIL_PNG_DIR=/tmp/… writes each drawing as a PNG to look at (sharp renders SVG with librsvg). */
async function look(name: string, svg: string) {
  const dir = process.env.THUMBNAIL_PNG_DIR;
  if (dir) writeFileSync(`${dir}/${name}.png`, await sharp(Buffer.from(svg)).png().toBuffer());
}

describe("issue 10: the thumbnail is a drawing of the real first slide", () => {
  it("draws the poster slide's title and subtitle in the deck's theme colours", async () => {
    for (const theme of ["light", "dark", "contrast"] as const) {
      const svg = renderThumbnailSvg({ title: "Rich", theme, topic: slide(1, theme) });
      const palette = SLIDE_PALETTES[theme];
      expect(svg).toContain(`fill="${palette["slide-bg"]}"`);
      expect(svg).toMatch(new RegExp(`font-weight="800" fill="${palette["slide-title"]}">Rich slides</text>`));
      expect(svg).toContain(`Every construct, ${theme} theme`);
      // A valid image: sharp (librsvg) reads it.
      expect((await sharp(Buffer.from(svg)).metadata()).width).toBe(640);
      await look(`thumb-${theme}-1`, svg);
    }
  });

  it("draws bullets, numbers and tasks with their markers, and marks and links in their styles", async () => {
    const bullets = renderThumbnailSvg({ title: "x", topic: slide(3) });
    expect(bullets).toContain(">•</text>");
    expect(bullets).toContain(">Cox</text>");
    const numbers = renderThumbnailSvg({ title: "x", topic: slide(4) });
    expect(numbers).toContain(">3.</text>");
    expect(numbers).toContain(">5.</text>");
    expect(renderThumbnailSvg({ title: "x", topic: slide(5) })).toContain(">☑</text>");
    const marks = renderThumbnailSvg({ title: "x", topic: slide(2) });
    expect(marks).toContain('<tspan font-weight="800">Bold</tspan>');
    expect(marks).toContain(
      `fill="${SLIDE_PALETTES.light["slide-link"]}" text-decoration="underline">the guide</tspan>`,
    );
    for (const n of [2, 3, 4, 5, 6, 8, 11])
      await look(`thumb-light-${n}`, renderThumbnailSvg({ title: "x", topic: slide(n) }));
  });

  it("draws code as a tinted monospace box in the token colours", async () => {
    const svg = renderThumbnailSvg({ title: "x", theme: "dark", topic: slide(7, "dark") });
    expect(svg).toContain(`fill="${SLIDE_PALETTES.dark["slide-code-bg"]}"`);
    expect(svg).toMatch(/font-family="ui-monospace[^"]*"/);
    expect(svg).toContain(`<tspan fill="${SLIDE_PALETTES.dark["tok-keyword"]}">export</tspan>`);
    await look("thumb-dark-7", svg);
  });

  it("embeds the slide's images as data: URIs (an SVG <img> loads nothing else); a page is its image", async () => {
    const beside = renderThumbnailSvg({ title: "x", topic: slide(9), images: new Map([["/assets/x.webp", DATA]]) });
    expect(beside).toContain(`<image href="${DATA}" x="880" y="225" width="640" height="540"`);
    expect(beside).not.toContain("/assets/x.webp");
    const page = renderThumbnailSvg({ title: "x", topic: slide(10), images: new Map([["/assets/x.webp", DATA]]) });
    expect(page).toContain(`<image href="${DATA}" x="0" y="0" width="1600" height="900"`);
    expect(page).not.toContain("A scanned page");
    // Without the bytes, a tinted box stands in: never an external reference.
    expect(renderThumbnailSvg({ title: "x", topic: slide(9) })).not.toContain("<image");
  });

  it("escapes text and drops characters XML can't carry", () => {
    const topic = {
      ...slide(1),
      texts: [
        {
          ...slide(1).texts[0],
          paragraphs: [{ text: '</text><script>alert("x")</script>\u0001', listType: "NONE", biggestFontSize: 96 }],
        },
      ],
    } as Topic;
    const svg = renderThumbnailSvg({ title: '"><script>', topic });
    expect(svg).not.toContain("<script");
    expect(svg).not.toContain("\u0001");
    expect(svg).toContain('aria-label="&quot;&gt;&lt;script&gt;"');
  });

  it("without a slide with content, draws the title on the theme's slide", () => {
    const svg = renderThumbnailSvg({ title: "Just a title", theme: "contrast", topic: null });
    expect(svg).toContain(">Just a title</text>");
    expect(svg).toContain('fill="#000000"');
  });

  it("posterTopicOf skips a classic deck's overview", () => {
    const doc = parseDocument({
      ...richDeck("light"),
      topics: [
        {
          id: "overview",
          x: 0,
          y: 0,
          width: 9000,
          height: 9000,
          rotation: 0,
          background: null,
          texts: [],
          images: [],
          topics: richDeck("light").topics,
        },
      ],
      path: ["overview", "slide-1"],
    });
    expect(posterTopicOf(doc)?.id).toBe("slide-1");
  });

  it("wrapLines wraps at spaces and ends a cut text with an ellipsis", () => {
    expect(wrapLines("one two three four five", 9, 2)).toEqual(["one two", "three…"]);
  });
});
