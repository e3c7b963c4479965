import type { FastifyInstance, FastifyRequest } from "fastify";
import { createElement } from "react";
import { LISTS_TAG, SHOWCASE_TAG, VIDEOS_TAG } from "../content-changes";
import { type FeatureContext, PUBLIC_PAGE_CACHE_CONTROL } from "../http";
import { ExplorePage } from "./components/ExplorePage";
import { SEARCH_MAX_LENGTH, SEARCH_TAG_MAX_LENGTH, searchTypeOf } from "./search";
import { SEARCH_INDEX_HEADER, SearchMemory } from "./search-memory";
import { exploreSources, getExplorePage, getSearchPage } from "./service";

export function registerExploreRoutes(app: FastifyInstance, context: FeatureContext): void {
  // Issue 32 item 3: the search index in memory, built in the background once the server is ready
  // (the database answers searches until then).
  const memory = context.searchIndex === "memory" ? new SearchMemory(context.db, context.changes) : null;
  if (memory) {
    app.addHook("onReady", async () => void memory.start());
    app.addHook("onClose", async () => memory.close());
  }
  app.decorate("searchMemory", memory);
  const sources = exploreSources(context.db, context.changes, context.titleIndex, memory);
  app.get("/explore/", async (request, reply) => {
    const data = await getExplorePage(request.viewer, sources);
    reply.header("cache-control", PUBLIC_PAGE_CACHE_CONTROL);
    context.cacheTags(reply, [LISTS_TAG, SHOWCASE_TAG]);
    return context.sendPage(request, reply, {
      entry: "explore",
      data,
      render: (pageData) => createElement(ExplorePage, { data: pageData }),
      head: {
        title: { id: "explore.title" },
        description: { id: "explore.description" },
        canonicalUrl: `${context.publicUrl}/explore/`,
      },
    });
  });

  app.get(
    "/explore/search/",
    async (
      request: FastifyRequest<{ Querystring: { search?: unknown; page?: unknown; type?: unknown; tag?: unknown } }>,
      reply,
    ) => {
      const { search, page, type, tag } = request.query;
      const term = typeof search === "string" ? search.trim().slice(0, SEARCH_MAX_LENGTH) : "";
      // Spec §5: an empty term goes to the plain explore page.
      if (!term) return reply.redirect("/explore/", 303);
      // Issue 15: filters as written in the address; anything else reads as no filter.
      const tagFilter = typeof tag === "string" ? tag.trim().toLowerCase().slice(0, SEARCH_TAG_MAX_LENGTH) : "";
      const pageNumber = typeof page === "string" ? Number(page) : 1;
      const data = await getSearchPage(
        context.db,
        request.viewer,
        {
          term,
          type: searchTypeOf(type),
          tag: tagFilter || null,
          page: Number.isInteger(pageNumber) ? pageNumber : 1,
        },
        sources,
      );
      // Issue 15 item 5: a search that found something counts toward trending searches, also when
      // the page cache answers it later instead of this route.
      if (data.total > 0) {
        context.onCachedServe(reply, (address) => void context.recordSearch(term, address));
        await context.recordSearch(term, request.ip);
      }
      reply.header("cache-control", PUBLIC_PAGE_CACHE_CONTROL);
      // Issue 32 item 3: whether the index in memory was there to answer (operators and benches read it).
      reply.header(SEARCH_INDEX_HEADER, memory?.ready ? "memory" : "database");
      context.cacheTags(reply, [LISTS_TAG, SHOWCASE_TAG, VIDEOS_TAG]);
      return context.sendPage(request, reply, {
        entry: "explore",
        data,
        render: (pageData) => createElement(ExplorePage, { data: pageData }),
        head: { title: { id: "title.search", values: { term } }, noindex: true },
      });
    },
  );
}
