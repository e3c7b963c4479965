import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { createElement } from "react";
import { escapeHtml } from "../../lib/html";
import { isOid } from "../../lib/ids";
import { type FeatureContext, isMobileUserAgent } from "../http";
import { EmbedPage } from "./components/EmbedPage";
import { PresentationPage } from "./components/PresentationPage";
import { PrivateViewPage } from "./components/PrivateViewPage";
import { transcriptPlainText } from "./document/transcript";
import type { PresentationPageData } from "./page-data";
import { listSitemapEntries } from "./repository";
import {
  canonicalPathOf,
  getDocument,
  getEmbedPage,
  getPrivateViewPage,
  getPublicViewPage,
  getThumbnailSvg,
  type PresentationRoute,
  type ViewRequest,
} from "./service";
import { registerThemeRoute } from "./theme";

/** Longest meta description we send (search engines show about 160 characters). */
const META_DESCRIPTION_LENGTH = 160;
/** Anonymous public pages may be cached briefly by shared caches (architecture: CDN-friendly). */
const PUBLIC_PAGE_CACHE = "public, max-age=0, s-maxage=60, stale-while-revalidate=600";

type OidRequest = FastifyRequest<{ Params: { oid: string }; Querystring: Record<string, string | undefined> }>;
type LinkRequest = FastifyRequest<{ Params: { linkId: string } }>;

export function registerPresentationRoutes(app: FastifyInstance, context: FeatureContext): void {
  const { db } = context;
  const viewRequest = (request: FastifyRequest): ViewRequest => ({
    viewer: request.viewer,
    isMobile: isMobileUserAgent(request.headers["user-agent"]),
    features: context.features,
    nativeApp: context.nativeApp,
  });

  const summaryOf = (data: PresentationPageData) => {
    const text = transcriptPlainText(data.transcriptData).replace(/\s+/g, " ").trim();
    return text ? truncate(text, META_DESCRIPTION_LENGTH) : undefined;
  };

  // The public view page: /p/{oid}/ and /p/{oid}/{slug}/ (product brief, routes).
  const viewPage = async (request: OidRequest, reply: FastifyReply) => {
    const { oid } = request.params;
    if (!isOid(oid)) return context.sendNotFound(request, reply);
    const data = await getPublicViewPage(db, { ...viewRequest(request), oid });
    if (!data) return context.sendNotFound(request, reply);
    reply.header("cache-control", PUBLIC_PAGE_CACHE);
    reply.header("vary", "Cookie, User-Agent");
    return context.sendPage(request, reply, {
      entry: "presentation",
      data,
      render: (pageData) => createElement(PresentationPage, { data: pageData }),
      head: {
        title: data.title,
        description: summaryOf(data),
        canonicalUrl: `${context.publicUrl}${data.canonicalPath}`,
        imageUrl: `${context.publicUrl}${data.thumbnailUrl}`,
        oembedUrl: `${context.publicUrl}/oembed?format=json&url=${encodeURIComponent(`${context.publicUrl}${data.canonicalPath}`)}`,
        noindex: data.privacy === "unlisted",
      },
    });
  };
  app.get("/p/:oid/", viewPage);
  app.get("/p/:oid/:slug/", viewPage);

  // The embeddable player (spec §2 /p/embed/{id}/): frameable by any site; ?autoplay=1 plays at once.
  app.get("/p/embed/:oid/", async (request: OidRequest, reply) => {
    const { oid } = request.params;
    if (!isOid(oid)) return context.sendNotFound(request, reply);
    const autoplay = request.query.autoplay === "1" || request.query.autoplay === "true";
    const data = await getEmbedPage(db, { ...viewRequest(request), oid, autoplay });
    if (!data) return context.sendNotFound(request, reply);
    reply.header("cache-control", PUBLIC_PAGE_CACHE);
    return context.sendPage(request, reply, {
      entry: "embed",
      data,
      frameable: true,
      render: (pageData) => createElement(EmbedPage, { data: pageData }),
      head: {
        title: data.title,
        description: summaryOf(data),
        canonicalUrl: `${context.publicUrl}${data.canonicalPath}`,
        noindex: true,
      },
    });
  });

  // The private full-screen view page, opened through a view link (product brief).
  app.get("/view/:linkId/", async (request: LinkRequest, reply) => {
    const data = await getPrivateViewPage(db, { ...viewRequest(request), linkId: request.params.linkId });
    if (!data) return context.sendNotFound(request, reply);
    // The link is a secret: keep it out of caches and Referer headers.
    reply.header("cache-control", "private, no-store");
    reply.header("referrer-policy", "no-referrer");
    return context.sendPage(request, reply, {
      entry: "view",
      data,
      render: (pageData) => createElement(PrivateViewPage, { data: pageData }),
      head: { title: data.title, noindex: true },
    });
  });

  const sendDocument = async (access: PresentationRoute, request: FastifyRequest, reply: FastifyReply) => {
    const found = await getDocument(db, access, request.viewer);
    if (!found) return context.sendNotFound(request, reply);
    const listed = "oid" in access && (found.privacy === "public" || found.privacy === "reusable");
    return reply
      .header("cache-control", listed ? "public, max-age=60" : "private, no-store")
      .type("application/json; charset=utf-8")
      .send(found.document);
  };
  const sendThumbnail = async (access: PresentationRoute, request: FastifyRequest, reply: FastifyReply) => {
    const svg = await getThumbnailSvg(db, access, request.viewer);
    if (svg === null) return context.sendNotFound(request, reply);
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

  // The slide theme, chosen on the dashboard's manage page (issue 10).
  registerThemeRoute(app, context);
}

/** GET /sitemap.xml: every listed presentation's canonical URL (how crawlers find them). */
export function registerSitemapRoute(app: FastifyInstance, context: FeatureContext): void {
  app.get("/sitemap.xml", async (_request, reply) => {
    const entries = await listSitemapEntries(context.db);
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

function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max - 1).replace(/\s+\S*$/, "")}…`;
}
