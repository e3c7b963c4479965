import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { isOid } from "../../lib/ids";
import type { FeatureContext } from "../http";
import { recordUsageEvent } from "./repository";
import { VIEWER_EVENTS } from "./usage-event";

/** Largest usage-event request (one event; spec §7: a JSON array holding one). */
export const USAGE_EVENT_MAX_BYTES = 8 * 1024;

const eventSchema = z.tuple([
  z
    .object({
      core: z.object({ type: z.string().max(50), event_type: z.string().max(100) }).loose(),
      user: z.object({ session_id: z.string().min(1).max(100) }).loose(),
      body: z.object({ event_name: z.string().min(1).max(100), oid: z.string().max(20).optional() }).loose(),
    })
    .loose(),
]);

/**
 * Usage events (spec §3, §7): accepted fast, validated, bounded, stored. They record what
 * happened on a page and change nothing for anyone, so they carry no CSRF token (a beacon
 * can't); the rate limit bounds abuse.
 */
export function registerEventRoutes(app: FastifyInstance, context: FeatureContext): void {
  const accept = async (body: unknown): Promise<number> => {
    const parsed = eventSchema.safeParse(body);
    if (!parsed.success) return 400;
    const [event] = parsed.data;
    const oid = event.body.oid && isOid(event.body.oid) ? event.body.oid : null;
    await recordUsageEvent(context.db, {
      sessionId: event.user.session_id,
      eventName: event.body.event_name,
      presentationOid: oid,
      payload: event,
      countsAsView: event.body.event_name === VIEWER_EVENTS.loadedPublicViewPage && oid !== null,
    });
    return 204;
  };
  for (const path of ["/log/json", "/fallback/json"]) {
    app.post(path, { bodyLimit: USAGE_EVENT_MAX_BYTES, config: { csrfExempt: true } }, async (request, reply) => {
      const status = await accept(request.body);
      if (status === 400)
        return reply
          .status(400)
          .send({ statusCode: 400, message: "A usage event must be a JSON array holding one event." });
      return reply.status(204).send();
    });
  }
}
