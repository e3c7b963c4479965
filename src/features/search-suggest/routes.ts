import type { FastifyInstance, FastifyRequest } from "fastify";
import type { FeatureContext } from "../http";
import { SUGGEST_CACHE_CONTROL, SUGGEST_PATH, suggestQueryProblem } from "./rules";
import { suggest, type TrendingSearches } from "./service";

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
  app.get(SUGGEST_PATH, async (request: FastifyRequest<{ Querystring: { q?: unknown } }>, reply) => {
    const q = request.query.q;
    const problem = suggestQueryProblem(q);
    if (problem !== null || typeof q !== "string") {
      reply.header("cache-control", "no-store");
      return reply.status(400).send({ statusCode: 400, error: "Bad Request", message: problem });
    }
    const answer = await suggest(context.titleIndex, trending, q);
    reply.header("cache-control", SUGGEST_CACHE_CONTROL);
    return reply.send(answer);
  });
}
