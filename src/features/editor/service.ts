import type { Database, Queryable } from "../../db/client";
import {
  type LocalImage,
  MARKDOWN_MAX_LENGTH,
  MarkdownImportError,
  type MarkdownWarning,
  replaceImageSource,
} from "../../document/markdown";
import { pageShapeOf } from "../../document/page-shape";
import { isPageDeck, type PresentationDocument } from "../../document/schema";
import { isOid } from "../../lib/ids";
import { avatarColor, avatarInitials, ownerDisplayName } from "../../lib/owner";
import { ASSET_PATH, findAsset } from "../assets/repository";
import { DashboardError, PRIVACIES, parseTags, TAG_LIMITS } from "../dashboard/service";
import { DocumentTooComplexError, type DocumentWork } from "../document-work";
import { DESCRIPTION_MAX_LENGTH, sanitizeDescription } from "../presentation/description";
import { editorUrl } from "../presentation/editor-links";
import type { PresentationAccess } from "../presentation/policy";
import {
  findPresentationByOid,
  findSourceMarkdown,
  type PresentationRow,
  type Privacy,
} from "../presentation/repository";
import { accessTo, canonicalPathOf, ownerDataOf, thumbnailPathOf } from "../presentation/service";
import { FALLBACK_THUMBNAIL } from "../presentation/thumbnail";
import type { Viewer } from "../viewer";
import {
  COMMENT_MAX_LENGTH,
  type CommentView,
  type EditorField,
  type EditorMessage,
  type EditorPageData,
  type EditorValues,
  type NotesChoice,
} from "./page-data";
import type { EditorPreview } from "./preview";
import {
  type CommentRow,
  deleteComment,
  findComment,
  insertComment,
  listComments,
  updatePresentationContent,
} from "./repository";

/** Titles: 1 to 200 characters (as on the dashboard). */
export const TITLE_MAX_LENGTH = 200;
/** The tags field as typed, before it is split. */
export const TAGS_FIELD_MAX_LENGTH = 2000;
/** How many comments the panel shows (newest first). */
export const COMMENTS_SHOWN = 200;

type SignedIn = NonNullable<Viewer>;

/** Something the editor refuses outright: 404 hides what the viewer may not know exists. */
export class EditorError extends Error {
  override readonly name = "EditorError";
  constructor(readonly statusCode: 403 | 404) {
    super(statusCode === 404 ? "not found" : "forbidden");
  }
}

export interface EditorTarget {
  row: PresentationRow;
  access: PresentationAccess;
}

/**
 * The presentation behind an editor address, for someone who may edit or comment on it (the
 * policy decides); anyone else gets a 404, so private presentations stay unknown.
 */
export async function editorTarget(db: Queryable, viewer: SignedIn, oid: string): Promise<EditorTarget> {
  // The document whole, notes included (issue 28): only an editor's form shows it (getEditorPage).
  const row = isOid(oid) ? await findPresentationByOid(db, oid, { withPrivateNotes: true }) : null;
  if (!row) throw new EditorError(404);
  const access = await accessTo(db, row, viewer);
  if (!access.comment) throw new EditorError(404);
  return { row, access };
}

/** Spec §2 (R2.12): the editor's address for this presentation's schema version. */
export function editorPathOf(row: Pick<PresentationRow, "oid" | "schemaVersion">): string {
  return editorUrl(row.oid, row.schemaVersion);
}

function commentViewOf(comment: CommentRow, viewer: SignedIn, access: PresentationAccess): CommentView {
  const names = {
    firstName: comment.authorFirstName,
    lastName: comment.authorLastName,
    publicDisplayName: comment.authorPublicDisplayName,
  };
  return {
    id: comment.id,
    authorName: ownerDisplayName(names) || comment.authorUsername,
    authorInitials: avatarInitials({ ...names, email: comment.authorEmail }),
    authorColor: avatarColor({ email: comment.authorEmail, username: comment.authorUsername }),
    createdAt: comment.createdAt.toISOString(),
    body: comment.body,
    canDelete: comment.authorId === viewer.userId || access.manage,
  };
}

/** The form's values for the stored presentation (its Markdown is written in a worker). */
async function valuesOf(db: Queryable, documents: DocumentWork, row: PresentationRow): Promise<EditorValues> {
  // The Markdown it was imported or saved from, as written; else the document written as Markdown
  // (a deck of PDF pages has none).
  const source = await findSourceMarkdown(db, row.id);
  const pageDeck = source === null && isPageDeck(row.document);
  return {
    title: row.title,
    description: row.descriptionHtml,
    privacy: row.privacy,
    tags: row.tags.join(", "),
    markdown: source ?? (pageDeck ? "" : await documents.exportMarkdown(row.document)),
  };
}

/** The document a save keeps as it is (a deck of PDF pages with no Markdown source), or null. */
async function keptDocument(db: Queryable, row: PresentationRow): Promise<PresentationDocument | null> {
  if (!isPageDeck(row.document)) return null;
  return (await findSourceMarkdown(db, row.id)) === null ? row.document : null;
}

/** The preview of the form's Markdown, read in a worker; past the time limit, a problem that says so. */
async function previewIn(documents: DocumentWork, markdown: string, schemaVersion: "0" | "2"): Promise<EditorPreview> {
  try {
    return await documents.editorPreview(markdown, schemaVersion);
  } catch (error) {
    if (!(error instanceof DocumentTooComplexError)) throw error;
    return { problem: { id: "editor.error.markdown.tooComplex", values: { seconds: error.seconds } } };
  }
}

export interface EditorPageOptions {
  notice?: EditorMessage | null;
  importWarnings?: MarkdownWarning[];
  /** Issue 28 item 7: image files the Markdown names, offered for upload beside the warnings. */
  localImages?: LocalImage[];
  /** A refused save: what was typed, and what was wrong with it. */
  refusedSave?: {
    values: EditorValues;
    errors: Partial<Record<EditorField, EditorMessage>>;
    /** Issue 28: the notes' choice as sent, when the owner sent one. */
    notes?: NotesChoice | undefined;
  };
  /** A refused comment: what was typed, and why. */
  refusedComment?: { draft: string; error: EditorMessage };
}

export async function getEditorPage(
  db: Queryable,
  documents: DocumentWork,
  viewer: SignedIn,
  target: EditorTarget,
  options: EditorPageOptions = {},
): Promise<EditorPageData> {
  const { row, access } = target;
  const comments = await listComments(db, row.id, COMMENTS_SHOWN);
  const values = access.edit ? (options.refusedSave?.values ?? (await valuesOf(db, documents, row))) : null;
  const pageDeck = values !== null && (await keptDocument(db, row)) !== null;
  return {
    oid: row.oid,
    schemaVersion: row.schemaVersion,
    theme: row.document.theme ?? "light",
    title: row.title,
    privacy: row.privacy,
    editorPath: editorPathOf(row),
    viewUrl: canonicalPathOf(row),
    form: values
      ? {
          values,
          preview: pageDeck ? { slides: [] } : await previewIn(documents, values.markdown, row.schemaVersion),
          errors: options.refusedSave?.errors ?? {},
          canChangePrivacy: access.manage,
          pageDeck,
          notes: options.refusedSave?.notes ?? (row.notesPublic ? "public" : "private"),
        }
      : null,
    commenting: {
      player: {
        oid: row.oid,
        title: row.title,
        owner: ownerDataOf(row),
        lastModified: row.lastModified.toISOString(),
        schemaVersion: row.schemaVersion,
        documentUrl: `/p/${row.oid}/document.json`,
        previewUrl: thumbnailPathOf(row.oid),
        fallbackPreviewUrl: `/p/${row.oid}/${FALLBACK_THUMBNAIL}`,
        stepCount: row.document.path.length,
        ...pageShapeOf(row.document),
        autoplay: false,
        viewOnPodiumUrl: null,
        learnMoreUrl: null,
        titleIsHeading: false,
        posterMeta: true,
      },
      comments: comments.map((comment) => commentViewOf(comment, viewer, access)),
      commentCount: comments[0]?.total ?? 0,
      draft: options.refusedComment?.draft ?? "",
      draftError: options.refusedComment?.error ?? null,
    },
    notice: options.notice ?? null,
    importWarnings: options.importWarnings ?? [],
    localImages: options.localImages ?? [],
    startInCommenting: options.refusedComment !== undefined,
  };
}

export type SaveResult =
  | { saved: true; warnings: MarkdownWarning[] }
  | {
      saved: false;
      values: EditorValues;
      errors: Partial<Record<EditorField, EditorMessage>>;
      notes?: NotesChoice | undefined;
    };

/**
 * Reads the editor's form: every field is checked, and each problem is named on its field. The
 * Markdown is read by `documents` (a worker thread on the server).
 */
export async function readEditorForm(
  documents: Pick<DocumentWork, "importMarkdown">,
  form: EditorValues,
  schemaVersion: "0" | "2",
  /** A deck of PDF pages keeps its document: its Markdown field is not read. */
  keep: PresentationDocument | null = null,
): Promise<{
  errors: Partial<Record<EditorField, EditorMessage>>;
  descriptionHtml: string;
  tags: string[];
  document: PresentationDocument | null;
  warnings: MarkdownWarning[];
}> {
  const errors: Partial<Record<EditorField, EditorMessage>> = {};
  const title = form.title.trim();
  if (title === "") errors.title = { id: "editor.error.titleRequired" };
  else if (title.length > TITLE_MAX_LENGTH)
    errors.title = { id: "editor.error.titleTooLong", values: { max: TITLE_MAX_LENGTH } };
  // Owner-supplied HTML is sanitised on save (architecture: DOMPurify); links gain attributes,
  // so the stored length is checked after sanitising.
  const descriptionHtml = form.description.length > DESCRIPTION_MAX_LENGTH ? "" : sanitizeDescription(form.description);
  if (form.description.length > DESCRIPTION_MAX_LENGTH || descriptionHtml.length > DESCRIPTION_MAX_LENGTH) {
    errors.description = { id: "editor.error.descriptionTooLong", values: { max: DESCRIPTION_MAX_LENGTH } };
  }
  if (!(PRIVACIES as readonly string[]).includes(form.privacy)) errors.privacy = { id: "editor.error.privacy" };
  let tags: string[] = [];
  const tagsProblem: EditorMessage = {
    id: "editor.error.tags",
    values: { count: TAG_LIMITS.count, length: TAG_LIMITS.length },
  };
  if (form.tags.length > TAGS_FIELD_MAX_LENGTH) errors.tags = tagsProblem;
  else {
    try {
      tags = parseTags(form.tags);
    } catch (error) {
      if (!(error instanceof DashboardError)) throw error;
      errors.tags = tagsProblem;
    }
  }
  let document: PresentationDocument | null = null;
  let warnings: MarkdownWarning[] = [];
  if (keep) return { errors, descriptionHtml, tags, document: keep, warnings };
  try {
    ({ document, warnings } = await documents.importMarkdown(form.markdown, schemaVersion));
  } catch (error) {
    // A busy server (503) is no fault of the Markdown: the request fails as a whole.
    if ((error as { statusCode?: number }).statusCode === 503) throw error;
    if (error instanceof DocumentTooComplexError) {
      errors.markdown = { id: "editor.error.markdown.tooComplex", values: { seconds: error.seconds } };
    } else if (!(error instanceof MarkdownImportError)) {
      // The importer validates what it makes; a document it can't make is still the source's fault.
      errors.markdown = { id: "editor.error.markdown.invalid" };
    } else if (error.problem.code === "tooLarge") {
      errors.markdown = { id: "editor.error.markdown.tooLarge", values: { limit: MARKDOWN_MAX_LENGTH } };
    } else if (error.problem.code === "tooManySlides") {
      errors.markdown = { id: "editor.error.markdown.tooManySlides", values: error.problem.values };
    } else {
      errors.markdown = { id: "editor.error.markdown.noSlides" };
    }
  }
  return { errors, descriptionHtml, tags, document, warnings };
}

/**
 * Saves the editor's form: title, description (sanitised), privacy, tags and the document from
 * the Markdown, all in one transaction, or nothing when any field is refused.
 */
export async function saveEditor(
  db: Database,
  documents: DocumentWork,
  viewer: SignedIn,
  oid: string,
  form: EditorValues & {
    privacySent: boolean;
    /** Issue 28: the notes' choice as the form sent it (null: not sent, as from an editor's form). */
    notes?: string | null;
  },
): Promise<SaveResult & { target: EditorTarget }> {
  const target = await editorTarget(db, viewer, oid);
  const { row, access } = target;
  if (!access.edit) throw new EditorError(403);
  // Only the owner may change who sees it (policy: manage); collaborators' forms don't send it.
  if (!access.manage && form.privacySent && form.privacy !== row.privacy) throw new EditorError(403);
  const { privacySent: _privacySent, notes: sentNotes, ...fields } = form;
  const values: EditorValues = { ...fields, privacy: access.manage ? form.privacy : row.privacy };
  // Issue 28: only the owner publishes notes; anything but "public" keeps them private.
  const notes: NotesChoice | undefined =
    access.manage && sentNotes !== undefined && sentNotes !== null
      ? sentNotes === "public"
        ? "public"
        : "private"
      : undefined;
  const keep = await keptDocument(db, row);
  const { errors, descriptionHtml, tags, document, warnings } = await readEditorForm(
    documents,
    values,
    row.schemaVersion,
    keep,
  );
  if (Object.keys(errors).length > 0 || !document) return { saved: false, values, errors, notes, target };
  // The theme is chosen on the manage page, not written in the Markdown: a save keeps it.
  if (row.document.theme && !keep) document.theme = row.document.theme;
  await db.transaction((tx) =>
    updatePresentationContent(tx, row.id, {
      title: values.title.trim(),
      descriptionHtml,
      privacy: values.privacy as Privacy,
      tags,
      document,
      // Browsers send a textarea's line breaks as CRLF.
      sourceMarkdown: keep ? null : values.markdown.replace(/\r\n?/g, "\n"),
      notesPublic: notes === undefined ? undefined : notes === "public",
    }),
  );
  return { saved: true, warnings, target };
}

/** Browsers send a textarea's line breaks as CRLF; a comment keeps plain newlines. */
export function normaliseComment(body: string): string {
  return body.replace(/\r\n?/g, "\n").trim();
}

export type CommentResult =
  | { added: true; target: EditorTarget }
  | { added: false; target: EditorTarget; error: EditorMessage };

/** Adds a comment (1–2000 characters) for someone with the comment right. */
export async function addComment(db: Database, viewer: SignedIn, oid: string, rawBody: string): Promise<CommentResult> {
  const target = await editorTarget(db, viewer, oid);
  const body = normaliseComment(rawBody);
  const length = [...body].length;
  if (length === 0) return { added: false, target, error: { id: "editor.comments.error.empty" } };
  if (length > COMMENT_MAX_LENGTH) {
    return {
      added: false,
      target,
      error: { id: "editor.comments.error.tooLong", values: { max: COMMENT_MAX_LENGTH } },
    };
  }
  await insertComment(db, { presentationId: target.row.id, authorId: viewer.userId, body });
  return { added: true, target };
}

/** Deletes a comment: its author or the presentation's owner may; others get 403, unknown ones 404. */
export async function removeComment(
  db: Database,
  viewer: SignedIn,
  oid: string,
  commentId: string,
): Promise<EditorTarget> {
  const target = await editorTarget(db, viewer, oid);
  if (!/^\d{1,18}$/.test(commentId)) throw new EditorError(404);
  await db.transaction(async (tx) => {
    const comment = await findComment(tx, target.row.id, commentId);
    if (!comment) throw new EditorError(404);
    if (comment.authorId !== viewer.userId && !target.access.manage) throw new EditorError(403);
    await deleteComment(tx, target.row.id, commentId);
  });
  return target;
}

/** Why an image file named in the Markdown couldn't take its uploaded image (issue 28 item 7). */
export class LocalImageError extends Error {
  override readonly name = "LocalImageError";
  constructor(
    readonly statusCode: 400 | 409 | 422,
    readonly problem: "notUploaded" | "noMarkdown" | "notInMarkdown" | "markdown",
    message: string,
  ) {
    super(message);
  }
}

/**
 * Issue 28 item 7: an image uploaded for a file the Markdown names (`src`, as the importer read it)
 * takes that file's place: the Markdown is rewritten to show the uploaded image (`url`, an image in
 * Podium) wherever it names the file, and the deck is saved from it, as the editor saves it.
 * Answers what is left to upload.
 */
export async function placeUploadedImage(
  db: Database,
  documents: DocumentWork,
  viewer: SignedIn,
  oid: string,
  src: string,
  url: string,
): Promise<{ replaced: number; warnings: MarkdownWarning[]; localImages: LocalImage[] }> {
  const { row, access } = await editorTarget(db, viewer, oid);
  if (!access.edit) throw new EditorError(403);
  const hash = ASSET_PATH.exec(url)?.[1];
  if (!hash || !(await findAsset(db, hash))) {
    throw new LocalImageError(422, "notUploaded", "That image isn't in Podium. Upload it again.");
  }
  const source = await findSourceMarkdown(db, row.id);
  if (source === null) {
    throw new LocalImageError(
      409,
      "noMarkdown",
      "This presentation wasn't made from Markdown: it names no image files.",
    );
  }
  const { markdown, replaced } = replaceImageSource(source, src, url);
  if (replaced === 0) {
    throw new LocalImageError(
      409,
      "notInMarkdown",
      "The presentation's Markdown doesn't name that image file any more. Reload the page to see what is left.",
    );
  }
  let deck: Awaited<ReturnType<DocumentWork["importMarkdown"]>>;
  try {
    deck = await documents.importMarkdown(markdown, row.schemaVersion);
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 503) throw error;
    // The image's address is longer than the file's name: a source at its limit may not read any more.
    throw new LocalImageError(422, "markdown", "With the image in it, the Markdown is more than Podium takes.");
  }
  const document = deck.document;
  if (row.document.theme) document.theme = row.document.theme;
  await db.transaction((tx) =>
    updatePresentationContent(tx, row.id, {
      title: row.title,
      descriptionHtml: row.descriptionHtml,
      privacy: row.privacy,
      tags: row.tags,
      document,
      sourceMarkdown: markdown,
    }),
  );
  return { replaced, warnings: deck.warnings, localImages: deck.localImages };
}
