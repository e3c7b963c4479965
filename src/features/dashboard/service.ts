import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Database, Queryable } from "../../db/client";
import type { LocalImage, MarkdownWarning } from "../../document/markdown";
import { countSlidesWithNotes, withoutNotes } from "../../document/notes";
import type { PresentationDocument, Theme } from "../../document/schema";
import { isOid } from "../../lib/ids";
import { hashPassword } from "../accounts/password";
import { findUserForLogin } from "../accounts/repository";
import { DocumentTooComplexError, type DocumentWork } from "../document-work";
import { downloadsIn, setAllowDownload } from "../downloads/repository";
import { DESCRIPTION_MAX_LENGTH, sanitizeDescription } from "../presentation/description";
import { editorUrl } from "../presentation/editor-links";
import { parseEmbedHosts } from "../presentation/embed-protocol";
import { LINK_NAME_MAX_LENGTH, PASSCODE_MAX_LENGTH, PASSCODE_MIN_LENGTH } from "../presentation/link-gate";
import { localImagesOf } from "../presentation/local-images";
import {
  type CollaboratorListing,
  countOwnedPresentations,
  deletePresentation,
  findPresentationByOid,
  insertNewPresentation,
  insertViewLink,
  listCollaborators,
  listOwnedPresentations,
  listViewLinks,
  type PresentationRow,
  type PresentationSummary,
  type Privacy,
  type RowOptions,
  removeCollaborator,
  revokeViewLinkOf,
  updateEmbedHosts,
  updateNotesPublic,
  updatePresentationDetails,
  updateViewLinkSettings,
  upsertCollaborator,
  type ViewLinkListing,
  type ViewLinkSettings,
} from "../presentation/repository";
import { accessTo } from "../presentation/service";
import type { Viewer } from "../viewer";
import {
  type Audience,
  DEFAULT_ENGAGEMENT_PERIOD,
  ENGAGEMENT_PERIODS,
  type EngagementFigures,
  engagementFigures,
} from "./engagement";
import { DashboardError } from "./errors";
import type { ImportedFile, ImportFile } from "./import-file";
import {
  findDailyActivity,
  findStepEngagement,
  findViewSources,
  type LiveSessionQuestions,
  listLiveSessionQuestions,
  type PresentationActivity,
  type ViewSourceRow,
} from "./repository";

export { DashboardError } from "./errors";
export type { ImportFile } from "./import-file";

/** Presentations per dashboard page. */
export const DASHBOARD_PAGE_SIZE = 20;
export const PRIVACIES = ["public", "reusable", "unlisted", "private"] as const;
/** Tags: at most 20, each at most 40 characters. */
export const TAG_LIMITS = { count: 20, length: 40 } as const;

export interface DashboardRow {
  oid: string;
  title: string;
  privacy: Privacy;
  viewCount: number;
  likesCount: number;
  lastModified: string;
  thumbnailUrl: string;
  viewUrl: string;
  /** Issue 12: where the owner edits it (spec §2: the editor's address follows the schema version). */
  editorUrl: string;
}

function rowOf(p: PresentationSummary): DashboardRow {
  return {
    oid: p.oid,
    title: p.title,
    privacy: p.privacy,
    viewCount: p.viewCount,
    likesCount: p.likesCount,
    lastModified: p.lastModified.toISOString(),
    thumbnailUrl: `/p/${p.oid}/thumbnail.svg`,
    viewUrl: `/p/${p.oid}/`,
    editorUrl: editorUrl(p.oid, p.schemaVersion),
  };
}

export async function getDashboard(db: Queryable, viewer: NonNullable<Viewer>, page: number) {
  const total = await countOwnedPresentations(db, viewer.userId);
  const pageCount = Math.max(1, Math.ceil(total / DASHBOARD_PAGE_SIZE));
  const current = Math.min(Math.max(1, page), pageCount);
  const rows = await listOwnedPresentations(db, viewer.userId, {
    limit: DASHBOARD_PAGE_SIZE,
    offset: (current - 1) * DASHBOARD_PAGE_SIZE,
  });
  return { presentations: rows.map(rowOf), page: current, pageCount, total };
}

/** The presentation, if this viewer owns it: 404 when they can't see it, 403 when they can but don't own it. */
async function owned(
  db: Queryable,
  viewer: NonNullable<Viewer>,
  oid: string,
  options: RowOptions = {},
): Promise<PresentationRow> {
  const row = isOid(oid) ? await findPresentationByOid(db, oid, options) : null;
  if (!row) throw new DashboardError(404, "dashboard.error.notFound");
  const access = await accessTo(db, row, viewer);
  if (!access.view) throw new DashboardError(404, "dashboard.error.notFound");
  if (!access.manage) throw new DashboardError(403, "dashboard.error.notOwner");
  return row;
}

export interface ImportOptions {
  title: string;
  privacy: string;
  schemaVersion: string;
}

function firstTitleOf(document: PresentationDocument): string | null {
  const visit = (topics: PresentationDocument["topics"]): string | null => {
    for (const topic of topics) {
      const title = topic.texts.find((t) => t.styleClasses.includes("title"))?.paragraphs[0]?.text.trim();
      if (title) return title;
      const nested = visit(topic.topics);
      if (nested) return nested;
    }
    return null;
  };
  return visit(document.topics);
}

export async function importPresentation(
  db: Database,
  documents: DocumentWork,
  viewer: NonNullable<Viewer>,
  file: ImportFile | null,
  options: ImportOptions,
): Promise<{ oid: string; warnings: MarkdownWarning[] }> {
  if (!file) throw new DashboardError(400, "dashboard.error.noFile");
  const privacy = z.enum(PRIVACIES).safeParse(options.privacy);
  if (!privacy.success) throw new DashboardError(400, "dashboard.error.privacy");
  const schemaVersion = options.schemaVersion === "0" ? "0" : "2";
  let imported: ImportedFile;
  try {
    // Parsing runs in a worker with a time limit (features/document-work.ts).
    imported = await documents.documentFromFile(file, schemaVersion);
  } catch (error) {
    if (error instanceof DocumentTooComplexError) {
      throw new DashboardError(422, "dashboard.error.tooComplex", { seconds: error.seconds });
    }
    throw error;
  }
  const { document, warnings, sourceMarkdown } = imported;
  const title = (options.title.trim() || firstTitleOf(document) || file.filename.replace(/\.[^.]+$/, "")).slice(0, 200);
  if (!title) throw new DashboardError(400, "dashboard.error.title");
  const oid = await insertNewPresentation(db, {
    ownerId: viewer.userId,
    title,
    descriptionHtml: "",
    privacy: privacy.data,
    schemaVersion: document.schemaVersion,
    tags: [],
    document,
    sourceMarkdown,
  });
  return { oid, warnings };
}

/** A new presentation's title (the editor's limit too). */
export const NEW_TITLE_MAX_LENGTH = 200;

/** Markdown's punctuation escaped, so a title is imported as the text typed. */
function markdownText(value: string): string {
  return value.replace(/([\\`*_{}[\]()#+\-.!<>|~])/g, "\\$1");
}

/**
 * Issue 13, R2.8 (`/v/create/`): an empty presentation of this person's, private, with one
 * title slide; the editor opens on it. A blank or too long title is refused.
 */
export async function createEmptyPresentation(
  db: Database,
  documents: DocumentWork,
  viewer: NonNullable<Viewer>,
  rawTitle: string,
): Promise<{ oid: string; editorUrl: string }> {
  const title = rawTitle.trim();
  if (!title || title.length > NEW_TITLE_MAX_LENGTH) {
    throw new DashboardError(400, "accounts.create.error.title", { limit: NEW_TITLE_MAX_LENGTH });
  }
  const sourceMarkdown = `# ${markdownText(title)}\n`;
  const { document } = await documents.importMarkdown(sourceMarkdown, "2");
  const oid = await insertNewPresentation(db, {
    ownerId: viewer.userId,
    title,
    descriptionHtml: "",
    privacy: "private",
    schemaVersion: document.schemaVersion,
    tags: [],
    document,
    sourceMarkdown,
  });
  return { oid, editorUrl: editorUrl(oid, document.schemaVersion) };
}

export interface ManageData {
  presentation: DashboardRow & {
    descriptionHtml: string;
    tags: string[];
    schemaVersion: "0" | "2";
    /** The slide theme (issue 10); light when the document names none. */
    theme: Theme;
    /** Issue 28: how many slides have speaker notes, and whether the owner published them. */
    notes: { slides: number; published: boolean };
    /** Issue 34: the sites that may embed the deck (empty: any site). */
    embedHosts: string[];
    /** Issue 33 item 4: viewers of the public page may download it. */
    allowDownload: boolean;
  };
  viewLinks: (Omit<ViewLinkListing, "createdAt" | "revokedAt" | "expiresAt" | "lastViewedAt"> & {
    createdAt: string;
    revokedAt: string | null;
    /** Issue 33: the last day the link works (UTC, YYYY-MM-DD), or null. */
    expiresOn: string | null;
    /** Issue 33: past its expiry now. */
    expired: boolean;
    lastViewedAt: string | null;
    url: string;
    /** Issue 33: the share of this link's visits that reached the last step in the period, or null. */
    completionRate: number | null;
  })[];
  collaborators: CollaboratorListing[];
  /** Views and likes per UTC day, computed here once so the page hydrates from the same days. */
  activity: PresentationActivity;
  /** Issue 33 item 1: per-step engagement for the chosen period and audience. */
  engagement: {
    days: number;
    /** "all", "public", or a view link's id. */
    audience: string;
    figures: EngagementFigures;
    /** Issue 33 item 4: downloads in the period, for the audience. */
    downloads: number;
    /** Issue 33 item 2: where views came from in the period (kind and host only). */
    sources: ViewSourceRow[];
  };
  /** Issue 35 item 3: the questions of the deck's live sessions, most recent session first. */
  liveQuestions: { startedAt: string; questions: LiveSessionQuestions["questions"] }[];
}

/** Issue 35 item 3: live sessions whose questions the manage page lists (most recent first). */
export const LIVE_SESSIONS_LISTED = 10;

/**
 * A presentation's page on the dashboard. `publicUrl` is the origin Podium is reached at
 * (PODIUM_PUBLIC_URL): view links show as full addresses to paste (issue 12).
 */
export async function getManageData(
  db: Database,
  viewer: NonNullable<Viewer>,
  oid: string,
  publicUrl = "",
  /** Issue 33 item 1: the analytics' period (days) and audience ("all", "public" or a link id). */
  choice: { days?: number; audience?: string } = {},
): Promise<ManageData> {
  // The page's figures agree with each other: its reads share one snapshot, so a batch of events
  // stored while they run is in all of them or in none (read apart, the chart said 2 views while
  // the sources said 3).
  return db.transaction(async (tx) => {
    await tx.query("set transaction isolation level repeatable read, read only");
    return readManageData(tx, viewer, oid, publicUrl, choice);
  });
}

async function readManageData(
  db: Queryable,
  viewer: NonNullable<Viewer>,
  oid: string,
  publicUrl: string,
  choice: { days?: number; audience?: string },
): Promise<ManageData> {
  // The owner's own page: it counts the private notes too.
  const row = await owned(db, viewer, oid, { withPrivateNotes: true });
  const days = (ENGAGEMENT_PERIODS as readonly number[]).includes(choice.days ?? 0)
    ? (choice.days as number)
    : DEFAULT_ENGAGEMENT_PERIOD;
  const [links, collaborators, activity, stepRows, liveSessions] = await Promise.all([
    listViewLinks(db, row.id),
    listCollaborators(db, row.id),
    findDailyActivity(db, row),
    findStepEngagement(db, row.id, days),
    listLiveSessionQuestions(db, row.id, LIVE_SESSIONS_LISTED),
  ]);
  const sources = await findViewSources(db, row.id, days);
  const stepCount = row.document.path.length;
  const audienceKey =
    choice.audience === "public" || links.some((link) => link.linkId === choice.audience)
      ? (choice.audience as string)
      : "all";
  const audience: Audience =
    audienceKey === "all"
      ? { kind: "all" }
      : audienceKey === "public"
        ? { kind: "public" }
        : { kind: "link", linkId: audienceKey };
  return {
    presentation: {
      ...rowOf(row),
      descriptionHtml: row.descriptionHtml,
      tags: row.tags,
      schemaVersion: row.schemaVersion,
      theme: row.document.theme ?? "light",
      notes: { slides: countSlidesWithNotes(row.document), published: row.notesPublic },
      embedHosts: row.embedHosts,
      allowDownload: row.allowDownload,
    },
    viewLinks: links.map((link) => ({
      linkId: link.linkId,
      keyType: link.keyType,
      forPresenting: link.forPresenting,
      createdAt: link.createdAt.toISOString(),
      revokedAt: link.revokedAt?.toISOString() ?? null,
      name: link.name,
      expiresOn: link.expiresAt ? lastDayBefore(link.expiresAt) : null,
      expired: link.expiresAt !== null && link.expiresAt.getTime() <= Date.now(),
      hasPasscode: link.hasPasscode,
      allowDownload: link.allowDownload,
      enabled: link.enabled,
      views: link.views,
      lastViewedAt: link.lastViewedAt?.toISOString() ?? null,
      url: `${publicUrl}/view/${link.linkId}/`,
      completionRate: engagementFigures(stepRows, stepCount, { kind: "link", linkId: link.linkId }).completionRate,
    })),
    collaborators,
    activity,
    engagement: {
      days,
      audience: audienceKey,
      figures: engagementFigures(stepRows, stepCount, audience),
      downloads: await downloadsIn(
        db,
        row.id,
        days,
        audience.kind === "all" ? "all" : { linkId: audience.kind === "link" ? audience.linkId : "" },
      ),
      sources,
    },
    liveQuestions: liveSessions.map((session) => ({
      startedAt: session.startedAt.toISOString(),
      questions: session.questions,
    })),
  };
}

/** Issue 33 item 4: the owner lets viewers of the public page download the deck, or not. */
export async function setDownloadChoice(
  db: Queryable,
  viewer: NonNullable<Viewer>,
  oid: string,
  allowed: boolean,
): Promise<void> {
  const row = await owned(db, viewer, oid);
  await setAllowDownload(db, row.id, allowed);
}

const detailsSchema = z.object({
  title: z.string().trim().min(1).max(200),
  description: z.string().max(DESCRIPTION_MAX_LENGTH),
  tags: z.string().max(2000),
  privacy: z.enum(PRIVACIES),
});

/** "Bread, baking ,bread" → ["bread", "baking"]. */
export function parseTags(input: string): string[] {
  const tags = input
    .split(",")
    .map((tag) => tag.trim().toLowerCase().replace(/\s+/g, " "))
    .filter(Boolean);
  const unique = [...new Set(tags)];
  if (unique.length > TAG_LIMITS.count || unique.some((tag) => tag.length > TAG_LIMITS.length)) {
    throw new DashboardError(400, "dashboard.error.tags", { count: TAG_LIMITS.count, length: TAG_LIMITS.length });
  }
  return unique;
}

export async function saveDetails(
  db: Queryable,
  viewer: NonNullable<Viewer>,
  oid: string,
  form: { title: string; description: string; tags: string; privacy: string },
): Promise<void> {
  await owned(db, viewer, oid);
  const parsed = detailsSchema.safeParse(form);
  if (!parsed.success) {
    const field = String(parsed.error.issues[0]?.path[0] ?? "form");
    // The tags message names its limits (found by the fuzz suite: it was shown without them).
    const values: Record<string, number> =
      field === "tags" ? { count: TAG_LIMITS.count, length: TAG_LIMITS.length } : {};
    throw new DashboardError(400, `dashboard.error.${field}`, values);
  }
  await updatePresentationDetails(db, oid, {
    title: parsed.data.title,
    // Owner-supplied HTML is sanitised on save (spec §2; architecture: DOMPurify).
    descriptionHtml: sanitizeDescription(parsed.data.description),
    tags: parseTags(parsed.data.tags),
    privacy: parsed.data.privacy,
  });
}

/**
 * A new view link: a long random id that works for anyone holding it until revoked. Issue 28: one
 * made for presenting also opens the presenter view, with the speaker notes.
 */
export async function createViewLink(
  db: Queryable,
  viewer: NonNullable<Viewer>,
  oid: string,
  options: { forPresenting?: boolean; name?: string } = {},
): Promise<string> {
  const row = await owned(db, viewer, oid);
  const name = linkNameOf(options.name ?? "");
  const linkId = randomBytes(24).toString("base64url");
  await insertViewLink(db, row.id, linkId, options.forPresenting === true, name);
  return linkId;
}

/** Issue 33: a link's name as the owner typed it, trimmed; too long is refused in words. */
function linkNameOf(input: string): string {
  const name = input.trim().replace(/\s+/g, " ");
  if (name.length > LINK_NAME_MAX_LENGTH) {
    throw new DashboardError(400, "dashboard.error.linkName", { length: LINK_NAME_MAX_LENGTH });
  }
  return name;
}

/** Issue 33: "2026-12-31" (the last day a link works, UTC) → the instant it stops: the next midnight UTC. */
export function expiryOf(date: string): Date | null {
  if (date === "") return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) throw new DashboardError(400, "dashboard.error.linkExpiry");
  const day = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== date) {
    throw new DashboardError(400, "dashboard.error.linkExpiry");
  }
  return new Date(day.getTime() + 24 * 60 * 60 * 1000);
}

/** The last day (UTC) before `expiresAt`: what the owner chose. */
function lastDayBefore(expiresAt: Date): string {
  return new Date(expiresAt.getTime() - 1).toISOString().slice(0, 10);
}

/**
 * Issue 33 item 3: the owner's settings of one live link, as the form sends them: a name, the last
 * day it works (or none), a new passcode (blank keeps the old one; `removePasscode` drops it),
 * allow download, on/off. The passcode is hashed like passwords.
 */
export async function saveLinkSettings(
  db: Queryable,
  viewer: NonNullable<Viewer>,
  oid: string,
  linkId: string,
  form: {
    name: string;
    expiresOn: string;
    passcode: string;
    removePasscode: boolean;
    allowDownload: boolean;
    enabled: boolean;
  },
): Promise<void> {
  const row = await owned(db, viewer, oid);
  const name = linkNameOf(form.name);
  const expiresAt = expiryOf(form.expiresOn.trim());
  let passcodeHash: string | null | undefined;
  if (form.removePasscode) passcodeHash = null;
  else if (form.passcode !== "") {
    if (form.passcode.length < PASSCODE_MIN_LENGTH || form.passcode.length > PASSCODE_MAX_LENGTH) {
      throw new DashboardError(400, "dashboard.error.linkPasscode", {
        min: PASSCODE_MIN_LENGTH,
        max: PASSCODE_MAX_LENGTH,
      });
    }
    passcodeHash = await hashPassword(form.passcode);
  }
  const settings: ViewLinkSettings = {
    name,
    expiresAt,
    allowDownload: form.allowDownload,
    enabled: form.enabled,
  };
  if (passcodeHash !== undefined) settings.passcodeHash = passcodeHash;
  if (!(await updateViewLinkSettings(db, row.id, linkId, settings))) {
    throw new DashboardError(404, "dashboard.error.linkNotFound");
  }
}

/** Issue 28: the owner's choice for a deck's speaker notes, as a form sends it. */
export const NOTES_CHOICES = ["private", "public"] as const;

/** Issue 28: the owner publishes the deck's speaker notes ("public") or keeps them theirs ("private"). */
export async function setNotesChoice(
  db: Queryable,
  viewer: NonNullable<Viewer>,
  oid: string,
  choice: string,
): Promise<void> {
  const row = await owned(db, viewer, oid);
  if (!(NOTES_CHOICES as readonly string[]).includes(choice)) throw new DashboardError(400, "dashboard.error.notes");
  await updateNotesPublic(db, row.id, choice === "public");
}

/** Issue 34: the owner lists the sites that may embed the deck (none: any site). */
export async function setEmbedHosts(
  db: Queryable,
  viewer: NonNullable<Viewer>,
  oid: string,
  text: string,
): Promise<void> {
  const row = await owned(db, viewer, oid);
  const parsed = parseEmbedHosts(text);
  if ("invalid" in parsed) throw new DashboardError(400, "dashboard.error.embedHost", { host: parsed.invalid });
  if ("tooMany" in parsed) throw new DashboardError(400, "dashboard.error.embedHostsTooMany", { max: parsed.tooMany });
  await updateEmbedHosts(db, row.id, parsed.hosts);
}

export async function revokeLink(
  db: Queryable,
  viewer: NonNullable<Viewer>,
  oid: string,
  linkId: string,
): Promise<void> {
  const row = await owned(db, viewer, oid);
  if (!(await revokeViewLinkOf(db, row.id, linkId))) throw new DashboardError(404, "dashboard.error.linkNotFound");
}

export async function addCollaborator(
  db: Queryable,
  viewer: NonNullable<Viewer>,
  oid: string,
  form: { email: string; right: string },
): Promise<void> {
  const row = await owned(db, viewer, oid);
  const right = form.right === "edit" || form.right === "comment" ? form.right : null;
  if (!right) throw new DashboardError(400, "dashboard.error.right");
  const user = await findUserForLogin(db, form.email.trim());
  if (!user) throw new DashboardError(400, "dashboard.error.noSuchPerson");
  if (user.id === row.ownerId) throw new DashboardError(400, "dashboard.error.ownerAlready");
  await upsertCollaborator(db, row.id, user.id, right);
}

export async function dropCollaborator(
  db: Queryable,
  viewer: NonNullable<Viewer>,
  oid: string,
  userOid: string,
): Promise<void> {
  const row = await owned(db, viewer, oid);
  if (!(await removeCollaborator(db, row.id, userOid)))
    throw new DashboardError(404, "dashboard.error.collaboratorNotFound");
}

export async function removePresentation(db: Database, viewer: NonNullable<Viewer>, oid: string): Promise<string> {
  const row = await owned(db, viewer, oid);
  await db.transaction((tx) => deletePresentation(tx, oid));
  return row.title;
}

/**
 * Make a copy (spec §2, §6): signed-in people copy reusable presentations (templates are
 * reusable) and their own. The copy is private and theirs; its notes are private (issue 28).
 */
export async function copyPresentation(db: Database, viewer: NonNullable<Viewer>, oid: string): Promise<string> {
  const row = isOid(oid) ? await findPresentationByOid(db, oid, { withPrivateNotes: true }) : null;
  if (!row) throw new DashboardError(404, "dashboard.error.notFound");
  const access = await accessTo(db, row, viewer);
  if (!access.view) throw new DashboardError(404, "dashboard.error.notFound");
  if (row.privacy !== "reusable" && !access.manage) throw new DashboardError(403, "dashboard.error.notCopyable");
  const title = row.templateSlug ? row.title : `Copy of ${row.title}`.slice(0, 200);
  return insertNewPresentation(db, {
    ownerId: viewer.userId,
    title,
    descriptionHtml: row.descriptionHtml,
    privacy: "private",
    schemaVersion: row.schemaVersion,
    tags: row.tags,
    // Issue 28: the notes are the presenter's: a copy made by anyone else has none, published or not.
    document: access.manage ? row.document : withoutNotes(row.document),
  });
}

/** Issue 28 item 7: the image files the owner's deck names and Podium doesn't have yet. */
export async function manageLocalImages(
  db: Queryable,
  documents: DocumentWork,
  viewer: NonNullable<Viewer>,
  oid: string,
): Promise<LocalImage[]> {
  return localImagesOf(db, documents, await owned(db, viewer, oid));
}
