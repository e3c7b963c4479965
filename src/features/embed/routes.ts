import type { FastifyInstance, FastifyRequest } from "fastify";
import { presentationTag } from "../content-changes";
import type { FeatureContext } from "../http";
import { EMBED_API_CLIENT_PATH, EMBED_API_CLIENT_SOURCE } from "./embed-api-client";
import { OEMBED_CACHE_AGE_S, oembedFor, oidFromUrl } from "./oembed";

/** Issue 34: how long browsers and caches keep /embed-api.js (its API is versioned, so it changes compatibly). */
const EMBED_API_CLIENT_MAX_AGE_S = 3600;

/** GET /oembed?url=…&maxwidth=…&maxheight=…&format=json (product brief routes; oembed.com). */
export function registerEmbedRoutes(app: FastifyInstance, context: FeatureContext): void {
  // Issue 34 item 4: the host pages' client, loaded by other sites' pages.
  app.get(EMBED_API_CLIENT_PATH, (_request, reply) =>
    reply
      .type("text/javascript; charset=utf-8")
      .header("cache-control", `public, max-age=${EMBED_API_CLIENT_MAX_AGE_S}`)
      .header("cross-origin-resource-policy", "cross-origin")
      .header("access-control-allow-origin", "*")
      .send(EMBED_API_CLIENT_SOURCE),
  );

  app.get("/oembed", async (request: FastifyRequest<{ Querystring: Record<string, string | undefined> }>, reply) => {
    const result = await oembedFor(context.db, context.publicUrl, request.query);
    if (result.status !== 200) {
      return reply.status(result.status).header("cache-control", "no-store").send({
        statusCode: result.status,
        message: result.message,
      });
    }
    const oid = oidFromUrl(request.query.url ?? "", context.publicUrl);
    if (oid) context.cacheTags(reply, [presentationTag(oid)]);
    return reply
      .header("cache-control", `public, max-age=${OEMBED_CACHE_AGE_S}`)
      .header("access-control-allow-origin", "*")
      .type("application/json; charset=utf-8")
      .send(result.body);
  });
}
