import { Worker } from "node:worker_threads";
import { type PdfConversionEvents, type PdfConverter, PdfImportError } from "../../features/pdf-import/errors";
import type { PdfWorkerMessage } from "./pdf-worker";

/**
 * PDF conversion off the request loop (issue 10, item 4). One PDF at a time per process, each in
 * a worker thread of its own (started for it, ended after it, so nothing a PDF made survives
 * it), with a heap cap and a time limit that grows with the page count. A few more wait their
 * turn; past that the answer is 503 with Retry-After.
 */

/** The built worker's file name beside the server bundle (vite.config.ts). */
export const PDF_WORKER_FILE = "pdf-worker.js";

export interface PdfWorkerOptions {
  /** PDFs waiting for their turn at most (4). */
  maxWaiting?: number;
  /** The worker's V8 heap cap in MiB (1024). Page pixels live outside it and are capped per page. */
  maxHeapMb?: number;
  /** Time to open the file and start (20 s), plus `perPageMs` (1 s) per page once the count is known. */
  baseTimeoutMs?: number;
  perPageMs?: number;
  /** How long a spare worker (pdfjs loaded) waits for the next PDF; 0 keeps none (5 minutes). */
  spareIdleMs?: number;
}

interface Pending {
  bytes: Uint8Array;
  events: PdfConversionEvents;
  resolve(): void;
  reject(error: unknown): void;
}

const TOO_SLOW =
  "Podium couldn't convert this PDF in time: its pages take too long to draw. Split it into smaller files or simplify the pages, and try again.";
const TOO_COMPLEX =
  "This PDF needs more memory than Podium allows for one file. Split it into smaller files or reduce its images, and try again.";

export function createPdfWorkers(workerDir: string, options: PdfWorkerOptions = {}): PdfConverter {
  const script = new URL(PDF_WORKER_FILE, `file://${workerDir.endsWith("/") ? workerDir : `${workerDir}/`}`);
  const maxWaiting = options.maxWaiting ?? 4;
  const maxHeapMb = options.maxHeapMb ?? 1024;
  const baseTimeoutMs = options.baseTimeoutMs ?? 20_000;
  const perPageMs = options.perPageMs ?? 1_000;
  const spareIdleMs = options.spareIdleMs ?? 5 * 60 * 1000;
  const waiting: Pending[] = [];
  let running: { worker: Worker; pending: Pending } | null = null;
  let closed = false;
  /**
   * After a conversion, a fresh worker is started and loads pdfjs while nobody waits, so the next
   * PDF starts at once; it is ended after a few idle minutes (its memory back to the process).
   */
  let spare: { worker: Worker; idle: NodeJS.Timeout } | null = null;
  const spawn = () =>
    new Worker(script, { resourceLimits: { maxOldGenerationSizeMb: maxHeapMb }, stdout: false, stderr: false });
  const dropSpare = () => {
    if (!spare) return;
    clearTimeout(spare.idle);
    void spare.worker.terminate();
    spare = null;
  };
  const prepareSpare = () => {
    if (closed || spare || spareIdleMs <= 0) return;
    const worker = spawn();
    worker.unref();
    // A spare that dies while waiting is simply not there.
    worker.on("error", () => {});
    worker.on("exit", () => {
      if (spare?.worker === worker) {
        clearTimeout(spare.idle);
        spare = null;
      }
    });
    const idle = setTimeout(dropSpare, spareIdleMs);
    idle.unref();
    spare = { worker, idle };
  };
  const takeWorker = (): Worker => {
    const ready = spare;
    spare = null;
    if (!ready) return spawn();
    clearTimeout(ready.idle);
    ready.worker.removeAllListeners();
    ready.worker.ref();
    return ready.worker;
  };

  const next = () => {
    if (running || closed) return;
    const pending = waiting.shift();
    if (pending) start(pending);
  };

  const start = (pending: Pending) => {
    const worker = takeWorker();
    running = { worker, pending };
    let settled = false;
    const startedAt = Date.now();
    let timer = setTimeout(() => finish(new PdfImportError("tooSlow", 422, TOO_SLOW)), baseTimeoutMs);
    const finish = (error: unknown | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      running = null;
      if (error) pending.reject(error);
      else pending.resolve();
      next();
      if (!running) prepareSpare();
    };
    worker.on("message", (message: PdfWorkerMessage) => {
      if (settled) return;
      try {
        switch (message.type) {
          case "opened": {
            clearTimeout(timer);
            const left = startedAt + baseTimeoutMs + perPageMs * message.pageCount - Date.now();
            timer = setTimeout(() => finish(new PdfImportError("tooSlow", 422, TOO_SLOW)), Math.max(0, left));
            pending.events.opened(message.pageCount);
            break;
          }
          case "page":
            pending.events.page(message.page);
            break;
          case "done":
            finish(null);
            break;
          case "error":
            finish(new PdfImportError(message.problem, message.statusCode, message.message));
            break;
        }
      } catch (error) {
        finish(error);
      }
    });
    // Out of memory (ERR_WORKER_OUT_OF_MEMORY) or a crash: the file was too much for one worker.
    worker.on("error", () => finish(new PdfImportError("tooComplex", 422, TOO_COMPLEX)));
    worker.on("exit", () => finish(new PdfImportError("tooComplex", 422, TOO_COMPLEX)));
    pending.events.started?.();
    const bytes = pending.bytes;
    // The bytes move to the worker (no copy) when they are the whole of their buffer.
    const transfer =
      bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? [bytes.buffer as ArrayBuffer] : [];
    worker.postMessage({ bytes }, transfer);
  };

  return {
    convert(bytes, events) {
      if (closed) return Promise.reject(new Error("The PDF workers are closed."));
      if (running && waiting.length >= maxWaiting) {
        return Promise.reject(
          new PdfImportError("busy", 503, "Podium is converting other PDFs right now. Try again in a minute.", 60),
        );
      }
      return new Promise<void>((resolve, reject) => {
        waiting.push({ bytes, events, resolve, reject });
        next();
      });
    },
    async close() {
      closed = true;
      dropSpare();
      for (const pending of waiting.splice(0)) pending.reject(new Error("The PDF workers are closed."));
      if (running) {
        const { worker, pending } = running;
        running = null;
        pending.reject(new Error("The PDF workers are closed."));
        await worker.terminate();
      }
    },
  };
}
