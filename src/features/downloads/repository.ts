import type { Queryable } from "../../db/client";

/**
 * Issue 33 item 4 (migration 0027): a PDF deck's original file, the public page's download
 * setting, and downloads per day and audience.
 */

/** Keeps the PDF a deck was made from (a new import or a replacement), by its oid. */
export async function saveOriginalPdf(db: Queryable, oid: string, bytes: Uint8Array): Promise<void> {
  await db.query(
    `insert into presentation_originals (presentation_id, media_type, bytes)
     select id, 'application/pdf', $2 from presentations where oid = $1
         on conflict (presentation_id) do update set media_type = excluded.media_type, bytes = excluded.bytes,
            created_at = now()`,
    [oid, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)],
  );
}

/** The deck's original PDF, or null (a Markdown or JSON deck, or a PDF deck imported before issue 33). */
export async function findOriginalPdf(db: Queryable, presentationId: string): Promise<Uint8Array | null> {
  const rows = await db.query<{ bytes: Uint8Array }>(
    "select bytes from presentation_originals where presentation_id = $1 and media_type = 'application/pdf'",
    [presentationId],
  );
  return rows[0]?.bytes ?? null;
}

/** The deck's Markdown source as written, or null. */
export async function findMarkdownSource(db: Queryable, presentationId: string): Promise<string | null> {
  const rows = await db.query<{ source: string | null }>(
    "select source_markdown as source from presentations where id = $1",
    [presentationId],
  );
  return rows[0]?.source ?? null;
}

/** One more download, today (UTC), through `linkId` ('' for the public page). */
export async function countDownload(db: Queryable, presentationId: string, linkId: string): Promise<void> {
  await db.query(
    `insert into presentation_daily_downloads (presentation_id, day, link_id, n)
     values ($1, (now() at time zone 'UTC')::date, $2, 1)
         on conflict (presentation_id, day, link_id) do update set n = presentation_daily_downloads.n + 1`,
    [presentationId, linkId],
  );
}

/** Downloads in the last `days` days (today included), for everyone, the public page ('') or one link. */
export async function downloadsIn(
  db: Queryable,
  presentationId: string,
  days: number,
  audience: { linkId: string } | "all",
): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `select coalesce(sum(n), 0)::int as n from presentation_daily_downloads
      where presentation_id = $1 and day > (now() at time zone 'UTC')::date - $2::int
        and ($3::text is null or link_id = $3::text)`,
    [presentationId, days, audience === "all" ? null : audience.linkId],
  );
  return rows[0]?.n ?? 0;
}

/** The public page's download setting (the owner's). */
export async function setAllowDownload(db: Queryable, presentationId: string, allowed: boolean): Promise<void> {
  await db.query("update presentations set allow_download = $2 where id = $1", [presentationId, allowed]);
}
