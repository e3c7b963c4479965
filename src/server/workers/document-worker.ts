import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort } from "node:worker_threads";
import { highlightCode } from "../../document/highlight";
import { readMarkdownDeck } from "../../document/markdown";
import { documentToMarkdown } from "../../document/markdown-export";
import type { PresentationDocument } from "../../document/schema";
import { documentFromFile, type ImportFile } from "../../features/dashboard/import-file";
import { previewOf } from "../../features/editor/preview";
import { serveTasks } from "./pool";

/**
 * The document worker's entry (built to dist/server/document-worker.js): each task is one of
 * the pure functions behind features/document-work.ts, run here so the request loop stays free.
 */
type SchemaVersion = "0" | "2";

if (!parentPort) throw new Error("document-worker runs as a worker thread");

/**
 * Document work yields the CPU to the request loop: on Linux this thread lowers its own
 * scheduling priority (nice 10; a thread id is a pid to setpriority), so a stream of heavy
 * imports slows imports, not every other visitor. Elsewhere it runs at normal priority.
 */
const WORKER_NICE = 10;
try {
  const threadId = Number(readlinkSync("/proc/thread-self").split("/").pop());
  if (Number.isInteger(threadId) && threadId > 0) setPriority(threadId, WORKER_NICE);
} catch {
  // Not Linux, or not allowed: normal priority.
}

serveTasks(parentPort, {
  importMarkdown: ({ source, schemaVersion }: { source: string; schemaVersion: SchemaVersion }) =>
    readMarkdownDeck(source, schemaVersion, { highlight: highlightCode }),
  exportMarkdown: ({ document }: { document: PresentationDocument }) => documentToMarkdown(document),
  documentFromFile: ({ file, schemaVersion }: { file: ImportFile; schemaVersion: SchemaVersion }) =>
    // Structured cloning turns a Buffer into a Uint8Array; the reader wants a Buffer.
    documentFromFile({ ...file, content: Buffer.from(file.content) }, schemaVersion, { highlight: highlightCode }),
  editorPreview: ({ markdown, schemaVersion }: { markdown: string; schemaVersion: SchemaVersion }) =>
    previewOf(markdown, schemaVersion),
});
