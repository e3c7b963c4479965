import { createServer, type Server, type Socket, connect as tcpConnect } from "node:net";
import type { FastifyInstance } from "fastify";
import { connect } from "nats";
import type { Database } from "../../db/client";
import { buildApp } from "../app";
import type { Config } from "../config";
import { TEST_CONFIG } from "./index";

/** Test support for the event pipeline (issue 14): events, apps, a cuttable proxy, NATS streams. */

export const NATS_TEST_URL = process.env.TEST_NATS_URL ?? "nats://127.0.0.1:4222";

/** A usage event as the browser sends it (spec §7: a JSON array holding one event); `tag` makes it unique. */
export function usageEvent(tag: string, eventName = "transcript_opened"): unknown[] {
  return [
    {
      core: { type: "Analytics", schema_id: 1, client_time: Date.now(), event_source: "Js", event_type: eventName },
      event_source: { single_page_session_id: "page-1" },
      platform: { type: "Web", id: null, referer: null, url: "https://podium.example/" },
      user: { session_id: tag },
      body: { event_name: eventName },
    },
  ];
}

export const postEvent = (app: FastifyInstance, tag: string) =>
  app.inject({ method: "POST", url: "/log/json", payload: usageEvent(tag) });

/**
 * An app on `db` whose close() stores what it accepted and leaves `db` open, so the test can
 * count what was stored after the app stopped (the app closes the database it is given).
 */
export async function appKeepingDatabase(db: Database, config: Partial<Config> = {}): Promise<FastifyInstance> {
  return buildApp({ ...TEST_CONFIG, ...config }, { ...db, close: async () => {} });
}

/** Stored usage events whose session id starts with `prefix`: { rows, distinct }. */
export async function storedEvents(db: Database, prefix: string): Promise<{ rows: number; distinct: number }> {
  const [row] = await db.query<{ rows: number; distinct: number }>(
    "select count(*)::int as rows, count(distinct session_id)::int as distinct from usage_event_log where session_id like $1",
    [`${prefix}%`],
  );
  return { rows: Number(row?.rows ?? 0), distinct: Number(row?.distinct ?? 0) };
}

/** Whether NATS with JetStream answers at NATS_TEST_URL. */
export async function natsAvailable(): Promise<boolean> {
  try {
    const nc = await connect({ servers: NATS_TEST_URL, timeout: 2_000, maxReconnectAttempts: 0 });
    try {
      await (await nc.jetstreamManager()).getAccountInfo();
      return true;
    } finally {
      await nc.close();
    }
  } catch {
    return false;
  }
}

/** Deletes a test's stream (and so its consumer). */
export async function deleteStream(stream: string): Promise<void> {
  const nc = await connect({ servers: NATS_TEST_URL });
  try {
    await (await nc.jetstreamManager()).streams.delete(stream).catch(() => false);
  } finally {
    await nc.close();
  }
}

/** A TCP proxy in front of PostgreSQL that can be cut (connections refused and dropped) and restored on the same port. */
export class CuttableProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(
    private readonly host: string,
    private readonly targetPort: number,
  ) {}

  async up(): Promise<void> {
    const server = createServer((client) => {
      const upstream = tcpConnect(this.targetPort, this.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on("close", () => this.sockets.delete(socket));
        socket.on("error", () => socket.destroy());
      }
      client.pipe(upstream);
      upstream.pipe(client);
      client.on("close", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(this.port, "127.0.0.1", resolve));
    const address = server.address();
    this.port = typeof address === "object" && address ? address.port : 0;
    this.server = server;
  }

  /** The database is down: new connections refused, open ones cut. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
