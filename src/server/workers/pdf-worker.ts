import { setPriority } from "node:os";
import { PdfImportError, type PdfPage } from "../../features/pdf-import/errors";
import { loadPdfJs, type OpenPdf, openPdf } from "../../features/pdf-import/reader";

/**
 * The PDF converter's entry (built to dist/server/pdf-worker.js), run as a CHILD PROCESS
 * (server/workers/pdf-pool.ts forks it), so its memory — pdfjs's heap and the canvas's and
 * sharp's native memory alike — is one process's, which the server watches as a whole and kills
 * past its ceiling. It holds the PDFs it is given open and draws their pages when told to: one
 * slice of one PDF at a time, so the server can take turns across people.
 */

export type PdfChildRequest =
  /** Open this PDF (job) and answer `opened`; drawing starts at page `from`. */
  | { type: "open"; job: number; bytes: Uint8Array; from: number }
  /** Draw the job's next pages: one, then any more that start within `sliceMs` (each is finished). */
  | { type: "run"; job: number; sliceMs: number }
  /** Someone else's PDF is waiting: finish the page under way and end the turn (sent during a `run`). */
  | { type: "yield"; job: number }
  /** Forget the job (done, failed or given up on). */
  | { type: "close"; job: number };

export type PdfChildMessage =
  /** pdfjs is loaded: the child is ready for a PDF (sent once, first). */
  | { type: "ready" }
  | { type: "opened"; job: number; pageCount: number }
  | { type: "page"; job: number; page: PdfPage }
  /** The slice is over; the job has pages left. */
  | { type: "paused"; job: number }
  /** Every page of the job has been sent. */
  | { type: "done"; job: number }
  | { type: "error"; job: number; problem: PdfImportError["problem"]; statusCode: number; message: string };

const send = process.send?.bind(process);
if (!send) throw new Error("pdf-worker runs as a child process with an IPC channel (pdf-pool.ts)");
const post = (message: PdfChildMessage) => send(message);

// pdfjs loads as soon as the process starts: a spare converter waits with it loaded (pdf-pool.ts).
// Then nice 10: a long PDF yields the CPU to page requests (not before: on a busy machine a
// niced start could take longer than the server waits for it).
void loadPdfJs()
  .catch(() => {})
  .then(() => {
    try {
      setPriority(0, 10);
    } catch {
      // Not allowed: normal priority.
    }
    post({ type: "ready" });
  });

const open = new Map<number, { pdf: OpenPdf; next: number }>();
/** Jobs asked to end their turn after the page under way. */
const yielding = new Set<number>();

const refusal = (job: number, error: unknown) => {
  if (error instanceof PdfImportError) {
    post({ type: "error", job, problem: error.problem, statusCode: error.statusCode, message: error.message });
  } else {
    post({
      type: "error",
      job,
      problem: "corrupt",
      statusCode: 422,
      message:
        "This PDF is damaged or isn't a PDF Podium can read. Export it again from the program that made it and try once more.",
    });
  }
};

const closeJob = async (job: number) => {
  const entry = open.get(job);
  open.delete(job);
  await entry?.pdf.close();
};

// One request at a time (the server sends the next only after this one is answered), but for
// `yield`, which comes during a `run`.
process.on("message", async (request: PdfChildRequest) => {
  const { job } = request;
  if (request.type === "yield") {
    yielding.add(job);
    return;
  }
  try {
    switch (request.type) {
      case "open": {
        // A plain Uint8Array over the same bytes: pdfjs refuses a Buffer (what a Buffer sent arrives as).
        const { buffer, byteOffset, byteLength } = request.bytes;
        const pdf = await openPdf(new Uint8Array(buffer, byteOffset, byteLength));
        open.set(job, { pdf, next: request.from });
        post({ type: "opened", job, pageCount: pdf.pageCount });
        break;
      }
      case "run": {
        const entry = open.get(job);
        if (!entry) throw new Error("no such job");
        // At least one page a turn, then as many as start within the slice.
        const until = Date.now() + request.sliceMs;
        let pages = 0;
        yielding.delete(job);
        entry.next = await entry.pdf.drawPages(
          entry.next,
          () => pages++ === 0 || (Date.now() < until && !yielding.has(job)),
          (page) => post({ type: "page", job, page }),
        );
        if (entry.next > entry.pdf.pageCount) {
          await closeJob(job);
          post({ type: "done", job });
        } else {
          post({ type: "paused", job });
        }
        break;
      }
      case "close":
        await closeJob(job);
        break;
    }
  } catch (error) {
    await closeJob(job).catch(() => {});
    refusal(job, error);
  }
});

// The server went away: so does its converter.
process.on("disconnect", () => process.exit(0));
