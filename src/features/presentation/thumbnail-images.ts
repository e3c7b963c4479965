import sharp from "sharp";
import type { Queryable } from "../../db/client";
import type { Topic } from "../../document/schema";
import { decodeCost, imageDecodes } from "../assets/decode-gate";
import { ASSET_PATH } from "../assets/repository";
import { databaseAssetStore } from "../assets/store";

/**
 * The poster slide's images for its SVG thumbnail, as data: URIs. An SVG shown as an <img>
 * (cards, the player's poster, Open Graph) loads nothing from outside itself, so the image's
 * bytes must be in it: read from the asset store and re-encoded small (WebP, at most 960×540,
 * enough for a crisp poster in the player; tens of KB), kept in a small in-process cache by the
 * image's hash (content-addressed, so an entry never goes stale).
 */
export const THUMBNAIL_IMAGE_BOX = { width: 960, height: 540 } as const;
const THUMBNAIL_IMAGE_QUALITY = 70;
const CACHE_ENTRIES = 64;
const cache = new Map<string, string | null>();

export async function thumbnailImages(db: Queryable, topic: Topic | null): Promise<Map<string, string>> {
  const images = new Map<string, string>();
  if (!topic) return images;
  const store = databaseAssetStore(db);
  for (const image of topic.images.slice(0, 4)) {
    const hash = ASSET_PATH.exec(image.src)?.[1];
    if (!hash || images.has(image.src)) continue;
    const data = await small(hash, () => store.get(hash));
    if (data) images.set(image.src, data);
  }
  return images;
}

async function small(hash: string, read: () => Promise<Uint8Array | null>): Promise<string | null> {
  if (cache.has(hash)) {
    const hit = cache.get(hash) ?? null;
    // Most recently used last: the oldest entry is the first to go.
    cache.delete(hash);
    cache.set(hash, hit);
    return hit;
  }
  const bytes = await read();
  let data: string | null = null;
  if (bytes) {
    try {
      const options = { animated: false, limitInputPixels: 50_000_000 } as const;
      const header = await sharp(bytes, options).metadata();
      // A stored image is one Podium wrote (WebP, 3840 px at most), still decoded in turn with uploads.
      const webp = await imageDecodes.run(decodeCost({ ...header, pages: 1 }), () =>
        sharp(bytes, options)
          .resize({ ...THUMBNAIL_IMAGE_BOX, fit: "inside", withoutEnlargement: true })
          .webp({ quality: THUMBNAIL_IMAGE_QUALITY })
          .toBuffer(),
      );
      data = `data:image/webp;base64,${webp.toString("base64")}`;
    } catch {
      data = null;
    }
  }
  cache.set(hash, data);
  if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
  return data;
}
