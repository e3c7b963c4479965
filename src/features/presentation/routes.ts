import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { createElement } from "react";
import { escapeHtml } from "../../lib/html";
import { isOid } from "../../lib/ids";
import { type FeatureContext, isMobileUserAgent } from "../http";
import { PresentationPage } from "./components/PresentationPage";
import { transcriptPlainText } from "./document/transcript";
import { listSitemapEntries } from "./repository";
import { canonicalPathOf, getPublicViewPage, getThumbnailSvg } from "./service";

/** Longest meta description we send (search engines show about 160 characters). */
const META_DESCRIPTION_LENGTH = 160;

export function registerPresentationRoutes(app: FastifyInstance, context: FeatureContext): void {
  const { db } = context;

  // The public view page: /p/{oid}/ and /p/{oid}/{slug}/ (product brief, routes).
  const viewPage = async (request: FastifyRequest<{ Params: { oid: string } }>, reply: FastifyReply) => {
    const { oid } = request.params;
    if (!isOid(oid)) return context.sendNotFound(request, reply);
    const data = await getPublicViewPage(db, {
      oid,
      viewer: null,
      isMobile: isMobileUserAgent(request.headers["user-agent"]),
      features: context.features,
    });
    if (!data) return context.sendNotFound(request, reply);
    const summary = transcriptPlainText(data.transcriptData).replace(/\s+/g, " ").trim();
    reply.header("cache-control", "public, max-age=0, s-maxage=60, stale-while-revalidate=600");
    reply.header("vary", "Cookie, User-Agent");
    return context.sendPage(request, reply, {
      entry: "presentation",
      data,
      render: (pageData) => createElement(PresentationPage, { data: pageData }),
      head: {
        title: `${data.title} · Podium`,
        description: summary ? truncate(summary, META_DESCRIPTION_LENGTH) : undefined,
        canonicalUrl: `${context.publicUrl}${data.canonicalPath}`,
        imageUrl: `${context.publicUrl}${data.thumbnailUrl}`,
        noindex: data.privacy === "unlisted",
      },
    });
  };

  app.get<{ Params: { oid: string } }>("/p/:oid/", viewPage);
  app.get<{ Params: { oid: string; slug: string } }>("/p/:oid/:slug/", viewPage);

  app.get<{ Params: { oid: string } }>("/p/:oid/thumbnail.svg", async (request, reply) => {
    const { oid } = request.params;
    const svg = isOid(oid) ? await getThumbnailSvg(db, oid, null) : null;
    if (svg === null) return context.sendNotFound(request, reply);
    return reply
      .type("image/svg+xml; charset=utf-8")
      .header("cache-control", "public, max-age=300, stale-while-revalidate=86400")
      .send(svg);
  });
}

function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max - 1).replace(/\s+\S*$/, "")}…`;
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
