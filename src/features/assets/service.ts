import { createHash } from "node:crypto";
import sharp, { type Metadata } from "sharp";
import type { Database } from "../../db/client";
import { type Limits, memoryLimits } from "../../lib/limits";
import { type DecodeGate, DecodeQueueFullError, decodeCost, headerPixels, imageDecodes } from "./decode-gate";
import { type AssetRow, findAsset, recordAsset, storageUsedBy, sweepUnusedAssets } from "./repository";
import type { AssetStore } from "./store";

/** Presentation images (issue 10, item 5): reading, re-encoding and storing what people upload. */

/** Largest image file accepted by an upload. */
export const IMAGE_UPLOAD_LIMIT_BYTES = 10 * 1024 * 1024;
/**
 * Pixels an upload may decode to (all frames together), read from the header before anything is
 * decoded: a decompression bomb stops here. 50 MP takes a phone's full-resolution photo (48–50 MP
 * sensors) and is 13 times what a slide shows (3840 × 1080 at most); what such an image may cost in
 * memory is bounded by the decode gate (decode-gate.ts).
 */
export const MAX_INPUT_PIXELS = 50_000_000;
/** The long side of a stored image at most: sharp on a 4K screen, a fraction of a 50 MP photo's bytes. */
export const MAX_IMAGE_SIDE = 3840;
/** WebP quality: indistinguishable from the source on slides, about a third of a JPEG's bytes. */
export const WEBP_QUALITY = 82;
/** Uploads per person per hour. */
export const UPLOADS_PER_HOUR = 60;
/** Bytes of images one person may have stored (counted after re-encoding). */
export const STORAGE_QUOTA_BYTES = 200 * 1024 * 1024;
/** The formats Podium reads, as sharp names them (AVIF is a HEIF file with AV1 inside). */
const ACCEPTED_FORMATS = new Set(["jpeg", "png", "webp", "gif", "heif"]);

export type ImageProblem = "notImage" | "svg" | "tooManyPixels" | "tooLarge" | "quota" | "rate" | "busy";

/** Why an image was refused; the status and message go to the person as they are. */
export class ImageUploadError extends Error {
  override readonly name = "ImageUploadError";
  constructor(
    readonly problem: ImageProblem,
    readonly statusCode: number,
    message: string,
    readonly retryAfterSeconds: number | null = null,
    /** Figures the page's translated message needs (the pixel limit and the image's size). */
    readonly values: Record<string, number> = {},
  ) {
    super(message);
  }
}

const NOT_AN_IMAGE = "That file isn't an image Podium can read. Upload a JPEG, PNG, WebP, GIF or AVIF image.";

export interface ProcessedImage {
  hash: string;
  contentType: "image/webp";
  bytes: Buffer;
  width: number;
  height: number;
}

/**
 * Reads an upload as an image and re-encodes it. The type comes from the bytes (sharp's own
 * reading of them), never from the file's name or declared type. The result is a WebP with no
 * metadata at all (no EXIF, GPS, XMP or ICC: sharp keeps none unless asked), turned upright
 * first (EXIF orientation), at most `MAX_IMAGE_SIDE` on its long side. Animated GIFs and WebPs
 * stay animated.
 */
export async function processImage(input: Uint8Array, decodes: DecodeGate = imageDecodes): Promise<ProcessedImage> {
  if (input.byteLength === 0) throw new ImageUploadError("notImage", 400, NOT_AN_IMAGE);
  const options = { limitInputPixels: MAX_INPUT_PIXELS, animated: true, failOn: "warning" } as const;
  let header: Metadata;
  try {
    // The header only: no pixel is decoded here. No pixel limit yet, so the refusal can say the size.
    header = await sharp(input, { ...options, limitInputPixels: false }).metadata();
  } catch (error) {
    // An SVG that sharp can't draw (scripts, no size) is still an SVG: it gets its own message.
    throw looksLikeSvg(input) ? svgRefusal() : readFailure(error);
  }
  const { format, compression } = header;
  if (format === "svg") throw svgRefusal();
  if (!format || !ACCEPTED_FORMATS.has(format) || (format === "heif" && compression !== "av1")) {
    throw new ImageUploadError("notImage", 400, NOT_AN_IMAGE);
  }
  const pixels = headerPixels(header);
  if (pixels > MAX_INPUT_PIXELS) throw tooManyPixels(pixels);
  try {
    // In turn: at most MAX_CONCURRENT_DECODES at once, holding at most the gate's memory budget.
    const { data, info } = await decodes.run(decodeCost(header), () =>
      sharp(input, options)
        .rotate()
        .resize({ width: MAX_IMAGE_SIDE, height: MAX_IMAGE_SIDE, fit: "inside", withoutEnlargement: true })
        .webp({ quality: WEBP_QUALITY })
        .toBuffer({ resolveWithObject: true }),
    );
    const height = info.pageHeight ?? info.height;
    return {
      hash: createHash("sha256").update(data).digest("hex"),
      contentType: "image/webp",
      bytes: data,
      width: info.width,
      height,
    };
  } catch (error) {
    throw readFailure(error);
  }
}

/** "That image is 64.0 megapixels; …": the limit and the image's own size, in megapixels. */
function tooManyPixels(pixels: number | null): ImageUploadError {
  const limit = MAX_INPUT_PIXELS / 1_000_000;
  const megapixels = pixels === null ? null : Math.round(pixels / 100_000) / 10;
  return new ImageUploadError(
    "tooManyPixels",
    413,
    `That image ${megapixels === null ? "has too many pixels" : `is ${megapixels} megapixels`}; Podium takes images of up to ${limit} megapixels. Make it smaller and upload it again.`,
    null,
    megapixels === null ? { limit } : { limit, megapixels },
  );
}

function svgRefusal(): ImageUploadError {
  return new ImageUploadError(
    "svg",
    400,
    "SVG images can't be uploaded: they can carry scripts. Export the drawing as PNG or WebP and upload that.",
  );
}

function looksLikeSvg(input: Uint8Array): boolean {
  const start = Buffer.from(input.buffer, input.byteOffset, Math.min(input.byteLength, 4096)).toString("latin1");
  return /<svg[\s>/]/i.test(start);
}

function readFailure(error: unknown): ImageUploadError {
  const message = (error as Error).message ?? "";
  if (error instanceof DecodeQueueFullError) {
    return new ImageUploadError("busy", 503, "Podium is busy with other images. Try again in a few seconds.", 5);
  }
  // sharp's own check, should a frame count differ from the header's: the same refusal.
  if (/pixel limit/i.test(message)) return tooManyPixels(null);
  return new ImageUploadError("notImage", 400, NOT_AN_IMAGE);
}

export interface AssetLimits {
  uploadsPerHour: number;
  quotaBytes: number;
}

export interface UploadedImage extends AssetRow {
  url: string;
}

export interface AssetService {
  /** Checks the person's budget, processes the image (in turn), stores it once, and sweeps. */
  upload(uploaderId: string, input: Uint8Array): Promise<UploadedImage>;
  /** Forgets unused images whose grace period is over (bounded); says which went. */
  sweep(): Promise<string[]>;
}

export function assetUrl(hash: string): string {
  return `/assets/${hash}.webp`;
}

export function createAssetService(options: {
  db: Database;
  store: AssetStore;
  limits?: Partial<AssetLimits>;
  now?: () => number;
  /** Where decodes wait their turn: this process's gate, shared with the thumbnails, by default. */
  decodes?: DecodeGate;
  /** Where the hourly upload count lives (the app's: Redis with REDIS_URL); this process's by default. */
  counts?: Limits;
}): AssetService {
  const { db, store } = options;
  const now = options.now ?? Date.now;
  const limits: AssetLimits = { uploadsPerHour: UPLOADS_PER_HOUR, quotaBytes: STORAGE_QUOTA_BYTES, ...options.limits };
  const uploads = (options.counts ?? memoryLimits(now)).sliding("image-upload", limits.uploadsPerHour, 60 * 60 * 1000);
  const decodes = options.decodes ?? imageDecodes;

  const sweep = async () => {
    const gone = await sweepUnusedAssets(db, new Date(now()));
    for (const hash of gone) await store.delete(hash);
    return gone;
  };

  return {
    sweep,
    async upload(uploaderId, input) {
      const budget = await uploads.hit(uploaderId);
      if (!budget.allowed) {
        const minutes = Math.ceil(budget.retryAfterSeconds / 60);
        throw new ImageUploadError(
          "rate",
          429,
          `You have uploaded ${limits.uploadsPerHour} images in the last hour. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
          budget.retryAfterSeconds,
        );
      }
      const image = await processImage(input, decodes);
      const asset = {
        hash: image.hash,
        contentType: image.contentType,
        byteSize: image.bytes.byteLength,
        width: image.width,
        height: image.height,
      };
      const used = await storageUsedBy(db, uploaderId);
      const existing = (await findAsset(db, image.hash)) !== null;
      if (!existing && used + asset.byteSize > limits.quotaBytes) {
        throw new ImageUploadError(
          "quota",
          413,
          `This image doesn't fit in your ${Math.round(limits.quotaBytes / 1024 / 1024)} MB of image storage. Remove images from presentations you no longer need; unused images are deleted after a day.`,
        );
      }
      // The same bytes again are stored once (put is idempotent); their grace period restarts.
      await recordAsset(db, { ...asset, uploaderId }, new Date(now()));
      await store.put(image.hash, image.bytes);
      await sweep();
      return { ...asset, url: assetUrl(image.hash) };
    },
  };
}
