import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import fontkit from "@pdf-lib/fontkit";
import {
  PDFDocument,
  type PDFFont,
  type PDFPage,
  popGraphicsState,
  pushGraphicsState,
  setTextRenderingMode,
  TextRenderingMode,
} from "pdf-lib";
import sharp from "sharp";

/**
 * Issue 33 item 4: a deck as a PDF, from the slides the server draws. Each step is a page: its
 * slide drawn by the thumbnails' renderer (presentation/thumbnail.ts, an SVG) and rasterised by
 * sharp, with the step's text over it as real, invisible text (as scanned PDFs carry theirs), so
 * the PDF is searchable, selectable and read by screen readers and pdf.js.
 */

/** A page, in points: 16:9 like the thumbnail (640 × 360) at 1.5. */
export const SLIDES_PDF_PAGE = { width: 960, height: 540 } as const;
/** The slide's pixels: the 640-unit drawing at this density (× 72 dpi): 1280 × 720. */
export const SLIDES_PDF_RASTER_SCALE = 2;
/** JPEG quality of a page's picture: crisp text at about 60–120 KB a slide. */
export const SLIDES_PDF_JPEG_QUALITY = 82;
/** The text layer's size (points) and the smallest it shrinks to, so a long page's text fits. */
const TEXT_SIZE = 12;
const TEXT_MIN_SIZE = 4;
const TEXT_MARGIN = 24;

export interface SlidePage {
  /** The slide, as the thumbnail renderer draws it (640 × 360). */
  svg: string;
  /** What the step says (its texts and images' alt text), one paragraph a line. */
  text: string;
}

const require = createRequire(import.meta.url);
/** pdfjs-dist (a dependency) ships Liberation Sans, which covers Latin, Greek and Cyrillic. */
const FONT_PATH = join(
  dirname(require.resolve("pdfjs-dist/package.json")),
  "standard_fonts",
  "LiberationSans-Regular.ttf",
);
let fontBytes: Promise<Buffer> | null = null;

export async function slidesPdf(input: { title: string; pages: readonly SlidePage[] }) {
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  fontBytes ??= readFile(FONT_PATH);
  const font = await pdf.embedFont(await fontBytes, { subset: true });
  const characters = new Set(font.getCharacterSet());
  pdf.setTitle(input.title, { showInWindowTitleBar: true });
  pdf.setCreator("Podium");
  pdf.setProducer("Podium");
  for (const slide of input.pages) {
    const jpeg = await sharp(Buffer.from(slide.svg), { density: 72 * SLIDES_PDF_RASTER_SCALE })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: SLIDES_PDF_JPEG_QUALITY })
      .toBuffer();
    const image = await pdf.embedJpg(jpeg);
    const page = pdf.addPage([SLIDES_PDF_PAGE.width, SLIDES_PDF_PAGE.height]);
    page.drawImage(image, { x: 0, y: 0, width: SLIDES_PDF_PAGE.width, height: SLIDES_PDF_PAGE.height });
    drawInvisibleText(page, font, printable(slide.text, characters));
  }
  return pdf.save();
}

/** The text with what the font can't draw as spaces (a PDF's text must be in its font). */
function printable(text: string, characters: ReadonlySet<number>): string {
  let out = "";
  for (const char of text.normalize("NFC")) {
    const code = char.codePointAt(0) ?? 32;
    out += char === "\n" || characters.has(code) ? char : " ";
  }
  return out;
}

/** The step's text over its slide, invisible (render mode 3), wrapped to the page and shrunk to fit. */
function drawInvisibleText(page: PDFPage, font: PDFFont, text: string) {
  const paragraphs = text
    .split("\n")
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter((line) => line !== "");
  if (paragraphs.length === 0) return;
  const width = SLIDES_PDF_PAGE.width - 2 * TEXT_MARGIN;
  const height = SLIDES_PDF_PAGE.height - 2 * TEXT_MARGIN;
  let size = TEXT_SIZE;
  let lines = wrap(paragraphs, font, size, width);
  while (size > TEXT_MIN_SIZE && lines.length * size * 1.2 > height) {
    size -= 1;
    lines = wrap(paragraphs, font, size, width);
  }
  page.pushOperators(pushGraphicsState(), setTextRenderingMode(TextRenderingMode.Invisible));
  lines.forEach((line, index) => {
    page.drawText(line, {
      x: TEXT_MARGIN,
      y: SLIDES_PDF_PAGE.height - TEXT_MARGIN - (index + 1) * size * 1.2,
      size,
      font,
    });
  });
  page.pushOperators(popGraphicsState());
}

function wrap(paragraphs: readonly string[], font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of paragraphs) {
    let line = "";
    for (const word of paragraph.split(" ")) {
      const candidate = line === "" ? word : `${line} ${word}`;
      if (line !== "" && font.widthOfTextAtSize(candidate, size) > width) {
        lines.push(line);
        line = word;
      } else line = candidate;
    }
    if (line !== "") lines.push(line);
  }
  return lines;
}
