import type { Queryable } from "../../db/client";

import type { ReportReason } from "./reasons";

export async function insertReport(
  db: Queryable,
  report: { presentationId: string; reporterId: string | null; reason: ReportReason; details: string },
): Promise<void> {
  await db.query("insert into reports (presentation_id, reporter_id, reason, details) values ($1, $2, $3, $4)", [
    report.presentationId,
    report.reporterId,
    report.reason,
    report.details,
  ]);
}

export interface OpenReport {
  id: string;
  oid: string;
  title: string;
  reason: ReportReason;
  details: string;
  createdAt: Date;
  hidden: boolean;
}

export async function listOpenReports(db: Queryable, limit: number): Promise<OpenReport[]> {
  return db.query<OpenReport>(
    `select r.id::text as id, p.oid, p.title, r.reason, r.details, r.created_at as "createdAt", p.hidden
       from reports r join presentations p on p.id = r.presentation_id
      where r.status = 'open' order by r.created_at, r.id limit $1`,
    [limit],
  );
}

/** Closes a report; hiding its presentation too when asked. Both in one transaction (the caller's). */
export async function resolveReport(db: Queryable, reportId: string, adminId: string, hide: boolean): Promise<boolean> {
  const rows = await db.query<{ presentationId: string }>(
    `update reports set status = $3, resolved_at = now(), resolved_by = $2
      where id = $1 and status = 'open' returning presentation_id::text as "presentationId"`,
    [reportId, adminId, hide ? "actioned" : "dismissed"],
  );
  const presentationId = rows[0]?.presentationId;
  if (!presentationId) return false;
  if (hide) await db.query("update presentations set hidden = true where id = $1", [presentationId]);
  return true;
}

export async function updateCuration(
  db: Queryable,
  oid: string,
  curation: { hiddenTags: string[]; staffPick: boolean },
): Promise<void> {
  await db.query("update presentations set hidden_tags = $2::text[], is_staff_pick = $3 where oid = $1", [
    oid,
    curation.hiddenTags,
    curation.staffPick,
  ]);
}

export async function findHiddenTags(db: Queryable, oid: string): Promise<string[]> {
  const rows = await db.query<{ tags: string[] }>("select hidden_tags as tags from presentations where oid = $1", [
    oid,
  ]);
  return rows[0]?.tags ?? [];
}
