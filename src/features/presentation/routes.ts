import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { escapeHtml } from "../../lib/html";
import { LISTS_TAG, presentationTag } from "../content-changes";
import type { FeatureContext } from "../http";
import { cachedByKey, cachedUntilChange } from "../small-caches";
import { linkRouteOf } from "./link-gate";
import { lastListedId, listSitemapEntries } from "./repository";
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
    options: { images: boolean; step?: number } = { images: true },
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
    sendDocument(linkRouteOf(request.params.linkId, request.cookies), request, reply),
  );
  app.get("/p/:oid/thumbnail.svg", (request: OidRequest, reply) =>
    sendThumbnail({ oid: request.params.oid }, request, reply),
  );
  app.get("/view/:linkId/thumbnail.svg", (request: LinkRequest, reply) =>
    sendThumbnail(linkRouteOf(request.params.linkId, request.cookies), request, reply),
  );
  // Issue 34 item 5: each step's own thumbnail, a step link's og:image (cached like the deck's).
  app.get(
    "/p/:oid/steps/:step/thumbnail.svg",
    (request: FastifyRequest<{ Params: { oid: string; step: string } }>, reply) => {
      const { step } = request.params;
      if (!/^\d{1,6}$/.test(step) || Number(step) < 1) return context.sendNotFound(request, reply);
      return sendThumbnail({ oid: request.params.oid }, request, reply, { images: true, step: Number(step) });
    },
  );
  // R4.1: the fallback preview (spec §3 fallbackPreviewUrl), the same drawing without its images.
  app.get(`/p/:oid/${FALLBACK_THUMBNAIL}`, (request: OidRequest, reply) =>
    sendThumbnail({ oid: request.params.oid }, request, reply, { images: false }),
  );
  app.get(`/view/:linkId/${FALLBACK_THUMBNAIL}`, (request: LinkRequest, reply) =>
    sendThumbnail(linkRouteOf(request.params.linkId, request.cookies), request, reply, { images: false }),
  );

  // The slide theme, chosen on the dashboard's manage page (issue 10).
  registerThemeRoute(app, context);
}

/**
 * Ids per sitemap page (issue 32): a page lists the listed presentations in one range of ids, so it
 * holds at most this many URLs (the protocol allows 50,000) and reads only what it lists.
 */
export const SITEMAP_PAGE_IDS = 10_000;
/**
 * Sitemap pages a process keeps (issue 32 item 2), each up to SITEMAP_PAGE_IDS URLs (about 1 MB):
 * a crawler reads them one after the other, so a few are enough and memory stays small.
 */
const KEPT_SITEMAP_PAGES = 4;

/**
 * GET /sitemap.xml: every listed presentation's canonical URL (how crawlers find them). While every
 * listed id fits one page it is that page; past it, a sitemap index of `/sitemap-{n}.xml` pages.
 */
export function registerSitemapRoute(app: FastifyInstance, context: FeatureContext): void {
  const xml = (reply: FastifyReply, body: string) => {
    context.cacheTags(reply, [LISTS_TAG]);
    return reply
      .type("application/xml; charset=utf-8")
      .header("cache-control", "public, max-age=300")
      .send(`<?xml version="1.0" encoding="UTF-8"?>\n${body}\n`);
  };
  // Issue 32 item 2: the page count and the pages are kept until a listed presentation changes
  // (`lists`), a minute at most, so the page cache off doesn't mean a statement per request.
  const pageCount = cachedUntilChange(
    context.changes,
    [LISTS_TAG],
    async () => Math.floor((await lastListedId(context.db)) / SITEMAP_PAGE_IDS) + 1,
  );
  const pageBody = cachedByKey(
    context.changes,
    KEPT_SITEMAP_PAGES,
    (key) => sitemapPage(Number(key)),
    () => [LISTS_TAG],
  );
  const page = async (reply: FastifyReply, n: number) => xml(reply, await pageBody(String(n)));
  const sitemapPage = async (n: number) => {
    const entries = await listSitemapEntries(context.db, {
      fromId: n * SITEMAP_PAGE_IDS,
      toId: (n + 1) * SITEMAP_PAGE_IDS,
    });
    const urls = [
      ...(n === 0 ? [`<url><loc>${escapeHtml(`${context.publicUrl}/`)}</loc></url>`] : []),
      ...entries.map(
        (entry) =>
          `<url><loc>${escapeHtml(`${context.publicUrl}${canonicalPathOf(entry)}`)}</loc><lastmod>${entry.lastModified.toISOString()}</lastmod></url>`,
      ),
    ];
    return `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>`;
  };

  app.get("/sitemap.xml", async (_request, reply) => {
    const pages = await pageCount();
    if (pages === 1) return page(reply, 0);
    const sitemaps = Array.from(
      { length: pages },
      (_, n) => `<sitemap><loc>${escapeHtml(`${context.publicUrl}/sitemap-${n}.xml`)}</loc></sitemap>`,
    );
    return xml(
      reply,
      `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${sitemaps.join("\n")}\n</sitemapindex>`,
    );
  });

  app.get("/sitemap-:page(^\\d{1,6}).xml", async (request: FastifyRequest<{ Params: { page: string } }>, reply) => {
    const n = Number(request.params.page);
    const pages = await pageCount();
    if (n >= pages) return context.sendNotFound(request, reply);
    return page(reply, n);
  });
}
