import type { PdfPage } from "../../features/pdf-import/errors";
import { createPdfWorkers } from "../workers/pdf-pool";
import { TEST_WORKER_DIR } from "./build-workers";

/**
 * A PDF's pages as the server reads them: through the PDF converter's child process (the built
 * pdf-worker, as in production), for `owner` (whose turn it is). pdfjs and its canvas in the test's
 * own process ended it now and then ("Worker exited unexpectedly", about 1 run in 4 on the 2-core
 * machine).
 */
export async function readPdfPages(bytes: Uint8Array, owner: string): Promise<PdfPage[]> {
  const pages: PdfPage[] = [];
  const converter = createPdfWorkers(TEST_WORKER_DIR, { spareIdleMs: 0 });
  try {
    await converter.convert(bytes, { opened: () => {}, page: (page) => pages.push(page) }, owner);
  } finally {
    await converter.close();
  }
  return pages;
}
