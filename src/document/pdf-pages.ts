import { PDF_PAGE_WIDTH } from "./page-shape";
import { DOCUMENT_VERSION, type PresentationDocument, parseDocument, type Text, type Topic } from "./schema";

/**
 * A PDF's pages as a Podium document (issue 10, item 4): one "page" topic per page, in order on
 * the path. A page topic is 1600 canvas units wide and as tall as the page's proportions say;
 * its image (the page drawn) fills it, and its text (the page's lines in reading order) is the
 * text layer that the transcript, search and screen readers read. Pages sit on a grid inside an
 * overview topic, as Markdown slides do (document/markdown.ts layOut).
 */

/** Space between pages and around them on the canvas (Markdown's SLIDE_LAYOUT gap and margin). */
const GAP = 200;
const MARGIN = 300;
/** A page is at most this many times taller than wide (a receipt roll stays a page). */
const MAX_ASPECT = 20;
/** The text layer's font size (what biggestFontSize records for body text). */
const BODY_FONT_SIZE = 36;

export interface PageForDocument {
  /** Page size in PDF points (rotation applied). */
  width: number;
  height: number;
  lines: string[];
  /** The page image's address (/assets/{sha256}.webp). */
  src: string;
}

/** The topic's height for a page: 1600 × height / width, rounded, within bounds. */
export function pageHeight(width: number, height: number): number {
  const ratio = width > 0 && height > 0 ? height / width : 9 / 16;
  return Math.max(1, Math.min(Math.round(PDF_PAGE_WIDTH * ratio), PDF_PAGE_WIDTH * MAX_ASPECT));
}

function altOf(number: number, lines: string[]): string {
  const first = lines[0];
  return (first ? `Page ${number}: ${first}` : `Page ${number}`).slice(0, 300);
}

export function documentFromPages(pages: readonly PageForDocument[], schemaVersion: "0" | "2"): PresentationDocument {
  const columns = Math.max(1, Math.ceil(Math.sqrt(pages.length)));
  const heights = pages.map((page) => pageHeight(page.width, page.height));
  // Each row is as tall as its tallest page.
  const rowHeights: number[] = [];
  heights.forEach((height, index) => {
    const row = Math.floor(index / columns);
    rowHeights[row] = Math.max(rowHeights[row] ?? 0, height);
  });
  const rowTops: number[] = [];
  let top = MARGIN;
  for (const height of rowHeights) {
    rowTops.push(top);
    top += height + GAP;
  }
  const pageTopics: Topic[] = pages.map((page, index) => {
    const number = index + 1;
    const height = heights[index] ?? PDF_PAGE_WIDTH;
    const texts: Text[] =
      page.lines.length > 0
        ? [
            {
              id: `page-${number}-text`,
              styleClasses: ["body"],
              paragraphs: page.lines.map((line) => ({ text: line, listType: "NONE", biggestFontSize: BODY_FONT_SIZE })),
            },
          ]
        : [];
    return {
      id: `page-${number}`,
      x: MARGIN + (index % columns) * (PDF_PAGE_WIDTH + GAP),
      y: rowTops[Math.floor(index / columns)] ?? MARGIN,
      width: PDF_PAGE_WIDTH,
      height,
      rotation: 0,
      background: { color: "#ffffff" },
      layout: "page",
      texts,
      images: [
        {
          id: `page-${number}-image`,
          src: page.src,
          alt: altOf(number, page.lines),
          x: 0,
          y: 0,
          width: PDF_PAGE_WIDTH,
          height,
        },
      ],
      topics: [],
    };
  });
  const overview: Topic = {
    id: "overview",
    x: 0,
    y: 0,
    width: MARGIN * 2 + columns * PDF_PAGE_WIDTH + (columns - 1) * GAP,
    height: top - GAP + MARGIN,
    rotation: 0,
    background: null,
    texts: [],
    images: [],
    topics: pageTopics,
  };
  const pagePath = pageTopics.map((topic) => topic.id);
  return parseDocument({
    format: "podium.presentation",
    version: DOCUMENT_VERSION,
    schemaVersion,
    topics: [overview],
    // Classic decks open on the whole canvas and zoom in; pitch decks go page to page.
    path: schemaVersion === "0" ? ["overview", ...pagePath] : pagePath,
  });
}
