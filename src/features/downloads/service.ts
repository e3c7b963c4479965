import type { Queryable } from "../../db/client";
import { documentToMarkdown } from "../../document/markdown-export";
import { countSlidesWithNotes } from "../../document/notes";
import { posterTopicOf } from "../../document/page-shape";
import type { PresentationDocument, Topic } from "../../document/schema";
import { isOwnerOrCollaborator } from "../events/viewer-repository";
import { findPresentationByOid, type PresentationRow } from "../presentation/repository";
import { accessibleRow, type PresentationRoute, presentationByLink } from "../presentation/service";
import { stepTopic } from "../presentation/step-titles";
import { renderThumbnailSvg } from "../presentation/thumbnail";
import { thumbnailImages } from "../presentation/thumbnail-images";
import type { Viewer } from "../viewer";
import { countDownload, findMarkdownSource, findOriginalPdf } from "./repository";
import { type SlidePage, slidesPdf } from "./slides-pdf";

/**
 * Issue 33 item 4: downloads. The public page offers them when the owner allows it for the deck
 * (`presentations.allow_download`, off by default); a view link when its own setting allows it.
 * A PDF deck downloads as the PDF it was imported from (kept since issue 33; older ones as the
 * PDF drawn from the slides), any other deck as that drawn PDF, and a Markdown deck also as its
 * Markdown. Where downloads aren't allowed there is nothing: every download route is a 404, as
 * for a deck or link that doesn't exist.
 */
export type DownloadKind = "pdf" | "markdown";

/** What the view pages offer: the addresses of the downloads allowed, or null. */
export interface DownloadOffer {
  pdf: string;
  markdown: string | null;
}

/** The download addresses under a page's base path (`/p/{oid}/` or `/view/{linkId}/`). */
export function downloadOfferOf(basePath: string, row: Pick<PresentationRow, "hasMarkdown">): DownloadOffer {
  return { pdf: `${basePath}download.pdf`, markdown: row.hasMarkdown ? `${basePath}download.md` : null };
}

export interface Download {
  body: Uint8Array | string;
  contentType: string;
  filename: string;
}

/**
 * The deck behind a route when this viewer may download it: the deck visible to them and its
 * downloads allowed there. Null otherwise (the route answers 404).
 */
async function downloadable(
  db: Queryable,
  route: PresentationRoute,
  viewer: Viewer,
): Promise<{ row: PresentationRow; linkId: string; counts: boolean } | null> {
  if ("linkId" in route) {
    const found = await presentationByLink(db, route, viewer);
    if (!found?.link.allowDownload) return null;
    return { row: found.row, linkId: found.link.linkId, counts: !found.access.edit };
  }
  const row = await accessibleRow(db, route, viewer);
  if (!row?.allowDownload) return null;
  // The owner's and collaborators' own downloads aren't counted, like their views.
  const own = viewer !== null && (await isOwnerOrCollaborator(db, row.oid, viewer.userId));
  return { row, linkId: "", counts: !own };
}

/** The download of `kind` through `route`, counted; null when there is none for this viewer. */
export async function getDownload(
  db: Queryable,
  route: PresentationRoute,
  viewer: Viewer,
  kind: DownloadKind,
): Promise<Download | null> {
  const found = await downloadable(db, route, viewer);
  if (!found) return null;
  const { row } = found;
  let download: Download | null;
  if (kind === "markdown") {
    const markdown = row.hasMarkdown ? await markdownOf(db, row) : null;
    download =
      markdown === null
        ? null
        : { body: markdown, contentType: "text/markdown; charset=utf-8", filename: `${fileStem(row.title)}.md` };
  } else {
    // A deck edited as Markdown since its PDF was imported is no longer that PDF.
    const original = row.hasMarkdown ? null : await findOriginalPdf(db, row.id);
    download = {
      body: original ?? (await drawnPdf(db, row)),
      contentType: "application/pdf",
      filename: `${fileStem(row.title)}.pdf`,
    };
  }
  if (download && found.counts) await countDownload(db, row.id, found.linkId);
  return download;
}

/**
 * The Markdown as written, unless it holds speaker notes the owner hasn't published: then the
 * same slides written again from the audience's document (document/markdown-export.ts), without them.
 */
async function markdownOf(db: Queryable, row: PresentationRow): Promise<string | null> {
  const source = await findMarkdownSource(db, row.id);
  if (source === null) return null;
  if (row.notesPublic) return source;
  const full = await findPresentationByOid(db, row.oid, { withPrivateNotes: true });
  if (full && countSlidesWithNotes(full.document) > 0) return documentToMarkdown(row.document);
  return source;
}

/** Drawn PDFs kept, by deck and version: a second download of an unchanged deck is free. */
const DRAWN_CACHE_ENTRIES = 4;
/** A drawn PDF larger than this isn't kept (memory: issue 27). */
const DRAWN_CACHE_MAX_BYTES = 16 * 1024 * 1024;
const drawnCache = new Map<string, Uint8Array>();
/** One deck drawn at a time in a process (CPU: sharp rasterises each slide); the others wait their turn. */
let drawing: Promise<unknown> = Promise.resolve();
/** Decks waiting to be drawn in a process, at most; past it the download is a 503 (issue 27: bounded work). */
export const MAX_DRAWS_WAITING = 4;
let waiting = 0;

/** Too many PDFs are being drawn in this process: try again in a moment (the route answers 503). */
export class DownloadBusyError extends Error {
  readonly retryAfterSeconds = 5;
  constructor() {
    super("Podium is making too many PDFs right now; please try again in a few seconds.");
  }
}

async function drawnPdf(db: Queryable, row: PresentationRow): Promise<Uint8Array> {
  const key = `${row.oid}:${row.lastModified.getTime()}`;
  const kept = drawnCache.get(key);
  if (kept) return kept;
  if (waiting >= MAX_DRAWS_WAITING) throw new DownloadBusyError();
  waiting += 1;
  const turn = drawing.then(async () => {
    const pages: SlidePage[] = [];
    for (let step = 1; step <= row.document.path.length; step++) {
      const topic = slideOf(row.document, step);
      pages.push({
        svg: renderThumbnailSvg({
          title: row.title,
          theme: row.document.theme,
          topic,
          images: await thumbnailImages(db, topic),
        }),
        text: textOf(topic),
      });
    }
    if (pages.length === 0) {
      const topic = posterTopicOf(row.document);
      pages.push({ svg: renderThumbnailSvg({ title: row.title, theme: row.document.theme, topic }), text: row.title });
    }
    return slidesPdf({ title: row.title, pages });
  });
  drawing = turn.catch(() => {});
  const pdf = await turn.finally(() => {
    waiting -= 1;
  });
  if (pdf.byteLength <= DRAWN_CACHE_MAX_BYTES) {
    if (drawnCache.size >= DRAWN_CACHE_ENTRIES) drawnCache.delete(drawnCache.keys().next().value ?? "");
    drawnCache.set(key, pdf);
  }
  return pdf;
}

/** The topic a step shows, or the deck's poster for a step with nothing on it (an overview frame). */
function slideOf(document: PresentationDocument, step: number): Topic | null {
  const topic = stepTopic(document, step);
  if (topic && (topic.texts.length > 0 || topic.images.length > 0)) return topic;
  return posterTopicOf(document);
}

/** What a slide says: its texts' paragraphs and its images' alt text, nested topics included. */
export function textOf(topic: Topic | null): string {
  if (!topic) return "";
  const lines: string[] = [];
  const visit = (t: Topic) => {
    for (const text of t.texts) for (const paragraph of text.paragraphs) lines.push(paragraph.text);
    for (const image of t.images) if (image.alt) lines.push(image.alt);
    for (const child of t.topics) visit(child);
  };
  visit(topic);
  return lines.join("\n");
}

/** A file name from the title: letters, digits and dashes (the header's filename* keeps the title's own letters). */
export function fileStem(title: string): string {
  const stem = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .toLowerCase();
  return stem || "presentation";
}
