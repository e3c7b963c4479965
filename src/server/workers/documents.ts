import { MarkdownImportError } from "../../document/markdown";
import { InvalidDocumentError } from "../../document/schema";
import { DashboardError } from "../../features/dashboard/errors";
import { DocumentTooComplexError, type DocumentWork } from "../../features/document-work";
import { type TransferredError, WorkerPool, WorkTimeoutError } from "./pool";

/**
 * Issue 9: the worst import is finished or refused within 2 s; this leaves room for the rest of the
 * request. It is the work's CPU time (pool.ts): on a busy machine an ordinary import that waits for
 * a core is not refused as too complex (issue 29), and a hostile one still stops within
 * WALL_LIMIT_FACTOR times this.
 */
export const DOCUMENT_WORK_TIMEOUT_MS = 1_500;
/** A document worker's heap: a 1 MB Markdown file makes a few MB of document, far below this. */
const DOCUMENT_WORKER_HEAP_MB = 256;
/** The built worker's file name beside the server bundle (vite.config.ts). */
export const DOCUMENT_WORKER_FILE = "document-worker.js";

/** The errors a document task may throw, rebuilt on this side so features can tell them apart. */
function rebuild(error: TransferredError): Error {
  const fields = error.fields as Record<string, unknown>;
  switch (error.name) {
    case "DashboardError":
      return new DashboardError(fields.statusCode as never, String(fields.messageId), fields.values as never);
    case "MarkdownImportError":
      return new MarkdownImportError(error.message, fields.problem as never);
    case "InvalidDocumentError":
      return new InvalidDocumentError(String(fields.field), String(fields.problem));
    default:
      return Object.assign(new Error(error.message), { name: error.name });
  }
}

export interface DocumentWorkers extends DocumentWork {
  close(): Promise<void>;
}

/** DocumentWork on a pool of worker threads running the built document worker. */
export function createDocumentWorkers(
  workerDir: string,
  options: { size?: number; timeoutMs?: number } = {},
): DocumentWorkers {
  const timeoutMs = options.timeoutMs ?? DOCUMENT_WORK_TIMEOUT_MS;
  const pool = new WorkerPool(
    new URL(DOCUMENT_WORKER_FILE, `file://${workerDir.endsWith("/") ? workerDir : `${workerDir}/`}`),
    { size: options.size, timeoutMs, maxHeapMb: DOCUMENT_WORKER_HEAP_MB, warm: true },
    rebuild,
  );
  const run = async <Result>(task: string, payload: unknown): Promise<Result> => {
    try {
      return await pool.run<Result>(task, payload);
    } catch (error) {
      if (error instanceof WorkTimeoutError) throw new DocumentTooComplexError(Math.round(timeoutMs / 100) / 10);
      throw error;
    }
  };
  return {
    importMarkdown: (source, schemaVersion) => run("importMarkdown", { source, schemaVersion }),
    exportMarkdown: (document) => run("exportMarkdown", { document }),
    documentFromFile: (file, schemaVersion) => run("documentFromFile", { file, schemaVersion }),
    editorPreview: (markdown, schemaVersion) => run("editorPreview", { markdown, schemaVersion }),
    close: () => pool.close(),
  };
}
