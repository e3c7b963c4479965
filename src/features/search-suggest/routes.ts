import type { FastifyInstance, FastifyRequest } from "fastify";
import { LISTS_TAG } from "../content-changes";
import type { FeatureContext } from "../http";
import { refreshedOnChange, SMALL_CACHE_TTL_MS } from "../small-caches";
import { SUGGEST_CACHE_CONTROL, SUGGEST_PATH, suggestQueryProblem } from "./rules";
import { loadTitleIndex, suggest, type TrendingSearches } from "./service";

/**
 * Issue 15 item 4: `GET /api/search/suggest?q=` → `{ query, titles, terms }`. Anyone may ask
 * (only listed presentations are suggested); the app-wide rate limit applies; browsers keep an
 * answer briefly.
 */
export function registerSearchSuggestRoutes(
  app: FastifyInstance,
  context: FeatureContext,
  trending: TrendingSearches,
): void {
  // Rebuilt in the background after any change to listed presentations (and at least every
  // minute: view counts move); suggestions meanwhile come from the index before.
  const titleIndex = refreshedOnChange(
    context.changes,
    [LISTS_TAG],
    () => loadTitleIndex(context.db),
    SMALL_CACHE_TTL_MS,
  );
  app.get(SUGGEST_PATH, async (request: FastifyRequest<{ Querystring: { q?: unknown } }>, reply) => {
    const q = request.query.q;
    const problem = suggestQueryProblem(q);
    if (problem !== null || typeof q !== "string") {
      reply.header("cache-control", "no-store");
      return reply.status(400).send({ statusCode: 400, error: "Bad Request", message: problem });
    }
    const answer = await suggest(titleIndex, trending, q);
    reply.header("cache-control", SUGGEST_CACHE_CONTROL);
    return reply.send(answer);
  });
}
