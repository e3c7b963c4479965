/**
 * PDF import (issue 10, item 4): limits, the conversion contract and its refusals. Pure: the
 * server's PDF worker, the routes and the browser's drop zone all read these.
 */

/** Largest PDF accepted, in bytes. */
export const PDF_MAX_BYTES = 50 * 1024 * 1024;
/** Most pages a PDF may have; more are refused before any page is drawn. */
export const PDF_MAX_PAGES = 300;
/** Page images are drawn this wide: defined beside the page shapes (document/page-shape.ts). */
export { PDF_PAGE_WIDTH } from "../../document/page-shape";
/** Pixels one page image may have at most: a very tall page is drawn narrower instead. */
export const PDF_MAX_PAGE_PIXELS = 1600 * 4000;

/** Why a PDF was refused: a code the page says in the person's language. */
export type PdfProblem =
  | "signedOut"
  | "noFile"
  | "notPdf"
  | "empty"
  | "tooLarge"
  | "tooManyPages"
  | "encrypted"
  | "corrupt"
  | "tooSlow"
  | "tooLong"
  | "tooComplex"
  | "busy"
  | "rate"
  | "quota"
  | "privacy"
  | "failed";

/** A refused or failed PDF import; the status and message go to the person as they are. */
export class PdfImportError extends Error {
  override readonly name = "PdfImportError";
  constructor(
    readonly problem: PdfProblem,
    readonly statusCode: number,
    message: string,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }
}

/** One page as the PDF worker hands it over: its size, its text in reading order, its picture. */
export interface PdfPage {
  /** 1-based. */
  number: number;
  /** The page's size in PDF points, as displayed (rotation applied). */
  width: number;
  height: number;
  /** The page's text, top to bottom: a paragraph each (lines of one paragraph joined, page numbers in its top and bottom band left out; text.ts). */
  lines: string[];
  /** The page drawn as WebP. */
  image: Uint8Array;
  imageWidth: number;
  imageHeight: number;
}

/** What a conversion reports while it runs. */
export interface PdfConversionEvents {
  /** The conversion waits for its turn: this many imports go before it (said again when it changes). */
  waiting?(ahead: number): void;
  /** The conversion has its turn now (it waited in the queue until this). */
  started?(): void;
  /** The file opened: it has this many pages (within the limit). */
  opened(pageCount: number): void;
  /** One more page is ready (in order). */
  page(page: PdfPage): void;
}

/**
 * Converting a PDF off the request loop (server/workers/pdf-pool.ts runs it in a child process
 * with time and memory limits, taking turns across people). Rejects with PdfImportError.
 */
export interface PdfConverter {
  /** `account`: whose PDF it is; turns go round the people with PDFs waiting, one slice each. */
  convert(bytes: Uint8Array, events: PdfConversionEvents, account?: string): Promise<void>;
  close(): Promise<void>;
}

/** True when the bytes start like a PDF (`%PDF-` within the first KiB, as readers allow). */
export function looksLikePdf(bytes: Uint8Array): boolean {
  const signature = [0x25, 0x50, 0x44, 0x46, 0x2d];
  const end = Math.min(bytes.byteLength, 1024) - signature.length;
  for (let start = 0; start <= end; start += 1) {
    if (signature.every((byte, offset) => bytes[start + offset] === byte)) return true;
  }
  return false;
}
