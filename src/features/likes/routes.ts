import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { FeatureContext } from "../http";
import { createLikeService, LikeError, type LikeTarget } from "./service";

/**
 * Spec §7 like calls: PUT likes, DELETE unlikes, at /api/v4/presentation/{oid}/like/ or
 * through a view link at /api/v4/presentation/like/?auth_key=…&key_type=…. No body; the
 * CSRF header is checked for every one of them (server/plugins/session.ts).
 */
export function registerLikeRoutes(app: FastifyInstance, context: FeatureContext): void {
  const likes = createLikeService(context.db);
  const rateLimit = {
    max: context.likeRateLimitPerMinute,
    timeWindow: "1 minute",
    // After the session and CSRF checks, so the key is the person, not the address.
    hook: "preHandler" as const,
    keyGenerator: (request: FastifyRequest) => request.viewer?.userId ?? request.ip,
  };

  const handle =
    (target: (request: FastifyRequest) => LikeTarget, liked: boolean) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        const result = await likes.setLiked(request.viewer, target(request), liked);
        return reply.header("cache-control", "no-store").send(result);
      } catch (error) {
        if (error instanceof LikeError) {
          return reply.status(error.statusCode).send({ statusCode: error.statusCode, message: error.message });
        }
        throw error;
      }
    };

  const byOid = (request: FastifyRequest) => ({ oid: (request.params as { oid: string }).oid });
  const byLink = (request: FastifyRequest) => {
    const query = request.query as { auth_key?: string; key_type?: string };
    return { viewLinkId: query.auth_key ?? "", keyType: query.key_type ?? "" };
  };

  const options = { config: { rateLimit } };
  app.put("/api/v4/presentation/like/", options, handle(byLink, true));
  app.delete("/api/v4/presentation/like/", options, handle(byLink, false));
  app.put("/api/v4/presentation/:oid/like/", options, handle(byOid, true));
  app.delete("/api/v4/presentation/:oid/like/", options, handle(byOid, false));
}
