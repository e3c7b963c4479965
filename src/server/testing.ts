import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import type { Database } from "../db/client";
import type { TestDatabaseTarget } from "../db/testing";
import { buildApp } from "./app";
import { type Config, DEFAULT_FEATURES } from "./config";
import { DOCUMENT_WORK_TIMEOUT_MS } from "./workers/documents";
import { PDF_CHILD_MEMORY_MB } from "./workers/pdf-pool";
import { TEST_WORKER_DIR } from "./workers/test-build";

/** Test support: an app on a fresh test database, and an agent that keeps cookies like a browser. */

export const TEST_CONFIG: Config = {
  port: 0,
  host: "127.0.0.1",
  databaseUrl: null,
  dataDir: "memory://",
  env: "production",
  publicUrl: "https://podium.example",
  clientDir: null,
  // Built by the Vitest global setup (workers/test-build.ts).
  workerDir: TEST_WORKER_DIR,
  documentWorkTimeoutMs: DOCUMENT_WORK_TIMEOUT_MS,
  pdfMemoryLimitMb: PDF_CHILD_MEMORY_MB,
  features: DEFAULT_FEATURES,
  rateLimitPerMinute: 100_000,
  logger: false,
  seedDemo: false,
  secret: "test-secret-test-secret-test-secret-0123",
  likeRateLimitPerMinute: 100_000,
  accountLimits: { loginPerAddress: 100_000, loginFailuresPerAccount: 8, signupsPerAddress: 100_000 },
  nativeApp: null,
  nativeApps: [],
  cookieConsentRequired: true,
  // Off unless a test is about the page cache: most tests write straight to the database and read back at once.
  pageCacheMaxBytes: 0,
  eventRetentionDays: 90,
  clientLogRetentionDays: 30,
  workers: 1,
  trustProxy: false,
  redisUrl: null,
  redisPrefix: "podium:",
  drainMs: 0,
  events: { natsUrl: null, stream: "PODIUM_EVENTS", streamMaxBytes: 64 * 1024 * 1024, queueLimit: 100_000 },
};

export async function createTestApp(
  target: TestDatabaseTarget,
  config: Partial<Config> = {},
): Promise<{ app: FastifyInstance; db: Database; url?: string; close(): Promise<void> }> {
  const { db, drop, url } = await target.create();
  const app = await buildApp({ ...TEST_CONFIG, ...config }, db);
  return {
    app,
    db,
    /** On PostgreSQL, where another process (or a second app here) may open the same database. */
    url,
    async close() {
      await app.close();
      await drop();
    },
  };
}

/** Keeps cookies between requests and sends the CSRF token the way Podium's pages do. */
export class TestAgent {
  readonly cookies = new Map<string, string>();
  constructor(private readonly app: FastifyInstance) {}

  async request(options: InjectOptions): Promise<LightMyRequestResponse> {
    const cookieHeader = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const response = await this.app.inject({
      ...options,
      headers: { ...(cookieHeader ? { cookie: cookieHeader } : {}), ...options.headers },
    });
    for (const cookie of response.cookies) {
      const expired = cookie.expires !== undefined && cookie.expires.getTime() <= Date.now();
      if (cookie.value === "" || expired || cookie.maxAge === 0) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return response;
  }

  get(url: string, headers: Record<string, string> = {}) {
    return this.request({ method: "GET", url, headers });
  }

  /** Posts a form with the CSRF token the page embeds (boot data csrfToken). */
  async postForm(
    url: string,
    fields: Record<string, string>,
    options: { csrf?: string | null; headers?: Record<string, string> } = {},
  ) {
    const token = options.csrf === undefined ? this.cookies.get("XSRF-TOKEN") : options.csrf;
    const body = new URLSearchParams({ ...fields, ...(token ? { _csrf: token } : {}) }).toString();
    return this.request({
      method: "POST",
      url,
      payload: body,
      headers: { "content-type": "application/x-www-form-urlencoded", ...options.headers },
    });
  }

  /** A JSON API call with no body, carrying the XSRF-TOKEN cookie in the X-XSRF-TOKEN header. */
  api(method: "PUT" | "DELETE" | "POST", url: string, headers: Record<string, string> = {}) {
    const token = this.cookies.get("XSRF-TOKEN");
    return this.request({
      method,
      url,
      headers: { "content-type": "application/json", ...(token ? { "x-xsrf-token": token } : {}), ...headers },
    });
  }

  /** Signs up through the real form; leaves the agent signed in. */
  async signUp(email: string, password = "correct horse battery", names = { firstName: "Test", lastName: "Person" }) {
    await this.get("/signup/");
    const response = await this.postForm("/signup/", { ...names, publicDisplayName: "", email, password });
    if (response.statusCode !== 303)
      throw new Error(`signup failed: ${response.statusCode} ${response.body.slice(0, 200)}`);
    return response;
  }
}
