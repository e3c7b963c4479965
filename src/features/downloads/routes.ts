import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { FeatureContext } from "../http";
import { linkRouteOf } from "../presentation/link-gate";
import type { PresentationRoute } from "../presentation/service";
import { DownloadBusyError, type DownloadKind, getDownload } from "./service";

type OidRequest = FastifyRequest<{ Params: { oid: string } }>;
type LinkRequest = FastifyRequest<{ Params: { linkId: string } }>;

/**
 * Issue 33 item 4: `/p/{oid}/download.pdf|md` (the public page's, when the owner allows it) and
 * `/view/{linkId}/download.pdf|md` (a view link's, when that link allows it). Anything else is
 * the 404 of a deck or link that doesn't exist.
 */
export function registerDownloadRoutes(app: FastifyInstance, context: FeatureContext): void {
  const send = async (route: PresentationRoute, kind: DownloadKind, request: FastifyRequest, reply: FastifyReply) => {
    let download: Awaited<ReturnType<typeof getDownload>>;
    try {
      download = await getDownload(context.db, route, request.viewer, kind);
    } catch (error) {
      if (!(error instanceof DownloadBusyError)) throw error;
      return reply
        .status(503)
        .header("retry-after", String(error.retryAfterSeconds))
        .send({ statusCode: 503, error: "Service Unavailable", message: error.message });
    }
    if (!download) return context.sendNotFound(request, reply);
    const ascii = download.filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
    return reply
      .type(download.contentType)
      .header(
        "content-disposition",
        `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(download.filename)}`,
      )
      .header("cache-control", "private, no-store")
      .header("x-content-type-options", "nosniff")
      .send(typeof download.body === "string" ? download.body : Buffer.from(download.body));
  };
  app.get("/p/:oid/download.pdf", (request: OidRequest, reply) =>
    send({ oid: request.params.oid }, "pdf", request, reply),
  );
  app.get("/p/:oid/download.md", (request: OidRequest, reply) =>
    send({ oid: request.params.oid }, "markdown", request, reply),
  );
  app.get("/view/:linkId/download.pdf", (request: LinkRequest, reply) =>
    send(linkRouteOf(request.params.linkId, request.cookies), "pdf", request, reply),
  );
  app.get("/view/:linkId/download.md", (request: LinkRequest, reply) =>
    send(linkRouteOf(request.params.linkId, request.cookies), "markdown", request, reply),
  );
}
