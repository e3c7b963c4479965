import type { FastifyInstance } from "fastify";
import { createElement } from "react";
import { LISTS_TAG } from "../content-changes";
import { cachedSearchableCount } from "../explore/service";
import { type FeatureContext, PUBLIC_PAGE_CACHE_CONTROL } from "../http";
import { HomePage } from "./components/HomePage";
import { getHomePage, homeSources } from "./service";

export function registerHomeRoutes(app: FastifyInstance, context: FeatureContext): void {
  const sources = homeSources(context.db, context.changes, cachedSearchableCount(context.db, context.changes));
  // Spec §2: the logo target, and the bottom band's target for logged-out visitors.
  app.get("/", async (request, reply) => {
    const data = await getHomePage(sources);
    reply.header("cache-control", PUBLIC_PAGE_CACHE_CONTROL);
    context.cacheTags(reply, [LISTS_TAG]);
    return context.sendPage(request, reply, {
      entry: "home",
      data,
      render: (pageData) => createElement(HomePage, { data: pageData }),
      head: {
        title: { id: "title.home" },
        description: { id: "home.lead" },
        canonicalUrl: `${context.publicUrl}/`,
      },
    });
  });
}
