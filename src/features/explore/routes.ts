import type { FastifyInstance, FastifyRequest } from "fastify";
import { createElement } from "react";
import type { FeatureContext } from "../http";
import { ExplorePage } from "./components/ExplorePage";
import { getExplorePage, getSearchPage } from "./service";

export function registerExploreRoutes(app: FastifyInstance, context: FeatureContext): void {
  app.get("/explore/", async (request, reply) => {
    const data = await getExplorePage(context.db, request.viewer);
    reply.header("cache-control", "public, max-age=0, s-maxage=60, stale-while-revalidate=600");
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
      return context.sendPage(request, reply, {
        entry: "explore",
        data,
        render: (pageData) => createElement(ExplorePage, { data: pageData }),
        head: { title: { id: "title.search", values: { term } }, noindex: true },
      });
    },
  );
}
