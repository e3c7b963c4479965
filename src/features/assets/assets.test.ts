import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "../../db/testing";
import { importMarkdown } from "../../document/markdown";
import { insertTestDeck, TestAgent, userIdOf, useTestApp } from "../../server/testing";
import { updatePresentationContent } from "../editor/repository";
import { deletePresentation } from "../presentation/repository";
import { imageDecodes, MAX_CONCURRENT_DECODES } from "./decode-gate";
import { listPresentationAssets, UNUSED_ASSET_GRACE_MS } from "./repository";
import {
  createAssetService,
  IMAGE_UPLOAD_LIMIT_BYTES,
  ImageUploadError,
  MAX_INPUT_PIXELS,
  processImage,
} from "./service";
import { databaseAssetStore } from "./store";

const HOUR = 60 * 60 * 1000;

/** A photo as a phone makes it: JPEG with EXIF (camera, GPS position, orientation). */
async function photoWithGps(width = 640, height = 480): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } } })
    .jpeg({ quality: 90 })
    .withExif({
      IFD0: { Make: "PodiumCam", Model: "Test 1", Copyright: "Someone" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "51/1 30/1 0/1", GPSLongitudeRef: "W", GPSLongitude: "0/1 7/1 0/1" },
    })
    .toBuffer();
}

async function png(width: number, height: number, colour = { r: 10, g: 200, b: 90 }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

/** The browser's upload: multipart with one file field, the CSRF token in X-XSRF-TOKEN. */
function upload(agent: TestAgent, content: Buffer, options: { filename?: string; type?: string; csrf?: boolean } = {}) {
  const boundary = "----podium-image-boundary";
  const head = Buffer.from(
    [
      `--${boundary}`,
      `Content-Disposition: form-data; name="file"; filename="${options.filename ?? "photo.jpg"}"`,
      `Content-Type: ${options.type ?? "image/jpeg"}`,
      "",
      "",
    ].join("\r\n"),
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const token = agent.cookies.get("XSRF-TOKEN");
  return agent.request({
    method: "POST",
    url: "/api/assets",
    headers: {
      "content-type": `multipart/form-data; boundary=${boundary}`,
      ...(options.csrf !== false && token ? { "x-xsrf-token": token } : {}),
    },
    payload: Buffer.concat([head, content, tail]),
  });
}

describe("issue 10 images: reading and re-encoding", () => {
  it("issue 10 images: a JPEG with EXIF GPS comes out as WebP with no metadata at all", async () => {
    const photo = await photoWithGps();
    const before = await sharp(photo).metadata();
    expect(before.exif).toBeDefined();
    const image = await processImage(photo);
    const after = await sharp(image.bytes).metadata();
    expect(after.format).toBe("webp");
    expect(after.exif).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(after.icc).toBeUndefined();
    expect(image.bytes.includes(Buffer.from("PodiumCam"))).toBe(false);
    expect([image.width, image.height]).toEqual([640, 480]);
  });

  it("issue 10 images: turns a photo upright from its EXIF orientation, then drops the orientation", async () => {
    const sideways = await sharp({ create: { width: 300, height: 100, channels: 3, background: "#336699" } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const image = await processImage(sideways);
    expect([image.width, image.height]).toEqual([100, 300]);
    expect((await sharp(image.bytes).metadata()).orientation).toBeUndefined();
  });

  it("issue 10 images: caps the long side at 3840 pixels and refuses decompression bombs", async () => {
    const wide = await processImage(await png(6000, 1000));
    expect([wide.width, wide.height]).toEqual([3840, 640]);
    // 10,000 × 10,000 = 100 megapixels: a small file that would decode to 300 MB.
    const bomb = await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: "#fff" } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    await expect(processImage(bomb)).rejects.toMatchObject({ problem: "tooManyPixels", statusCode: 413 });
  });

  it("issue 10 images: keeps animated GIFs animated", async () => {
    const frames = await Promise.all(
      ["#f00", "#0f0", "#00f"].map((background) =>
        sharp({ create: { width: 40, height: 30, channels: 3, background } })
          .raw()
          .toBuffer(),
      ),
    );
    // A three-frame GIF, made from a strip cut into pages.
    const animated = await sharp(Buffer.concat(frames), { raw: { width: 40, height: 90, channels: 3, pageHeight: 30 } })
      .gif({ delay: [100, 100, 100] })
      .toBuffer();
    const image = await processImage(animated);
    const meta = await sharp(image.bytes).metadata();
    expect(meta.format).toBe("webp");
    expect(meta.pages).toBe(3);
    expect([image.width, image.height]).toEqual([40, 30]);
  });

  it("issue 10 images: refuses what isn't a raster image, whatever its name says", async () => {
    const refusals = [
      Buffer.from("<html><script>alert(document.cookie)</script></html>"),
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF"),
      Buffer.alloc(0),
      (await photoWithGps()).subarray(0, 2000),
    ];
    const problems = [];
    for (const input of refusals) {
      const error = await processImage(input).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ImageUploadError);
      problems.push((error as ImageUploadError).problem);
    }
    expect(problems).toEqual(["notImage", "svg", "notImage", "notImage", "notImage"]);
  });

  it("issue 10 images: measures a 12-megapixel JPEG's processing time", async () => {
    const noise = Buffer.alloc(4000 * 3000 * 3);
    for (let i = 0; i < noise.length; i += 1) noise[i] = (i * 2654435761) >>> 24;
    const photo = await sharp(noise, { raw: { width: 4000, height: 3000, channels: 3 } })
      .jpeg({ quality: 90 })
      .toBuffer();
    const started = performance.now();
    const image = await processImage(photo);
    const ms = performance.now() - started;
    console.info(
      `issue 10 images: 12 MP JPEG (${(photo.length / 1e6).toFixed(1)} MB) → ${image.width}×${image.height} WebP (${(image.bytes.length / 1e6).toFixed(2)} MB) in ${ms.toFixed(0)} ms`,
    );
    expect(image.width).toBe(3840);
  }, 30_000);
});

describe.each(testDatabaseTargets())("issue 10 images on $name", (target) => {
  const t = useTestApp(target, { owner: "images@podium.test" });
  let ownerId: string;

  beforeAll(async () => {
    ownerId = await userIdOf(t.db, "images@podium.test");
  });

  const assetCount = async () =>
    Number((await t.db.query<{ n: number }>("select count(*)::int as n from assets"))[0]?.n);

  it("issue 10 images: an upload is stored once, served with immutable, nosniff and sandboxing headers, and 304 on If-None-Match", async () => {
    const photo = await photoWithGps(320, 200);
    const first = await upload(t.owner, photo);
    expect(first.statusCode).toBe(201);
    const answer = first.json() as { url: string; width: number; height: number; bytes: number };
    expect(answer.url).toMatch(/^\/assets\/[0-9a-f]{64}\.webp$/);
    expect([answer.width, answer.height]).toEqual([320, 200]);
    const count = await assetCount();
    const again = await upload(t.owner, photo, { filename: "copy.jpeg" });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(answer);
    expect(await assetCount()).toBe(count);

    // Signed in or not, the same public, immutable answer.
    for (const agent of [t.owner, new TestAgent(t.app)]) {
      const served = await agent.get(answer.url);
      expect(served.statusCode).toBe(200);
      expect(served.headers["content-type"]).toBe("image/webp");
      expect(served.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(served.headers["x-content-type-options"]).toBe("nosniff");
      expect(served.headers["content-security-policy"]).toBe("default-src 'none'; sandbox");
      expect(served.headers.etag).toBe(`"${answer.url.slice(8, 72)}"`);
      expect(served.rawPayload.length).toBe(answer.bytes);
      const metadata = await sharp(served.rawPayload).metadata();
      expect(metadata.exif).toBeUndefined();
      expect(served.rawPayload.includes(Buffer.from("PodiumCam"))).toBe(false);
      const cached = await agent.get(answer.url, { "if-none-match": String(served.headers.etag) });
      expect(cached.statusCode).toBe(304);
      expect(cached.rawPayload.length).toBe(0);
    }
  });

  it("issue 10 images: unknown and malformed names are 404", async () => {
    for (const path of [
      `/assets/${"a".repeat(64)}.webp`,
      `/assets/${"A".repeat(64)}.webp`,
      "/assets/crab.png",
      `/assets/${"a".repeat(63)}.webp`,
      "/assets/..%2fetc%2fpasswd",
    ]) {
      expect((await t.owner.get(path)).statusCode, path).toBe(404);
    }
    const { url } = (await upload(t.owner, await png(20, 20))).json() as { url: string };
    expect((await t.owner.get(url.replace(".webp", ".png"))).statusCode).toBe(404);
  });

  it("issue 10 images: a .png holding HTML is refused with 400 and nothing is stored; so is an SVG", async () => {
    const before = await assetCount();
    const html = await upload(t.owner, Buffer.from("<html><script>alert(document.cookie)</script></html>"), {
      filename: "cat.png",
      type: "image/png",
    });
    expect(html.statusCode).toBe(400);
    expect(html.json().message).toMatch(/isn't an image Podium can read/);
    const svg = await upload(t.owner, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'), {
      filename: "logo.svg",
      type: "image/svg+xml",
    });
    expect(svg.statusCode).toBe(400);
    expect(svg.json().message).toMatch(/SVG images can't be uploaded/);
    expect(await assetCount()).toBe(before);
  });

  it("issue 27 memory: an upload over the pixel limit is refused from its header, saying the limit, and nothing is stored or decoded", async () => {
    // 7,100 × 7,100 = 50.4 MP: just over the limit, a small file that would decode to 150 MB.
    const over = await sharp({ create: { width: 7100, height: 7100, channels: 3, background: "#fff" } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(7100 * 7100).toBeGreaterThan(MAX_INPUT_PIXELS);
    const before = await assetCount();
    imageDecodes.resetPeak();
    const refused = await upload(t.owner, over, { filename: "poster.png", type: "image/png" });
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toMatchObject({ problem: "tooManyPixels", limit: 50, megapixels: 50.4 });
    expect(refused.json().message).toBe(
      "That image is 50.4 megapixels; Podium takes images of up to 50 megapixels. Make it smaller and upload it again.",
    );
    // Refused before its turn to decode: the gate never saw it.
    expect(imageDecodes.stats().peak).toBe(0);
    expect(await assetCount()).toBe(before);
  });

  it("issue 27 memory: more uploads at once than the decode limit: all stored, never more than the limit decoding together", async () => {
    imageDecodes.resetPeak();
    const colours = Array.from({ length: MAX_CONCURRENT_DECODES * 3 }, (_, i) => ({
      r: 40 * i,
      g: 7,
      b: 200 - 30 * i,
    }));
    const answers = await Promise.all(
      colours.map(async (colour) => upload(t.owner, await png(1500, 1000, colour), { type: "image/png" })),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(colours.map(() => 201));
    expect(imageDecodes.stats().peak).toBeLessThanOrEqual(MAX_CONCURRENT_DECODES);
    expect(imageDecodes.stats()).toMatchObject({ running: 0, waiting: 0, reservedBytes: 0 });
  });

  it("issue 10 images: signed out is 401, no CSRF token is 403, over 10 MB is 413", async () => {
    const image = await png(10, 10);
    const stranger = new TestAgent(t.app);
    await stranger.get("/login/");
    const signedOut = await upload(stranger, image);
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json().message).toBe("Sign in to upload images.");
    expect((await upload(t.owner, image, { csrf: false })).statusCode).toBe(403);
    const huge = await upload(t.owner, Buffer.concat([image, Buffer.alloc(IMAGE_UPLOAD_LIMIT_BYTES)]));
    expect(huge.statusCode).toBe(413);
    const notMultipart = await t.owner.api("POST", "/api/assets");
    expect(notMultipart.statusCode).toBe(400);
  });

  it("issue 10 images: each person has an upload rate and a storage quota, said in words", async () => {
    const store = databaseAssetStore(t.db);
    const rated = createAssetService({ db: t.db, store, limits: { uploadsPerHour: 2 } });
    await rated.upload(ownerId, await png(12, 12));
    await rated.upload(ownerId, await png(13, 13));
    const limited = await rated.upload(ownerId, await png(14, 14)).catch((e: unknown) => e);
    expect(limited).toMatchObject({ problem: "rate", statusCode: 429 });
    expect((limited as Error).message).toMatch(/You have uploaded 2 images in the last hour/);

    const [used] = await t.db.query<{ n: string }>(
      "select coalesce(sum(byte_size), 0)::text as n from assets where uploader_id = $1",
      [ownerId],
    );
    const quota = Number(used?.n) + 100;
    const small = createAssetService({ db: t.db, store, limits: { quotaBytes: quota } });
    const full = await small
      .upload(ownerId, await png(900, 900, { r: 1, g: 2, b: 3 }))
      .catch((e: unknown) => e as ImageUploadError);
    expect(full).toMatchObject({ problem: "quota", statusCode: 413 });
    expect((full as Error).message).toMatch(/doesn't fit in your 0 MB of image storage/);
  });

  it("issue 10 images: an image a deck uses survives the sweep; once no deck uses it and a day has passed, it is gone", async () => {
    let now = Date.now();
    const store = databaseAssetStore(t.db);
    const service = createAssetService({ db: t.db, store, now: () => now });
    const kept = await service.upload(ownerId, await png(30, 30, { r: 250, g: 0, b: 0 }));
    const dropped = await service.upload(ownerId, await png(31, 31, { r: 0, g: 0, b: 250 }));
    const unused = await service.upload(ownerId, await png(32, 32, { r: 0, g: 250, b: 0 }));
    const markdown = `# Rock pools\n---\n![A crab](${kept.url})\n---\n![A shrimp](${dropped.url})`;
    await insertTestDeck(t.db, {
      oid: "assetsdeck01",
      ownerId,
      title: "Rock pools",
      privacy: "private",
      document: importMarkdown(markdown, "2"),
    });
    const [deck] = await t.db.query<{ id: string }>("select id::text as id from presentations where oid = $1", [
      "assetsdeck01",
    ]);
    const deckId = deck?.id ?? "";
    expect(await listPresentationAssets(t.db, deckId)).toEqual([kept.hash, dropped.hash].sort());

    // Within the grace period nothing goes, used or not.
    now += UNUSED_ASSET_GRACE_MS - HOUR;
    expect(await service.sweep()).toEqual([]);

    // An edit stops using one image (in the same transaction as the save).
    await t.db.transaction((tx) =>
      updatePresentationContent(tx, deckId, {
        title: "Rock pools",
        descriptionHtml: "",
        privacy: "private",
        tags: [],
        document: importMarkdown(`# Rock pools\n---\n![A crab](${kept.url})`, "2"),
        sourceMarkdown: `# Rock pools\n---\n![A crab](${kept.url})`,
      }),
    );
    expect(await listPresentationAssets(t.db, deckId)).toEqual([kept.hash]);

    now += 2 * HOUR;
    const gone = await service.sweep();
    // Images earlier tests uploaded and left unused go as well.
    expect(gone).toEqual(expect.arrayContaining([dropped.hash, unused.hash]));
    expect(gone).not.toContain(kept.hash);
    expect((await t.owner.get(dropped.url)).statusCode).toBe(404);
    expect((await t.owner.get(kept.url)).statusCode).toBe(200);

    // The deck is deleted: its image goes too (its grace period is long over).
    await t.db.transaction((tx) => deletePresentation(tx, "assetsdeck01"));
    await service.sweep();
    expect((await t.owner.get(kept.url)).statusCode).toBe(404);
  });
});
