import type { FastifyInstance, FastifyRequest } from "fastify";
import { presentationTag } from "../content-changes";
import type { FeatureContext } from "../http";
import { OEMBED_CACHE_AGE_S, oembedFor, oidFromUrl } from "./oembed";

/** GET /oembed?url=…&maxwidth=…&maxheight=…&format=json (product brief routes; oembed.com). */
export function registerEmbedRoutes(app: FastifyInstance, context: FeatureContext): void {
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
