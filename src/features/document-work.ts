import type { MarkdownDeck } from "../document/markdown";
import type { PresentationDocument } from "../document/schema";
import type { ImportedFile, ImportFile } from "./dashboard/import-file";
import type { EditorPreview } from "./editor/preview";

/**
 * CPU-heavy document work, done off the request loop (issue 9): the server runs it in worker
 * threads with a time limit (server/workers); features only see this contract. Each call
 * rejects with the same errors the pure function throws (MarkdownImportError, DashboardError,
 * …), or DocumentTooComplexError past the time limit.
 */
export interface DocumentWork {
  /** document/markdown.ts readMarkdownDeck, code highlighted */
  importMarkdown(source: string, schemaVersion: "0" | "2"): Promise<MarkdownDeck>;
  /** document/markdown-export.ts documentToMarkdown */
  exportMarkdown(document: PresentationDocument): Promise<string>;
  /** features/dashboard/import-file.ts documentFromFile */
  documentFromFile(file: ImportFile, schemaVersion: "0" | "2"): Promise<ImportedFile>;
  /** features/editor/preview.ts previewOf */
  editorPreview(markdown: string, schemaVersion: "0" | "2"): Promise<EditorPreview>;
}

/** The work ran past its time limit and was stopped: the person is told so (422), with the limit. */
export class DocumentTooComplexError extends Error {
  override readonly name = "DocumentTooComplexError";
  readonly statusCode = 422;
  constructor(readonly seconds: number) {
    super(`Podium couldn't read this document within ${seconds} seconds. Split it into smaller decks and try again.`);
  }
}
