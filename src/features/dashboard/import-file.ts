import {
  MarkdownImportError,
  type MarkdownOptions,
  type MarkdownWarning,
  readMarkdownDeck,
} from "../../document/markdown";
import { InvalidDocumentError, type PresentationDocument, parseDocument } from "../../document/schema";
import { findUnstorableText, unstorableCharacterIn } from "../../lib/storable-text";
import { DashboardError } from "./errors";

/**
 * Reading an uploaded presentation file: pure and CPU-heavy, so it runs in a worker thread
 * (server/workers), never on the request loop.
 */

export interface ImportFile {
  filename: string;
  content: Buffer;
  /** The upload was cut at the size limit. */
  truncated: boolean;
}

/** What a file made: the document, what it couldn't show as written, and its Markdown source. */
export interface ImportedFile {
  document: PresentationDocument;
  warnings: MarkdownWarning[];
  /** The Markdown as uploaded (the editor edits it, export gives it back); null for JSON. */
  sourceMarkdown: string | null;
}

/** Reads an uploaded Markdown or JSON file into a validated document; nothing is stored on error. */
export function documentFromFile(
  file: ImportFile,
  schemaVersion: "0" | "2",
  options: MarkdownOptions = {},
): ImportedFile {
  if (file.truncated) throw new DashboardError(413, "dashboard.error.tooLarge");
  if (file.content.length === 0) throw new DashboardError(400, "dashboard.error.emptyFile");
  const kind = /\.(md|markdown|txt)$/i.test(file.filename)
    ? "markdown"
    : /\.json$/i.test(file.filename)
      ? "json"
      : null;
  if (!kind) throw new DashboardError(400, "dashboard.error.fileType");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(file.content);
  } catch {
    throw new DashboardError(400, "dashboard.error.encoding");
  }
  // The edge's one rule for text (lib/storable-text.ts) holds for a file's contents too.
  if (unstorableCharacterIn(text)) throw new DashboardError(400, "dashboard.error.characters");
  if (kind === "markdown") {
    try {
      const { document, warnings } = readMarkdownDeck(text, schemaVersion, options);
      return { document, warnings, sourceMarkdown: text.replace(/\r\n?/g, "\n") };
    } catch (error) {
      if (error instanceof MarkdownImportError)
        throw new DashboardError(400, "dashboard.error.markdown", { problem: error.message });
      if (error instanceof InvalidDocumentError)
        throw new DashboardError(400, "dashboard.error.markdown", { problem: error.message });
      throw error;
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new DashboardError(400, "dashboard.error.json", { problem: (error as Error).message });
  }
  // JSON escapes (`"\ud800"`) can make what the raw text didn't hold.
  if (findUnstorableText(json, "document")) throw new DashboardError(400, "dashboard.error.characters");
  try {
    return { document: parseDocument(json), warnings: [], sourceMarkdown: null };
  } catch (error) {
    if (error instanceof InvalidDocumentError) {
      throw new DashboardError(400, "dashboard.error.document", {
        field: error.field || "(document)",
        problem: error.problem,
      });
    }
    throw error;
  }
}
