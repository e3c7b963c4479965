import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { isOid } from "../../lib/ids";
import type { FeatureContext } from "../http";
import { insertClientLog } from "./client-log-repository";
import { type EventIntake, USAGE_EVENT_MAX_BYTES, USAGE_EVENT_PATHS } from "./intake";
import { CLIENT_LOG_PATH, VISITOR_ID_PATH } from "./usage-event";
import { isOwnerOrCollaborator } from "./viewer-repository";
import { createVisitorIds, SESSION_ID_MAX_LENGTH } from "./visitor-id";

export { USAGE_EVENT_MAX_BYTES } from "./intake";

/** Largest client-log request (spec §7: a JSON array holding one record). */
export const CLIENT_LOG_MAX_BYTES = 8 * 1024;
/** Client-log records per minute per address: enough for a page in trouble, not for a flood. */
export const CLIENT_LOG_RATE_PER_MINUTE = 30;

const clientLogSchema = z.tuple([
  z
    .object({
      msg: z.string().max(2000),
      levelname: z.enum(["INFO", "WARN", "ERROR"]),
      levelno: z.number().int().min(0).max(100),
      session_id: z.string().min(1).max(100),
      presentation_id: z.string().max(20).optional(),
    })
    .loose(),
]);

/**
 * Usage events (spec §3, §7): accepted fast, validated, bounded, stored. They record what
 * happened on a page and change nothing for anyone, so they carry no CSRF token (a beacon
 * can't); the rate limit bounds abuse.
 */
export function registerEventRoutes(app: FastifyInstance, context: FeatureContext, intake: EventIntake): void {
  // Spec §7 client log: like usage events, a record of what happened, so no CSRF token.
  app.post(
    CLIENT_LOG_PATH,
    {
      bodyLimit: CLIENT_LOG_MAX_BYTES,
      config: {
        csrfExempt: true,
        countsOnly: true,
        rateLimit: { max: CLIENT_LOG_RATE_PER_MINUTE, timeWindow: "1 minute" },
      },
    },
    async (request, reply) => {
      const parsed = clientLogSchema.safeParse(request.body);
      if (!parsed.success) {
        return reply
          .status(400)
          .send({ statusCode: 400, message: "A client log must be a JSON array holding one record." });
      }
      const [record] = parsed.data;
      await insertClientLog(context.db, {
        levelname: record.levelname,
        msg: record.msg,
        sessionId: record.session_id,
        presentationOid: record.presentation_id && isOid(record.presentation_id) ? record.presentation_id : null,
        record,
      });
      return reply.status(204).send();
    },
  );

  // Issue 28 item 4: a view page's visitor id, signed when the page loads (visitor-id.ts). Never
  // stored by a cache (private, no-store), never for the owner or a collaborator: their own views
  // don't count. A script can fetch as many as it likes; the per-address cap (store-batch.ts) bounds
  // what they add.
  const visitorIds = createVisitorIds(context.secret);
  app.get<{ Params: { oid: string }; Querystring: { session_id?: string } }>(
    VISITOR_ID_PATH,
    async (request, reply) => {
      const { oid } = request.params;
      const sessionId = request.query.session_id;
      reply.header("cache-control", "private, no-store");
      if (
        !isOid(oid) ||
        typeof sessionId !== "string" ||
        sessionId === "" ||
        sessionId.length > SESSION_ID_MAX_LENGTH
      ) {
        return reply.status(400).send({
          statusCode: 400,
          message: "A visitor id needs a presentation id and a session_id of 1 to 100 characters.",
        });
      }
      const own = request.viewer !== null && (await isOwnerOrCollaborator(context.db, oid, request.viewer.userId));
      return reply.send({ visitorId: own ? null : visitorIds.issue(oid, sessionId, Date.now()) });
    },
  );

  // Issue 14 item 1: a beacon is answered by the intake before Fastify (intake.ts serveRaw); these
  // routes answer what reaches Fastify all the same: app.inject(), and bodies that aren't JSON (415).
  for (const path of USAGE_EVENT_PATHS) {
    app.post(
      path,
      {
        bodyLimit: USAGE_EVENT_MAX_BYTES,
        compress: false,
        config: { csrfExempt: true, countsOnly: true, securityHeaders: false },
      },
      async (request, reply) => {
        const answer = await intake.answer(request.body, { address: request.ip, cookie: request.headers.cookie });
        return reply
          .status(answer.status)
          .headers(answer.headers)
          .send(answer.body ?? undefined);
      },
    );
  }
}
