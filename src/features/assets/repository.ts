import type { Queryable } from "../../db/client";

/** The SQL of presentation images (migration 0008): what is stored, who uses it, and the sweep. */

/** An image's address: `/assets/{sha-256 hex}.{extension}`. */
export const ASSET_PATH = /^\/assets\/([0-9a-f]{64})\.([a-z0-9]{3,4})$/;

/**
 * An unused image is kept this long after its last upload, so one uploaded while editing
 * survives until the person saves (and a person who removes it by mistake can undo for a day).
 */
export const UNUSED_ASSET_GRACE_MS = 24 * 60 * 60 * 1000;
/** Images the sweep deletes at most per call: each write pays for a few, never for a backlog. */
export const SWEEP_BATCH = 20;

export interface AssetRow {
  hash: string;
  contentType: string;
  byteSize: number;
  width: number;
  height: number;
}

export interface NewAsset extends AssetRow {
  uploaderId: string;
}

/**
 * The hashes of the Podium images among a document's image addresses (`documentImageUrls`; other
 * `/assets/…` paths name nothing stored). Addresses, not the document: assets stays below presentation.
 */
export function assetHashesIn(imageUrls: Iterable<string>): string[] {
  const hashes = new Set<string>();
  for (const src of imageUrls) {
    const match = ASSET_PATH.exec(src);
    if (match?.[1]) hashes.add(match[1]);
  }
  return [...hashes];
}

/**
 * Records an uploaded image, or (the same bytes again) marks it uploaded now, which restarts its
 * grace period. True when the row is new (the caller then stores the bytes).
 */
export async function recordAsset(db: Queryable, asset: NewAsset, now: Date): Promise<boolean> {
  const inserted = await db.query(
    `insert into assets (hash, content_type, byte_size, width, height, uploader_id, created_at, uploaded_at)
     values ($1, $2, $3, $4, $5, $6, $7, $7)
     on conflict (hash) do nothing
     returning 1`,
    [asset.hash, asset.contentType, asset.byteSize, asset.width, asset.height, asset.uploaderId, now],
  );
  if (inserted.length > 0) return true;
  await db.query("update assets set uploaded_at = greatest(uploaded_at, $2) where hash = $1", [asset.hash, now]);
  return false;
}

export async function findAsset(db: Queryable, hash: string): Promise<AssetRow | null> {
  const rows = await db.query<AssetRow>(
    `select hash, content_type as "contentType", byte_size as "byteSize", width, height
       from assets where hash = $1`,
    [hash],
  );
  return rows[0] ?? null;
}

/** Bytes of the images a person uploaded first (the storage quota counts them). */
export async function storageUsedBy(db: Queryable, uploaderId: string): Promise<number> {
  const rows = await db.query<{ used: string }>(
    "select coalesce(sum(byte_size), 0)::text as used from assets where uploader_id = $1",
    [uploaderId],
  );
  return Number(rows[0]?.used ?? 0);
}

/**
 * Deletes up to `limit` images that no presentation uses and whose grace period has passed, and
 * says which. It never fails its caller's write: inside a transaction it runs in a savepoint,
 * and a lost race (a save that began to use an image as it was being deleted: the foreign key
 * refuses) just leaves the work to the next sweep. Images a running save is adding a reference
 * to are locked by that save and skipped.
 */
export async function sweepUnusedAssets(
  db: Queryable,
  now: Date = new Date(),
  limit: number = SWEEP_BATCH,
): Promise<string[]> {
  const inTransaction = !("transaction" in db);
  const sql = `delete from assets where hash in (
      select a.hash from assets a
       where a.uploaded_at < $1
         and not exists (select 1 from presentation_assets r where r.asset_hash = a.hash)
       order by a.uploaded_at
       limit $2
       for update skip locked)
    returning hash`;
  const cutoff = new Date(now.getTime() - UNUSED_ASSET_GRACE_MS);
  try {
    if (!inTransaction) return (await db.query<{ hash: string }>(sql, [cutoff, limit])).map((row) => row.hash);
    await db.query("savepoint asset_sweep");
    try {
      const rows = await db.query<{ hash: string }>(sql, [cutoff, limit]);
      await db.query("release savepoint asset_sweep");
      return rows.map((row) => row.hash);
    } catch {
      await db.query("rollback to savepoint asset_sweep");
      return [];
    }
  } catch {
    return [];
  }
}

/** The presentations' side: which images a presentation shows (for tests and diagnostics). */
export async function listPresentationAssets(db: Queryable, presentationId: string): Promise<string[]> {
  const rows = await db.query<{ hash: string }>(
    "select asset_hash as hash from presentation_assets where presentation_id = $1 order by asset_hash",
    [presentationId],
  );
  return rows.map((row) => row.hash);
}

/**
 * SQL common table expressions that leave a presentation's asset links (presentation_assets) as
 * the images it now shows: `hashes` is the parameter holding their hashes (text[]), $1 the
 * presentation's id, and a CTE `updated` before these returns the updated presentation's id.
 */
export const relinkAssets = (hashes: string) => `unused as (
       delete from presentation_assets
        where presentation_id = $1 and not (asset_hash = any(${hashes}::text[]))),
     used as (
       insert into presentation_assets (presentation_id, asset_hash)
       select updated.id, assets.hash from updated join assets on assets.hash = any(${hashes}::text[])
       on conflict do nothing)`;
