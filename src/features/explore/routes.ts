import type { FastifyInstance, FastifyRequest } from "fastify";
import { createElement } from "react";
import { LISTS_TAG, SHOWCASE_TAG } from "../content-changes";
import { type FeatureContext, PUBLIC_PAGE_CACHE_CONTROL } from "../http";
import { ExplorePage } from "./components/ExplorePage";
import { getExplorePage, getSearchPage } from "./service";

export function registerExploreRoutes(app: FastifyInstance, context: FeatureContext): void {
  app.get("/explore/", async (request, reply) => {
    const data = await getExplorePage(context.db, request.viewer);
    reply.header("cache-control", PUBLIC_PAGE_CACHE_CONTROL);
    context.cacheTags(reply, [LISTS_TAG, SHOWCASE_TAG]);
    return context.sendPage(request, reply, {
      entry: "explore",
      data,
      render: (pageData) => createElement(ExplorePage, { data: pageData }),
      head: { title: { id: "explore.title" }, canonicalUrl: `${context.publicUrl}/explore/` },
    });
  });

  app.get(
    "/explore/search/",
    async (request: FastifyRequest<{ Querystring: { search?: string; page?: string } }>, reply) => {
      const term = typeof request.query.search === "string" ? request.query.search.trim().slice(0, 200) : "";
      // Spec §5: an empty term goes to the plain explore page.
      if (!term) return reply.redirect("/explore/", 303);
      const page = Number(request.query.page ?? 1);
      const data = await getSearchPage(context.db, request.viewer, term, Number.isInteger(page) ? page : 1);
      // Issue 15 item 5: a search that found something counts toward trending searches.
      if (data.total > 0) await context.recordSearch(term, request.ip);
      reply.header("cache-control", PUBLIC_PAGE_CACHE_CONTROL);
      context.cacheTags(reply, [LISTS_TAG, SHOWCASE_TAG]);
      return context.sendPage(request, reply, {
        entry: "explore",
        data,
        render: (pageData) => createElement(ExplorePage, { data: pageData }),
        head: { title: { id: "title.search", values: { term } }, noindex: true },
      });
    },
  );
}
