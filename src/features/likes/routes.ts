import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { viewerFactsTag } from "../content-changes";
import type { FeatureContext } from "../http";
import { linkGrantCookie } from "../presentation/link-gate";
import { createLikeService, LikeError, type LikeTarget } from "./service";

const LIKE_WINDOW_MS = 60 * 1000;

/**
 * Spec §7 like calls: PUT likes, DELETE unlikes, at /api/v4/presentation/{oid}/like/ or
 * through a view link at /api/v4/presentation/like/?auth_key=…&key_type=…. No body; the
 * CSRF header is checked for every one of them (server/plugins/session.ts).
 */
export function registerLikeRoutes(app: FastifyInstance, context: FeatureContext): void {
  const likes = createLikeService(context.db);

  // One budget per person for all four routes together: per-route counters (one per method and
  // path) would let someone alternating like and unlike, by oid and by view link, make four
  // times the calls allowed.
  // Counted where context.limits keeps counts: Redis, shared by every process, when REDIS_URL is set (issue 16).
  const budget = context.limits.fixed("like", context.likeRateLimitPerMinute, LIKE_WINDOW_MS);
  // A route preHandler runs after the app's (session and CSRF checks), so the key is the person
  // once they are known, and only requests that could act are counted.
  const withinBudget = async (request: FastifyRequest, reply: FastifyReply) => {
    const { allowed, retryAfterSeconds } = await budget.hit(
      request.viewer ? `user:${request.viewer.userId}` : `address:${request.ip}`,
    );
    if (allowed) return;
    return reply
      .status(429)
      .header("retry-after", String(retryAfterSeconds))
      .header("cache-control", "no-store")
      .send({
        statusCode: 429,
        message: `Too many requests. Please wait ${retryAfterSeconds} ${retryAfterSeconds === 1 ? "second" : "seconds"} and try again.`,
      });
  };

  const handle =
    (target: (request: FastifyRequest) => LikeTarget, liked: boolean) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        const { oid, ...result } = await likes.setLiked(request.viewer, target(request), liked);
        context.changes.publish([viewerFactsTag(oid)]);
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
    const viewLinkId = query.auth_key ?? "";
    return { viewLinkId, keyType: query.key_type ?? "", grant: request.cookies[linkGrantCookie(viewLinkId)] };
  };

  // A like moves a count, which anonymous pages may show late (issue 11): no change-feed barrier
  // (a round trip that halved likes per second). It is also the person's own state, which view
  // pages keep (issue 32 item 5): the route tells this process at once (handle, above), and the
  // trigger's NOTIFY tells the others.
  const options = { preHandler: withinBudget, config: { countsOnly: true } };
  app.put("/api/v4/presentation/like/", options, handle(byLink, true));
  app.delete("/api/v4/presentation/like/", options, handle(byLink, false));
  app.put("/api/v4/presentation/:oid/like/", options, handle(byOid, true));
  app.delete("/api/v4/presentation/:oid/like/", options, handle(byOid, false));
}
