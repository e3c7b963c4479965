import { createServer, type Server, type Socket, connect as tcpConnect } from "node:net";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../db/client";
import { testDatabaseTargets } from "../db/testing";
import { buildApp } from "./app";
import { createSeededDatabase, TEST_CONFIG } from "./testing";

/**
 * A TCP proxy in front of PostgreSQL that can stall (hold every byte, as a paused VM or a
 * black-holed network does) and go down (refuse connections), so the test meets the faults a
 * real deployment meets.
 */
class FaultyProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private stalled = false;
  private readonly held: (() => void)[] = [];
  port = 0;

  constructor(
    private readonly host: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = tcpConnect(this.targetPort, this.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on("close", () => this.sockets.delete(socket));
        socket.on("error", () => socket.destroy());
      }
      const forward = (from: Socket, to: Socket) =>
        from.on("data", (chunk) => {
          const send = () => to.writable && to.write(chunk);
          if (this.stalled) this.held.push(send);
          else send();
        });
      forward(client, upstream);
      forward(upstream, client);
      client.on("close", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    const address = this.server.address();
    this.port = typeof address === "object" && address ? address.port : 0;
  }

  stall(): void {
    this.stalled = true;
  }

  resume(): void {
    this.stalled = false;
    for (const send of this.held.splice(0)) send();
  }

  /** Refuses new connections and cuts the open ones: the database is down. */
  async down(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

const postgres = testDatabaseTargets().find((target) => target.name === "postgres");
/** The statements' time limit in these tests: what bounds every answer while the database stalls. */
const QUERY_TIMEOUT_MS = 1_000;
/**
 * Issue 29: an answer is bounded by that limit, not by TCP's minutes. Proved with room for a busy
 * machine (a quiet one answers in about the limit: 1 s); far below the two minutes and more a
 * stalled connection takes to fail without it.
 */
const ANSWERED_WITHIN_MS = 15 * QUERY_TIMEOUT_MS;

describe.runIf(postgres)("hardening 3: a stalled or stopped PostgreSQL never hangs requests", () => {
  let drop: () => Promise<void>;
  let proxy: FaultyProxy;
  let db: Database;
  let app: FastifyInstance;

  beforeAll(async () => {
    const created = await createSeededDatabase(postgres as NonNullable<typeof postgres>);
    drop = created.drop;
    const [{ name } = { name: "" }] = await created.db.query<{ name: string }>("select current_database() as name");
    const adminUrl = new URL(process.env.TEST_DATABASE_URL as string);
    proxy = new FaultyProxy(adminUrl.hostname, Number(adminUrl.port || 5432));
    await proxy.start();
    const throughProxy = new URL(adminUrl);
    throughProxy.hostname = "127.0.0.1";
    throughProxy.port = String(proxy.port);
    throughProxy.pathname = `/${name}`;
    db = await openDatabase({ url: throughProxy.toString(), queryTimeoutMs: QUERY_TIMEOUT_MS });
    app = await buildApp(TEST_CONFIG, db);
  });
  afterAll(async () => {
    proxy.resume();
    await proxy.down();
    await app.close();
    await drop();
  });

  const timed = async (url: string) => {
    const started = performance.now();
    const response = await app.inject({ method: "GET", url, headers: { accept: "text/html" } });
    return { response, ms: performance.now() - started };
  };

  it("answers 503 on /readyz once the statement time limit passes (issue 16: /healthz, liveness, stays 200) and 503 pages (not 500) while the connection stalls, and recovers", async () => {
    expect((await timed("/readyz")).response.statusCode).toBe(200);
    expect((await timed("/")).response.statusCode).toBe(200);

    proxy.stall();
    const ready = await timed("/readyz");
    expect(ready.response.statusCode).toBe(503);
    expect(ready.response.json()).toMatchObject({ status: "unavailable", database: "unreachable" });
    expect(ready.ms).toBeLessThan(ANSWERED_WITHIN_MS);
    // The process answers: not a reason to restart it (it recovers by itself).
    const health = await timed("/healthz");
    expect(health.response.statusCode).toBe(200);
    expect(health.response.json()).toEqual({ status: "ok", database: "unreachable" });
    expect(health.ms).toBeLessThan(ANSWERED_WITHIN_MS);
    const page = await timed("/explore/");
    expect(page.response.statusCode).toBe(503);
    expect(page.response.headers["retry-after"]).toBeDefined();
    expect(page.response.body).toContain("Podium is briefly unavailable");
    // Bounded by the query timeout, not by TCP's minutes.
    expect(page.ms).toBeLessThan(ANSWERED_WITHIN_MS);

    proxy.resume();
    await expect.poll(async () => (await timed("/readyz")).response.statusCode, { timeout: 30_000 }).toBe(200);
    expect((await timed("/explore/")).response.statusCode).toBe(200);
  }, 120_000);

  it("answers 503 pages with the error page while the database is down", async () => {
    await proxy.down();
    const ready = await timed("/readyz");
    expect(ready.response.statusCode).toBe(503);
    expect(ready.ms).toBeLessThan(ANSWERED_WITHIN_MS);
    expect((await timed("/healthz")).response.statusCode).toBe(200);
    for (const url of ["/", "/explore/", "/login/"]) {
      const { response } = await timed(url);
      if (url === "/login/") {
        // A page that needs no data still works.
        expect(response.statusCode, url).toBe(200);
        continue;
      }
      expect(response.statusCode, url).toBe(503);
      expect(response.headers["content-type"]).toContain("text/html");
      expect(response.body).toContain("Podium is briefly unavailable");
    }
    const api = await app.inject({ method: "GET", url: "/p/abcdefghijkl/document.json" });
    expect(api.statusCode).toBe(503);
  }, 60_000);
});
