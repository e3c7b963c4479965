import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { escapeHtml } from "../../lib/html";
import { LISTS_TAG, presentationTag } from "../content-changes";
import type { FeatureContext } from "../http";
import { listSitemapEntries } from "./repository";
import { canonicalPathOf, getDocument, getThumbnailSvg, type PresentationRoute } from "./service";
import { registerThemeRoute } from "./theme";
import { FALLBACK_THUMBNAIL } from "./thumbnail";

type OidRequest = FastifyRequest<{ Params: { oid: string } }>;
type LinkRequest = FastifyRequest<{ Params: { linkId: string } }>;

/** A presentation's document and thumbnail (public and through view links), and its theme; the pages are view-page's. */
export function registerPresentationRoutes(app: FastifyInstance, context: FeatureContext): void {
  const { db } = context;

  const sendDocument = async (access: PresentationRoute, request: FastifyRequest, reply: FastifyReply) => {
    const found = await getDocument(db, access, request.viewer);
    if (!found) return context.sendNotFound(request, reply);
    if ("oid" in access) context.cacheTags(reply, [presentationTag(access.oid)]);
    const listed = "oid" in access && (found.privacy === "public" || found.privacy === "reusable");
    // Issue 28: a document with private notes in it is the presenter's alone, never stored by anyone.
    const shared = listed && !found.personal;
    return reply
      .header("cache-control", shared ? "public, max-age=60" : "private, no-store")
      .type("application/json; charset=utf-8")
      .send(found.document);
  };
  const sendThumbnail = async (
    access: PresentationRoute,
    request: FastifyRequest,
    reply: FastifyReply,
    options: { images: boolean } = { images: true },
  ) => {
    const svg = await getThumbnailSvg(db, access, request.viewer, options);
    if (svg === null) return context.sendNotFound(request, reply);
    if ("oid" in access) context.cacheTags(reply, [presentationTag(access.oid)]);
    return (
      reply
        .type("image/svg+xml; charset=utf-8")
        .header("cross-origin-resource-policy", "cross-origin")
        // Opened on its own, the drawing may show its embedded data: images and nothing else.
        .header("content-security-policy", "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox")
        .header(
          "cache-control",
          "oid" in access ? "public, max-age=300, stale-while-revalidate=86400" : "private, no-store",
        )
        .send(svg)
    );
  };

  // The native document as JSON (the player's source, and JSON export).
  app.get("/p/:oid/document.json", (request: OidRequest, reply) =>
    sendDocument({ oid: request.params.oid }, request, reply),
  );
  app.get("/view/:linkId/document.json", (request: LinkRequest, reply) =>
    sendDocument({ linkId: request.params.linkId }, request, reply),
  );
  app.get("/p/:oid/thumbnail.svg", (request: OidRequest, reply) =>
    sendThumbnail({ oid: request.params.oid }, request, reply),
  );
  app.get("/view/:linkId/thumbnail.svg", (request: LinkRequest, reply) =>
    sendThumbnail({ linkId: request.params.linkId }, request, reply),
  );
  // R4.1: the fallback preview (spec §3 fallbackPreviewUrl), the same drawing without its images.
  app.get(`/p/:oid/${FALLBACK_THUMBNAIL}`, (request: OidRequest, reply) =>
    sendThumbnail({ oid: request.params.oid }, request, reply, { images: false }),
  );
  app.get(`/view/:linkId/${FALLBACK_THUMBNAIL}`, (request: LinkRequest, reply) =>
    sendThumbnail({ linkId: request.params.linkId }, request, reply, { images: false }),
  );

  // The slide theme, chosen on the dashboard's manage page (issue 10).
  registerThemeRoute(app, context);
}

/** GET /sitemap.xml: every listed presentation's canonical URL (how crawlers find them). */
export function registerSitemapRoute(app: FastifyInstance, context: FeatureContext): void {
  app.get("/sitemap.xml", async (_request, reply) => {
    const entries = await listSitemapEntries(context.db);
    context.cacheTags(reply, [LISTS_TAG]);
    const urls = [
      `<url><loc>${escapeHtml(`${context.publicUrl}/`)}</loc></url>`,
      ...entries.map(
        (entry) =>
          `<url><loc>${escapeHtml(`${context.publicUrl}${canonicalPathOf(entry)}`)}</loc><lastmod>${entry.lastModified.toISOString()}</lastmod></url>`,
      ),
    ];
    return reply
      .type("application/xml; charset=utf-8")
      .header("cache-control", "public, max-age=300")
      .send(
        `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`,
      );
  });
}
