import type { FastifyInstance } from "fastify";
import type { Database } from "../../db/client";
import { listMigrations } from "../../db/migrate";
import type { SharedRedis } from "./redis";

/**
 * Liveness and readiness (issue 16 item 6), for a load balancer or an orchestrator:
 *
 * - `GET /healthz` (liveness): the process answers. 200 whenever it can answer at all; the body
 *   also says whether the database answers, for people reading it, but a database outage is not a
 *   reason to restart the process (it recovers by itself), so the status stays 200.
 * - `GET /readyz` (readiness): send this process traffic. 200 once the database answers and holds
 *   every migration this build knows, 503 otherwise (Redis, when REDIS_URL is set, is reported
 *   but not required: while it is away each process counts its limits itself; so is the
 *   usage-event pipeline: NATS away, or the in-process queue full, only refuses events),
 *   and 503 from SIGTERM on while the process drains (PODIUM_DRAIN_SECONDS), then stops.
 */

export interface ReadinessCheck {
  name: string;
  /**
   * False for an engine whose outage Podium rides out (Redis: limits count in each process until
   * it returns): reported in the body, but never a reason to take every process out of rotation.
   */
  required: boolean;
  /** "ok", or what is wrong in a word ("unreachable", "not-migrated"). */
  check(): Promise<string>;
}

export function registerHealthRoutes(
  app: FastifyInstance,
  { db, redis }: { db: Database; redis: SharedRedis | null },
): { startDraining(): void; addCheck(check: ReadinessCheck): void } {
  let draining = false;
  const latestMigration = listMigrations().at(-1)?.name ?? null;
  let migrated = latestMigration === null;
  const checks: ReadinessCheck[] = [
    {
      name: "database",
      required: true,
      async check() {
        if (!(await db.ping())) return "unreachable";
        if (!migrated && latestMigration) {
          const rows = await db.query("select 1 from schema_migrations where name = $1", [latestMigration]);
          // Once migrated, always: migrations are never taken back.
          migrated = rows.length > 0;
        }
        return migrated ? "ok" : "not-migrated";
      },
    },
  ];
  if (redis)
    checks.push({ name: "redis", required: false, check: async () => (redis.connected() ? "ok" : "unreachable") });

  // A load balancer polls these from one address every few seconds: never rate-limited.
  const options = { config: { rateLimit: false as const } };
  app.get("/healthz", options, async (_request, reply) => {
    const database = (await db.ping()) ? "ok" : "unreachable";
    return reply.header("cache-control", "no-store").send({ status: "ok", database });
  });

  app.get("/readyz", options, async (_request, reply) => {
    const results: Record<string, string> = {};
    let ready = !draining;
    for (const { name, required, check } of checks) {
      results[name] = await check().catch(() => "unreachable");
      if (required && results[name] !== "ok") ready = false;
    }
    return reply
      .header("cache-control", "no-store")
      .status(ready ? 200 : 503)
      .send({ status: draining ? "draining" : ready ? "ready" : "unavailable", ...results });
  });

  return {
    startDraining() {
      draining = true;
    },
    /** A check of a part that starts after the routes (the usage-event pipeline). */
    addCheck(check) {
      checks.push(check);
    },
  };
}
