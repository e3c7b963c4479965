import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { isOid } from "../../lib/ids";
import type { FeatureContext } from "../http";
import { acceptUsageEvent } from "./accepted-event";
import { insertClientLog } from "./client-log-repository";
import { EVENT_RETRY_AFTER_SECONDS, type EventPipeline } from "./pipeline/types";
import { createSenderKeyer } from "./sender-keys";
import { CLIENT_LOG_PATH } from "./usage-event";

/** Largest usage-event request (one event; spec §7: a JSON array holding one). */
export const USAGE_EVENT_MAX_BYTES = 8 * 1024;

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
export function registerEventRoutes(app: FastifyInstance, context: FeatureContext, events: EventPipeline): void {
  const senderKeys = createSenderKeyer(context.secret);
  // Issue 14 item 1: validated and handed to the pipeline; 204 once it is queued (or acknowledged by JetStream).
  const accept = async (request: FastifyRequest, body: unknown): Promise<204 | 400 | 503> => {
    const event = acceptUsageEvent(request, body, senderKeys);
    if (event === null) return 400;
    return (await events.accept(event)) === "queued" ? 204 : 503;
  };
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

  for (const path of ["/log/json", "/fallback/json"]) {
    app.post(
      path,
      {
        bodyLimit: USAGE_EVENT_MAX_BYTES,
        // Issue 14 item 1: a beacon's 204 has no body to compress or protect; each global hook costs at 20,000/s.
        helmet: false,
        compress: false,
        config: { csrfExempt: true, countsOnly: true },
      },
      async (request, reply) => {
        const status = await accept(request, request.body);
        if (status === 400)
          return reply
            .status(400)
            .send({ statusCode: 400, message: "A usage event must be a JSON array holding one event." });
        if (status === 503)
          return reply
            .status(503)
            .header("retry-after", String(EVENT_RETRY_AFTER_SECONDS))
            .send({
              statusCode: 503,
              message: `Podium is recording too many events right now; please send this one again in ${EVENT_RETRY_AFTER_SECONDS} second.`,
            });
        return reply.status(204).send();
      },
    );
  }
}
