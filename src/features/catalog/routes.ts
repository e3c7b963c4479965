import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { createElement } from "react";
import { pageShapeOf } from "../../document/page-shape";
import { LISTS_TAG, presentationTag, SHOWCASE_TAG, VIDEOS_TAG } from "../content-changes";
import type { FeatureContext, HeadText } from "../http";
import { findPresentationByOid, findTemplateBySlug, listStaffPicks } from "../presentation/repository";
import { presentationCard, thumbnailPathOf } from "../presentation/service";
import { listVideoCards } from "../sidebar/repository";
import { cachedSidebar, videoCard, videoThumbnailSvg } from "../sidebar/service";
import { CatalogPage, type CatalogPageData } from "./components/CatalogPage";

const PUBLIC_CACHE = "public, max-age=0, s-maxage=300, stale-while-revalidate=3600";

export function registerCatalogRoutes(app: FastifyInstance, context: FeatureContext): void {
  const { db } = context;
  const sidebar = cachedSidebar(db, context.changes);
  /** Sends a catalogue page; `tags` name what it shows, for the page cache (issue 11). */
  const send = (
    request: FastifyRequest,
    reply: FastifyReply,
    data: CatalogPageData,
    title: HeadText,
    path: string,
    tags: readonly string[],
  ) => {
    reply.header("cache-control", PUBLIC_CACHE);
    context.cacheTags(reply, tags);
    return context.sendPage(request, reply, {
      entry: "catalog",
      data,
      render: (pageData) => createElement(CatalogPage, { data: pageData }),
      head: { title, canonicalUrl: `${context.publicUrl}${path}` },
    });
  };

  // Spec §2 See staff picks.
  app.get("/gallery/", async (request, reply) => {
    const picks = await listStaffPicks(db, 60);
    return send(
      request,
      reply,
      { page: "gallery", cards: picks.map(presentationCard) },
      { id: "catalog.gallery.title" },
      "/gallery/",
      [SHOWCASE_TAG, LISTS_TAG],
    );
  });

  // Spec §2 See more templates, and each template card.
  app.get("/presentation-template/", async (request, reply) => {
    const { templates } = await sidebar();
    return send(
      request,
      reply,
      { page: "templates", cards: templates },
      { id: "catalog.templates.title" },
      "/presentation-template/",
      [SHOWCASE_TAG],
    );
  });
  app.get("/presentation-template/:slug/", async (request: FastifyRequest<{ Params: { slug: string } }>, reply) => {
    const slug = request.params.slug;
    const template = /^[a-z0-9-]{1,80}$/.test(slug) ? await findTemplateBySlug(db, slug) : null;
    if (!template) return context.sendNotFound(request, reply);
    return send(
      request,
      reply,
      {
        page: "template",
        title: template.title,
        subTitle: template.templateSubTitle ?? "",
        descriptionHtml: template.descriptionHtml,
        oid: template.oid,
        thumbnail: thumbnailPathOf(template.oid),
      },
      template.title,
      `/presentation-template/${slug}/`,
      [presentationTag(template.oid), SHOWCASE_TAG],
    );
  });

  // Spec §2 See more videos, and the banner's Learn more pages.
  app.get("/video/explore/", async (request, reply) => {
    const cards = (await listVideoCards(db)).map(videoCard);
    return send(request, reply, { page: "videos", cards }, { id: "catalog.videos.title" }, "/video/explore/", [
      VIDEOS_TAG,
    ]);
  });
  app.get("/video", (request, reply) =>
    send(request, reply, { page: "info", topic: "video" }, { id: "info.video.title" }, "/video", []),
  );
  app.get("/edu/prezi-video-edu", (request, reply) =>
    send(request, reply, { page: "info", topic: "edu" }, { id: "info.edu.title" }, "/edu/prezi-video-edu", []),
  );
  app.get("/product/", (request, reply) =>
    send(request, reply, { page: "info", topic: "product" }, { id: "info.product.title" }, "/product/", []),
  );

  // Issue 34 item 4: the embed API's documentation, with a live example driving a staff pick.
  app.get("/developers/embed/", async (request, reply) => {
    const [pick] = await listStaffPicks(db, 1);
    const row = pick ? await findPresentationByOid(db, pick.oid) : null;
    const demo = row
      ? {
          oid: row.oid,
          title: row.title,
          pageAspect: pageShapeOf(row.document).pageAspect,
          stepCount: row.document.path.length,
        }
      : null;
    return send(
      request,
      reply,
      { page: "developers", demo },
      { id: "dev.embed.title" },
      "/developers/embed/",
      row ? [SHOWCASE_TAG, presentationTag(row.oid)] : [SHOWCASE_TAG],
    );
  });

  // Video card thumbnails and hover previews, drawn by Podium (spec §3 previewAnimation).
  const videoImage =
    (animated: boolean) => async (request: FastifyRequest<{ Params: { file: string } }>, reply: FastifyReply) => {
      const slug = /^([a-z0-9-]{1,80})\.svg$/.exec(request.params.file)?.[1];
      const card = slug ? (await listVideoCards(db)).find((c) => c.slug === slug) : undefined;
      if (!card || (animated && !card.hasPreviewAnimation)) return context.sendNotFound(request, reply);
      context.cacheTags(reply, [VIDEOS_TAG]);
      return reply
        .type("image/svg+xml; charset=utf-8")
        .header("cache-control", "public, max-age=86400")
        .header("cross-origin-resource-policy", "cross-origin")
        .send(videoThumbnailSvg(card, animated));
    };
  app.get("/video/thumbnail/:file", videoImage(false));
  app.get("/video/preview/:file", videoImage(true));
}
