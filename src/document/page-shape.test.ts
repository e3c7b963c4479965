import { describe, expect, it } from "vitest";
import { importMarkdown } from "./markdown";
import { aspectOf, cssAspect, DEFAULT_PAGE_ASPECT, deckPageAspect, posterTopicOf } from "./page-shape";
import { documentFromPages, type PageForDocument } from "./pdf-pages";

/** A PDF's pages of these sizes (in points), as the import makes them into a deck. */
function pdfDeck(sizes: [number, number][], schemaVersion: "0" | "2" = "2") {
  const pages: PageForDocument[] = sizes.map(([width, height], index) => ({
    width,
    height,
    lines: [`Page ${index + 1}`],
    src: `/assets/${String(index).padStart(64, "0")}.webp`,
  }));
  return documentFromPages(pages, schemaVersion);
}

const LETTER: [number, number] = [612, 792];
const SQUARE: [number, number] = [600, 600];
const WIDE: [number, number] = [960, 540];
const FOUR_THREE: [number, number] = [800, 600];

describe("issue 28: a deck's page shape, which the player's stage takes", () => {
  it("a Markdown deck is 16:9, classic or pitch (the classic overview frame doesn't count)", () => {
    for (const style of ["0", "2"] as const) {
      expect(deckPageAspect(importMarkdown("# One\n---\n# Two\n---\n# Three", style))).toBeCloseTo(16 / 9, 3);
    }
  });

  it("a PDF deck takes its pages' shape: portrait, square, 4:3, 16:9, in either style", () => {
    for (const style of ["0", "2"] as const) {
      expect(deckPageAspect(pdfDeck([LETTER, LETTER, LETTER], style))).toBeCloseTo(612 / 792, 3);
      expect(deckPageAspect(pdfDeck([SQUARE, SQUARE], style))).toBeCloseTo(1, 3);
      expect(deckPageAspect(pdfDeck([FOUR_THREE], style))).toBeCloseTo(4 / 3, 3);
      expect(deckPageAspect(pdfDeck([WIDE, WIDE], style))).toBeCloseTo(16 / 9, 3);
    }
  });

  it("a deck of mixed shapes takes its commonest shape, the first page's on a tie", () => {
    expect(deckPageAspect(pdfDeck([WIDE, LETTER, SQUARE, LETTER]))).toBeCloseTo(612 / 792, 3);
    expect(deckPageAspect(pdfDeck([SQUARE, LETTER, WIDE]))).toBeCloseTo(1, 3);
    // A4 and US Letter are different shapes.
    expect(deckPageAspect(pdfDeck([[595, 842], LETTER, LETTER]))).toBeCloseTo(612 / 792, 3);
  });

  it("a deck with nothing on its path, or a topic of no size, is the default 16:9", () => {
    const empty = importMarkdown("# Only", "2");
    expect(deckPageAspect({ topics: empty.topics, path: [] })).toBe(DEFAULT_PAGE_ASPECT);
    expect(aspectOf(null)).toBe(DEFAULT_PAGE_ASPECT);
    expect(aspectOf({ width: 0, height: 900 })).toBe(DEFAULT_PAGE_ASPECT);
  });

  it("the poster's shape is its own page's, which in a mixed deck may differ from the stage's", () => {
    const mixed = pdfDeck([WIDE, LETTER, LETTER]);
    expect(aspectOf(posterTopicOf(mixed))).toBeCloseTo(16 / 9, 3);
    expect(deckPageAspect(mixed)).toBeCloseTo(612 / 792, 3);
    expect(cssAspect(612 / 792)).toBe(0.7727);
  });
});
