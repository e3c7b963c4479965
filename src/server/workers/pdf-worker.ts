import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort } from "node:worker_threads";
import { PdfImportError, type PdfPage } from "../../features/pdf-import/errors";
import { loadPdfJs, readPdf } from "../../features/pdf-import/reader";

/**
 * The PDF worker's entry (built to dist/server/pdf-worker.js): converts the one PDF it is sent
 * (features/pdf-import/reader.ts), reporting each page as it is ready. server/workers/pdf-pool.ts
 * starts one per PDF and ends it afterwards, so whatever a PDF made pdfjs hold goes with it.
 */

export type PdfWorkerMessage =
  | { type: "opened"; pageCount: number }
  | { type: "page"; page: PdfPage }
  | { type: "done" }
  | { type: "error"; problem: PdfImportError["problem"]; statusCode: number; message: string };

const port = parentPort;
if (!port) throw new Error("pdf-worker runs as a worker thread");

// Like the document worker: nice 10 on Linux, so a long PDF yields the CPU to page requests.
try {
  const threadId = Number(readlinkSync("/proc/thread-self").split("/").pop());
  if (Number.isInteger(threadId) && threadId > 0) setPriority(threadId, 10);
} catch {
  // Not Linux, or not allowed: normal priority.
}

// pdfjs loads as soon as the thread starts: a spare worker waits with it loaded (pdf-pool.ts).
void loadPdfJs().catch(() => {});

const post = (message: PdfWorkerMessage, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

port.once("message", async ({ bytes }: { bytes: Uint8Array }) => {
  try {
    await readPdf(bytes, {
      opened: (pageCount) => post({ type: "opened", pageCount }),
      page: (page) => {
        // A copy of its own, so the bytes move to the server's thread without copying again.
        const image = new Uint8Array(page.image);
        post({ type: "page", page: { ...page, image } }, [image.buffer]);
      },
    });
    post({ type: "done" });
  } catch (error) {
    if (error instanceof PdfImportError) {
      post({ type: "error", problem: error.problem, statusCode: error.statusCode, message: error.message });
    } else {
      post({
        type: "error",
        problem: "corrupt",
        statusCode: 422,
        message:
          "This PDF is damaged or isn't a PDF Podium can read. Export it again from the program that made it and try once more.",
      });
    }
  }
});
