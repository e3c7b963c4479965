import type { Queryable } from "../../db/client";
import { documentImageUrls } from "../../document/camera";
import type { PresentationDocument } from "../../document/schema";
import { assetHashesIn, relinkAssets, sweepUnusedAssets } from "../assets/repository";
import type { Privacy } from "../presentation/repository";

/** The editor's SQL: saving a presentation's content, and its comments (migration 0007). */

export interface PresentationContent {
  title: string;
  descriptionHtml: string;
  privacy: Privacy;
  tags: string[];
  document: PresentationDocument;
  /** The Markdown the document was read from, kept as written (migration 0009); null for PDF decks. */
  sourceMarkdown: string | null;
  /** Issue 28: the owner's choice for the speaker notes; undefined keeps it (an editor's save). */
  notesPublic?: boolean | undefined;
}

/**
 * Saves every field and the document in one statement, and marks the presentation modified. The
 * same statement records which images the document shows (migration 0008); images it stopped
 * showing go once nothing uses them and their grace period is over (features/assets).
 */
export async function updatePresentationContent(
  db: Queryable,
  presentationId: string,
  content: PresentationContent,
): Promise<void> {
  await db.query(
    `with updated as (
       update presentations
          set title = $2, description_html = $3, privacy = $4, tags = $5::text[], document = $6::jsonb,
              source_markdown = $8, notes_public = coalesce($9, notes_public), last_modified = now()
        where id = $1
        returning id),
     ${relinkAssets("$7")}
     select 1`,
    [
      presentationId,
      content.title,
      content.descriptionHtml,
      content.privacy,
      content.tags,
      JSON.stringify(content.document),
      assetHashesIn(documentImageUrls(content.document)),
      content.sourceMarkdown,
      content.notesPublic ?? null,
    ],
  );
  await sweepUnusedAssets(db);
}

export interface CommentRow {
  id: string;
  authorId: string;
  authorOid: string;
  authorEmail: string;
  authorUsername: string;
  authorFirstName: string;
  authorLastName: string;
  authorPublicDisplayName: string | null;
  body: string;
  createdAt: Date;
  /** How many comments the presentation has in all (the list may stop before the last). */
  total: number;
}

/** A presentation's comments, newest first. */
export async function listComments(db: Queryable, presentationId: string, limit: number): Promise<CommentRow[]> {
  return db.query<CommentRow>(
    `select c.id::text as id, c.author_id::text as "authorId", u.oid as "authorOid", u.email as "authorEmail",
            u.username as "authorUsername", u.first_name as "authorFirstName", u.last_name as "authorLastName",
            u.public_display_name as "authorPublicDisplayName", c.body, c.created_at as "createdAt",
            count(*) over ()::int as total
       from comments c join users u on u.id = c.author_id
      where c.presentation_id = $1
      order by c.created_at desc, c.id desc
      limit $2`,
    [presentationId, limit],
  );
}

export async function insertComment(
  db: Queryable,
  comment: { presentationId: string; authorId: string; body: string },
): Promise<string> {
  const rows = await db.query<{ id: string }>(
    "insert into comments (presentation_id, author_id, body) values ($1, $2, $3) returning id::text as id",
    [comment.presentationId, comment.authorId, comment.body],
  );
  const id = rows[0]?.id;
  if (!id) throw new Error("the comment was not stored");
  return id;
}

/** One comment of this presentation (ids are only looked up within their presentation). */
export async function findComment(
  db: Queryable,
  presentationId: string,
  commentId: string,
): Promise<{ id: string; authorId: string } | null> {
  const rows = await db.query<{ id: string; authorId: string }>(
    `select id::text as id, author_id::text as "authorId" from comments where presentation_id = $1 and id = $2`,
    [presentationId, commentId],
  );
  return rows[0] ?? null;
}

export async function deleteComment(db: Queryable, presentationId: string, commentId: string): Promise<boolean> {
  const rows = await db.query("delete from comments where presentation_id = $1 and id = $2 returning 1", [
    presentationId,
    commentId,
  ]);
  return rows.length > 0;
}
