import type { ImportedFile, ImportFile } from "./dashboard/import-file";
import type { EditorPreview } from "./editor/preview";
import type { MarkdownDeck } from "./presentation/document/markdown";
import type { PresentationDocument } from "./presentation/document/schema";

/**
 * CPU-heavy document work, done off the request loop (issue 9): the server runs it in worker
 * threads with a time limit (server/workers); features only see this contract. Each call
 * rejects with the same errors the pure function throws (MarkdownImportError, DashboardError,
 * …), or DocumentTooComplexError past the time limit.
 */
export interface DocumentWork {
  /** features/presentation/document/markdown.ts readMarkdownDeck, code highlighted */
  importMarkdown(source: string, schemaVersion: "0" | "2"): Promise<MarkdownDeck>;
  /** features/presentation/document/markdown-export.ts documentToMarkdown */
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
