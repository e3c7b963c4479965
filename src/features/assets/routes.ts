import type { FastifyInstance, FastifyReply } from "fastify";
import type { FeatureContext } from "../http";
import { findAsset } from "./repository";
import { createAssetService, IMAGE_UPLOAD_LIMIT_BYTES, ImageUploadError } from "./service";
import { databaseAssetStore } from "./store";

/** An image's file name: the SHA-256 of its bytes (64 lowercase hex) and its extension. */
const ASSET_NAME = /^([0-9a-f]{64})\.([a-z0-9]{3,4})$/;
const EXTENSIONS: Record<string, string> = { "image/webp": "webp" };
/** Images never change under their name: caches keep them for a year. */
const IMMUTABLE = "public, max-age=31536000, immutable";
/** Served images are never active content, even opened on their own. */
const ASSET_CSP = "default-src 'none'; sandbox";

interface UploadedPart {
  type?: string;
  toBuffer?: () => Promise<Buffer>;
}

/** Issue 10, item 5: uploading presentation images (`POST /api/assets`) and serving them (`/assets/…`). */
export function registerAssetRoutes(app: FastifyInstance, context: FeatureContext): void {
  const store = databaseAssetStore(context.db);
  const assets = createAssetService({ db: context.db, store, counts: context.limits });

  app.post(
    "/api/assets",
    {
      // The body is the image and a little multipart framing; the app-wide limit is for forms.
      bodyLimit: IMAGE_UPLOAD_LIMIT_BYTES + 64 * 1024,
      config: {
        multipartOptions: { limits: { fileSize: IMAGE_UPLOAD_LIMIT_BYTES, files: 1 }, throwFileSizeLimit: true },
      },
      // Signed-out uploads are refused before their body is read.
      onRequest: async (request, reply) => {
        if (!request.viewer) {
          await reply.status(401).send({ statusCode: 401, problem: "signedOut", message: "Sign in to upload images." });
        }
      },
    },
    async (request, reply) => {
      const viewer = request.viewer;
      if (!viewer) {
        return reply.status(401).send({ statusCode: 401, problem: "signedOut", message: "Sign in to upload images." });
      }
      const part = (request.body as Record<string, unknown> | undefined)?.file as UploadedPart | undefined;
      if (!request.isMultipart() || part?.type !== "file" || !part.toBuffer) {
        return reply.status(400).send({
          statusCode: 400,
          problem: "notImage",
          message: "Send the image as a multipart form with one file field named file.",
        });
      }
      const bytes = await part.toBuffer();
      try {
        const image = await assets.upload(viewer.userId, bytes);
        return reply
          .status(201)
          .send({ url: image.url, width: image.width, height: image.height, bytes: image.byteSize });
      } catch (error) {
        if (!(error instanceof ImageUploadError)) throw error;
        if (error.retryAfterSeconds !== null) reply.header("retry-after", String(error.retryAfterSeconds));
        // The problem names the refusal for the page, which says it in the person's language.
        return reply
          .status(error.statusCode)
          .send({ statusCode: error.statusCode, problem: error.problem, message: error.message, ...error.values });
      }
    },
  );

  const sendImmutable = (reply: FastifyReply) =>
    reply
      .header("cache-control", IMMUTABLE)
      .header("content-security-policy", ASSET_CSP)
      .header("x-content-type-options", "nosniff");

  app.get<{ Params: { name: string } }>(
    "/assets/:name",
    {
      // Runs after the session's hook, which marks responses to signed-in people private:
      // an image is the same for everyone, public by its unguessable name.
      onSend: async (_request, reply, payload) => {
        if (reply.statusCode === 200 || reply.statusCode === 304) reply.header("cache-control", IMMUTABLE);
        return payload;
      },
    },
    async (request, reply) => {
      const match = ASSET_NAME.exec(request.params.name);
      const hash = match?.[1];
      if (!hash) return context.sendNotFound(request, reply);
      const asset = await findAsset(context.db, hash);
      if (!asset || EXTENSIONS[asset.contentType] !== match[2]) return context.sendNotFound(request, reply);
      const etag = `"${hash}"`;
      const ifNoneMatch = request.headers["if-none-match"];
      if (
        ifNoneMatch &&
        (ifNoneMatch === "*" || ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag))
      ) {
        return sendImmutable(reply).header("etag", etag).status(304).send();
      }
      const bytes = await store.get(hash);
      if (!bytes) return context.sendNotFound(request, reply);
      return sendImmutable(reply)
        .header("etag", etag)
        .type(asset.contentType)
        .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    },
  );
}
