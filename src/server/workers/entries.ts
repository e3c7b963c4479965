/**
 * The server's worker threads and its PDF converter (a child process, pdf-pool.ts), each built to
 * its own file beside the server bundle (vite.config.ts, and the test builds): the document
 * worker, the PDF converter, and the embedded database's thread.
 */
export const WORKER_ENTRIES = {
  "document-worker": "src/server/workers/document-worker.ts",
  "pdf-worker": "src/server/workers/pdf-worker.ts",
  "pglite-worker": "src/db/pglite-worker.ts",
} as const;
