import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createCanvas } from "@napi-rs/canvas";
import sharp from "sharp";
import {
  PDF_MAX_PAGE_PIXELS,
  PDF_MAX_PAGES,
  PDF_PAGE_WIDTH,
  type PdfConversionEvents,
  PdfImportError,
  type PdfPage,
} from "./errors";
import { type PageBox, type PageText, pageText, paragraphsOf, runningLines, type TextRun } from "./text";

/**
 * Reading a PDF: pdfjs-dist (the legacy build, for Node) parses it and gives each page's text;
 * @napi-rs/canvas draws each page; sharp encodes it as WebP. It runs in the PDF worker thread
 * (server/workers/pdf-worker.ts), never on the request loop. Nothing of the PDF runs: no
 * scripts, no eval (isEvalSupported false), no fonts installed anywhere (disableFontFace).
 */

/** WebP quality and effort for page images: sharp text at a third of effort 4's time. */
const WEBP_OPTIONS = { quality: 82, effort: 2 } as const;
/** Images inside a PDF decode to at most this many pixels each (a decompression bomb stops here). */
const MAX_EMBEDDED_IMAGE_PIXELS = 50_000_000;

const require = createRequire(import.meta.url);
/** pdfjs-dist's own data: the 14 standard fonts (for PDFs that don't embed them) and CJK CMaps. */
const PDFJS_DIR = dirname(require.resolve("pdfjs-dist/package.json"));

type PdfJs = typeof import("pdfjs-dist/legacy/build/pdf.mjs");
let pdfjsLoading: Promise<PdfJs> | null = null;

/** Loads pdfjs once, with its worker code on this thread (this thread is already a worker). */
export function loadPdfJs(): Promise<PdfJs> {
  pdfjsLoading ??= (async () => {
    const worker = await import("pdfjs-dist/legacy/build/pdf.worker.mjs");
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
    return import("pdfjs-dist/legacy/build/pdf.mjs");
  })();
  return pdfjsLoading;
}

function refusal(error: unknown): PdfImportError {
  const name = (error as { name?: string } | null)?.name ?? "";
  if (name === "PasswordException") {
    return new PdfImportError(
      "encrypted",
      422,
      "This PDF is protected with a password. Save a copy without the password and import that.",
    );
  }
  return new PdfImportError(
    "corrupt",
    422,
    "This PDF is damaged or isn't a PDF Podium can read. Export it again from the program that made it and try once more.",
  );
}

/** The scale that draws a page 1600 px wide, or narrower when it would pass the pixel cap. */
export function renderScale(width: number, height: number): number {
  let scale = PDF_PAGE_WIDTH / width;
  const pixels = width * scale * height * scale;
  if (pixels > PDF_MAX_PAGE_PIXELS) scale *= Math.sqrt(PDF_MAX_PAGE_PIXELS / pixels);
  return scale;
}

type PdfJsPage = Awaited<ReturnType<Awaited<ReturnType<PdfJs["getDocument"]>["promise"]>["getPage"]>>;

/**
 * Pages whose text is read before any is drawn, to find running headers and footers: all of a
 * short document; of a longer one, this many spread evenly over it (a header on most pages is on
 * most of them). Reading a page's text first costs its share of the import's time without the
 * overlap with encoding that the other pages get: 0.6 s more for 30 pages when all were read first.
 */
export const RUNNING_SAMPLE_PAGES = 12;

/** The page numbers (1-based, in order) read first: RUNNING_SAMPLE_PAGES of them, spread evenly. */
export function samplePages(pageCount: number): number[] {
  if (pageCount <= RUNNING_SAMPLE_PAGES) return Array.from({ length: pageCount }, (_, index) => index + 1);
  const step = pageCount / RUNNING_SAMPLE_PAGES;
  return Array.from({ length: RUNNING_SAMPLE_PAGES }, (_, index) => Math.floor(index * step) + 1);
}

/**
 * Where a page's text can be, in text space (y upwards): its box's bottom and top. Null for a
 * page turned a quarter (its top and bottom are then x in text space): its text is still read,
 * without the page-edge rules (text.ts).
 */
export function pageBox(view: number[], rotate: number): PageBox | null {
  const [, bottom = 0, , top = 0] = view;
  if (rotate % 180 !== 0 || !Number.isFinite(bottom) || !Number.isFinite(top)) return null;
  return { bottom: Math.min(bottom, top), top: Math.max(bottom, top) };
}

/** An opened PDF: its page count, and its pages drawn a slice at a time (pdf-worker.ts). */
export interface OpenPdf {
  pageCount: number;
  /**
   * Draws pages from `from` on, in order, calling `page` for each, while `keepGoing()` says so
   * (asked before each page is started); resolves with the next page's number once every page
   * drawn has been reported.
   */
  drawPages(from: number, keepGoing: () => boolean, page: (page: PdfPage) => void): Promise<number>;
  close(): Promise<void>;
}

/**
 * Opens a PDF: refuses (PdfImportError) an encrypted, damaged or too long file before drawing
 * anything.
 */
export async function openPdf(bytes: Uint8Array): Promise<OpenPdf> {
  const pdfjs = await loadPdfJs();
  const task = pdfjs.getDocument({
    data: bytes,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    enableXfa: false,
    standardFontDataUrl: `${join(PDFJS_DIR, "standard_fonts")}/`,
    cMapUrl: `${join(PDFJS_DIR, "cmaps")}/`,
    cMapPacked: true,
    maxImageSize: MAX_EMBEDDED_IMAGE_PIXELS,
    verbosity: 0,
  });
  let document: Awaited<typeof task.promise>;
  try {
    document = await task.promise;
  } catch (error) {
    await task.destroy().catch(() => {});
    throw refusal(error);
  }
  const pageCount = document.numPages;
  if (pageCount > PDF_MAX_PAGES || pageCount < 1) {
    await document.destroy().catch(() => {});
    if (pageCount < 1) throw refusal(new Error("no pages"));
    throw new PdfImportError(
      "tooManyPages",
      413,
      `This PDF has ${pageCount} pages; Podium imports at most ${PDF_MAX_PAGES}. Split it into smaller files.`,
    );
  }
  // Issue 28 item 6: the text of up to RUNNING_SAMPLE_PAGES pages spread over the document is read
  // first, so the headers and footers that run across the pages are known before the first page
  // is handed over (text.ts runningLines); the other pages' text is read as each is drawn.
  const textOf = async (page: PdfJsPage) => {
    const content = await page.getTextContent();
    return pageText(
      content.items.filter((item): item is TextRun & typeof item => "str" in item),
      pageBox(page.view, page.rotate),
    );
  };
  const texts = new Map<number, PageText>();
  try {
    for (const number of samplePages(pageCount)) texts.set(number, await textOf(await document.getPage(number)));
  } catch (error) {
    await document.destroy().catch(() => {});
    throw refusal(error);
  }
  const running = runningLines([...texts.values()]);
  return {
    pageCount,
    async drawPages(from, keepGoing, report) {
      // One page is encoded (sharp, on libuv's threads) while the next one is drawn here.
      let encoding: Promise<void> = Promise.resolve();
      let number = from;
      try {
        for (; number <= pageCount && keepGoing(); number += 1) {
          let page: Awaited<ReturnType<typeof document.getPage>>;
          try {
            page = await document.getPage(number);
          } catch (error) {
            throw refusal(error);
          }
          const size = page.getViewport({ scale: 1 });
          const viewport = page.getViewport({ scale: renderScale(size.width, size.height) });
          const canvas = createCanvas(
            Math.max(1, Math.round(viewport.width)),
            Math.max(1, Math.round(viewport.height)),
          );
          const context = canvas.getContext("2d");
          context.fillStyle = "#ffffff";
          context.fillRect(0, 0, canvas.width, canvas.height);
          let lines: string[];
          try {
            await page.render({ canvasContext: context as unknown as CanvasRenderingContext2D, viewport }).promise;
            lines = paragraphsOf(texts.get(number) ?? (await textOf(page)), running);
          } catch (error) {
            throw refusal(error);
          }
          texts.delete(number);
          page.cleanup();
          const pixels = canvas.data();
          const { width, height } = canvas;
          const pageNumber = number;
          await encoding;
          encoding = sharp(pixels, { raw: { width, height, channels: 4 } })
            .removeAlpha()
            .webp(WEBP_OPTIONS)
            .toBuffer()
            .then((image) => {
              report({
                number: pageNumber,
                width: size.width,
                height: size.height,
                lines,
                image: new Uint8Array(image.buffer, image.byteOffset, image.byteLength),
                imageWidth: width,
                imageHeight: height,
              });
            });
          // A failed encode surfaces at the next await; keep it from being an unhandled rejection meanwhile.
          encoding.catch(() => {});
        }
      } finally {
        await encoding.catch(() => {});
      }
      await encoding;
      return number;
    },
    async close() {
      await document.destroy().catch(() => {});
    },
  };
}

/** A whole PDF read at once, page after page (tests and tools; the server converts in turns, pdf-worker.ts). */
export async function readPdf(bytes: Uint8Array, events: PdfConversionEvents): Promise<void> {
  const pdf = await openPdf(bytes);
  try {
    events.opened(pdf.pageCount);
    await pdf.drawPages(
      1,
      () => true,
      (page) => events.page(page),
    );
  } finally {
    await pdf.close();
  }
}
