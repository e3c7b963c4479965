import type { LocalImage, MarkdownWarning } from "../../document/markdown";
import type { Theme } from "../../document/schema";
import type { MessageId } from "../../i18n/locales";
import type { PlayerProps } from "../presentation/components/player/Player";
import type { Privacy, SchemaVersion } from "../presentation/repository";
import type { EditorPreview } from "./preview";

/** The editor page's data (product brief, "The editor"): the form for editors, commenting for everyone it serves. */

export const EDITOR_FIELDS = ["title", "description", "privacy", "tags", "markdown"] as const;
export type EditorField = (typeof EDITOR_FIELDS)[number];

/** A message for the person, in their language. */
export interface EditorMessage {
  id: MessageId;
  values?: Record<string, string | number>;
}

export type EditorValues = Record<EditorField, string>;

export interface EditorForm {
  values: EditorValues;
  /** The preview of values.markdown, read on the server in a worker thread. */
  preview: EditorPreview;
  errors: Partial<Record<EditorField, EditorMessage>>;
  /** Only the owner changes who may see the presentation (policy: manage). */
  canChangePrivacy: boolean;
  /** A deck of PDF pages: no Markdown to edit; its slides stay as they are (issue 10). */
  pageDeck: boolean;
  /**
   * Issue 28: the speaker notes' choice, where notes are written: "private" (the presenter view
   * only) or "public" (under each slide for the deck's audience). Only the owner changes it.
   */
  notes: NotesChoice;
}

/** Issue 28: who reads a deck's speaker notes. */
export type NotesChoice = "private" | "public";

export interface CommentView {
  id: string;
  authorName: string;
  authorInitials: string;
  authorColor: string;
  createdAt: string;
  body: string;
  /** The viewer wrote it, or owns the presentation. */
  canDelete: boolean;
}

export interface CommentingData {
  player: PlayerProps;
  comments: CommentView[];
  /** All of the presentation's comments (the list shows the newest of them). */
  commentCount: number;
  /** The comment being written when it was refused, and why. */
  draft: string;
  draftError: EditorMessage | null;
}

export interface EditorPageData {
  oid: string;
  schemaVersion: SchemaVersion;
  /** The deck's slide theme, chosen on the manage page (the Markdown doesn't carry it). */
  theme: Theme;
  /** The stored title (the page's heading, whatever the form holds). */
  title: string;
  privacy: Privacy;
  /** This editor's own address (pitch or classic). */
  editorPath: string;
  viewUrl: string;
  /** Present for people with the edit right; commenting-only visitors get null. */
  form: EditorForm | null;
  commenting: CommentingData;
  notice: EditorMessage | null;
  /** What the last save's Markdown kept only as text (issue 10). */
  importWarnings: MarkdownWarning[];
  /** Issue 28 item 7: image files the Markdown names by a relative path, to upload (with a localImage warning). */
  localImages: LocalImage[];
  /** Open in commenting mode whatever the address says (a refused comment is shown where it was written). */
  startInCommenting: boolean;
}

/** Spec §2: `#present` on the editor's address opens commenting mode. */
export const COMMENTING_HASH = "#present";
/** Product brief: comments hold 1 to 2000 characters. */
export const COMMENT_MAX_LENGTH = 2000;
/** Product brief, "Privacy and links": who may see a presentation. */
export const PRIVACY_CHOICES = ["public", "reusable", "unlisted", "private"] as const;
