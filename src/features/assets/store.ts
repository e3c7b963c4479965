import type { Queryable } from "../../db/client";

/**
 * Where the bytes of Podium's images live. Images are content-addressed: the key is the SHA-256
 * (hex) of the stored bytes, so a store never holds two copies of one image and a key's bytes
 * never change. The `assets` table (repository.ts) keeps what Podium knows about each image
 * (type, size, uploader, who uses it); a store keeps only bytes, so a file system or an S3
 * bucket could take the database's place.
 */
export interface AssetStore {
  /** Stores the bytes under their hash; storing them again changes nothing. */
  put(hash: string, bytes: Uint8Array): Promise<void>;
  /** The bytes stored under the hash, or null. */
  get(hash: string): Promise<Uint8Array | null>;
  /** Forgets the bytes (nothing happens when there are none). */
  delete(hash: string): Promise<void>;
}

/**
 * The default store: the bytes sit in `assets.bytes` beside the image's row (migration 0008),
 * so they are backed up and replicated with everything else. The row is written first
 * (repository.ts), then the bytes; deleting the row (the sweep) deletes the bytes with it.
 */
export function databaseAssetStore(db: Queryable): AssetStore {
  return {
    async put(hash, bytes) {
      await db.query("update assets set bytes = $2 where hash = $1 and bytes is null", [hash, bytes]);
    },
    async get(hash) {
      const rows = await db.query<{ bytes: Uint8Array | null }>("select bytes from assets where hash = $1", [hash]);
      return rows[0]?.bytes ?? null;
    },
    async delete(hash) {
      await db.query("update assets set bytes = null where hash = $1", [hash]);
    },
  };
}
