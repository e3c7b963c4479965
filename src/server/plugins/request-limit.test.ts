import type { FastifyInstance } from "fastify";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "../../db/client";
import { testDatabaseTargets } from "../../db/testing";
import { messagesFor } from "../../i18n/catalogues";
import { createTestApp } from "../testing";

/** Every page render, counted (issue 27 item 3: a refused request renders nothing). */
const renders = vi.hoisted(() => ({ count: 0 }));
vi.mock("../render/page", async (importOriginal) => {
  const original = await importOriginal<typeof import("../render/page")>();
  return {
    ...original,
    renderPage: (...args: Parameters<typeof original.renderPage>) => {
      renders.count += 1;
      return original.renderPage(...args);
    },
  };
});

const LIMIT = 50;
const FLOOD = 1_000;
/** A well-formed session cookie: a request that gets past the limit looks it up in the database. */
const SESSION = `podium_session=${"s".repeat(43)}`;
/** The refusal is a few hundred bytes built once, never a rendered page (tens of KiB). */
const SMALL_BYTES = 1_024;

describe.each(testDatabaseTargets())("issue 27 item 3: every request counted, refusals cheap, on $name", (target) => {
  let app: FastifyInstance;
  let db: Database;
  let close: () => Promise<void>;
  /** The session lookups and change-feed round trips the app has asked the database for. */
  let requestQueries = 0;
  beforeAll(async () => {
    ({ app, db, close } = await createTestApp(target, { rateLimitPerMinute: LIMIT }));
    const query = db.query.bind(db);
    vi.spyOn(db, "query").mockImplementation((sql, params) => {
      if (/\bfrom sessions\b|pg_notify/.test(sql)) requestQueries += 1;
      return query(sql, params);
    });
  });
  afterAll(() => close());
  afterEach(() => vi.useRealTimers());

  it("issue 27 done-when: 1,000 requests to unknown paths from one address are answered 429 past the limit, small, in words, with Retry-After, and a refused one costs no query and no render", async () => {
    const statuses: number[] = [];
    let queriesAtLimit = 0;
    let rendersAtLimit = 0;
    let refusal: Awaited<ReturnType<typeof app.inject>> | null = null;
    // The render counter is the file's, shared by both engines' runs: count from here.
    const rendersBefore = renders.count;
    const queriesBefore = requestQueries;
    for (let i = 0; i < FLOOD; i += 1) {
      const response = await app.inject({
        method: i % 10 === 9 ? "POST" : "GET",
        url: `/nonexistent-${i}`,
        remoteAddress: "203.0.113.50",
        headers: { cookie: SESSION, "accept-language": "de" },
      });
      statuses.push(response.statusCode);
      if (i === LIMIT - 1) {
        queriesAtLimit = requestQueries - queriesBefore;
        rendersAtLimit = renders.count - rendersBefore;
      }
      refusal ??= response.statusCode === 429 ? response : null;
    }
    // Within the limit: not found (a POST without a CSRF token: refused, 403).
    expect(statuses.slice(0, LIMIT).filter((status, i) => status !== (i % 10 === 9 ? 403 : 404))).toEqual([]);
    expect(statuses.slice(LIMIT)).toEqual(new Array(FLOOD - LIMIT).fill(429));
    // The requests within the limit were looked up, and answered with an error page (rendered once
    // per status and language: app.ts anonymousErrorPage); none of the 950 refused ones was either.
    expect(queriesAtLimit).toBeGreaterThanOrEqual(LIMIT);
    expect(rendersAtLimit).toBeGreaterThanOrEqual(1);
    expect(rendersAtLimit).toBeLessThanOrEqual(2);
    expect(requestQueries - queriesBefore).toBe(queriesAtLimit);
    expect(renders.count - rendersBefore).toBe(rendersAtLimit);

    if (!refusal) throw new Error("no refusal");
    const retryAfter = Number(refusal.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refusal.headers["x-ratelimit-remaining"]).toBe("0");
    expect(refusal.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(refusal.rawPayload.length).toBeLessThan(SMALL_BYTES);
    // In words, in the visitor's language.
    const german = messagesFor("de");
    expect(refusal.body).toContain(german["error.tooManyRequests.title"]);
    expect(refusal.body).toContain(german["error.tooManyRequests.body"]);
    expect(refusal.body).toContain('<html lang="de">');

    // Another address is not affected.
    const other = await app.inject({ method: "GET", url: "/explore/", remoteAddress: "203.0.113.51" });
    expect(other.statusCode).toBe(200);
    expect(other.headers["x-ratelimit-remaining"]).toBe(String(LIMIT - 1));
  });

  it("issue 27 item 3: API calls and JSON requests are refused in JSON, in words", async () => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof app.inject>> | null = null;
    for (let i = 0; i <= LIMIT; i += 1) {
      last = await app.inject({
        method: "GET",
        url: `/api/nothing-${i}`,
        remoteAddress: "203.0.113.52",
        headers: { cookie: "language=fr" },
      });
      statuses.push(last.statusCode);
    }
    expect(statuses.at(-1)).toBe(429);
    expect(last?.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(last?.json()).toEqual({
      statusCode: 429,
      error: "Too Many Requests",
      message: messagesFor("fr")["error.tooManyRequests.body"],
    });
  });

  it("issue 27 item 3: a 404, an error, a static miss and a malformed URL are each counted, with the limit's headers", async () => {
    const from = "203.0.113.53";
    const answers = [
      await app.inject({ method: "GET", url: "/no-such-page", remoteAddress: from }),
      await app.inject({ method: "GET", url: "/static/missing-1234.js", remoteAddress: from }),
      await app.inject({
        method: "POST",
        url: "/api/presentations/x/like",
        remoteAddress: from,
        headers: { "content-type": "application/json" },
        payload: "{not json",
      }),
      await app.inject({ method: "GET", url: "/p/%E0%A4%A/", remoteAddress: from }),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([404, 404, 400, 400]);
    expect(answers.slice(0, 3).map((answer) => answer.headers["x-ratelimit-remaining"])).toEqual(
      [1, 2, 3].map((used) => String(LIMIT - used)),
    );
    for (let i = answers.length; i < LIMIT; i += 1) {
      await app.inject({ method: "GET", url: "/%", remoteAddress: from });
    }
    const refused = await app.inject({ method: "GET", url: "/%zz", remoteAddress: from });
    expect(refused.statusCode).toBe(429);
    expect(refused.rawPayload.length).toBeLessThan(SMALL_BYTES);
  });

  it("issue 27 item 3: an IPv6 visitor is counted by their /64, as @fastify/rate-limit did", async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i += 1) {
      const response = await app.inject({
        method: "GET",
        url: "/nowhere",
        remoteAddress: `2001:db8:27:3::${(i + 1).toString(16)}`,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.at(-1)).toBe(429);
  });

  it("issue 27 item 3: the health checks are never limited", async () => {
    const from = "203.0.113.54";
    for (let i = 0; i <= LIMIT; i += 1) await app.inject({ method: "GET", url: "/nowhere", remoteAddress: from });
    expect((await app.inject({ method: "GET", url: "/nowhere", remoteAddress: from })).statusCode).toBe(429);
    expect((await app.inject({ method: "GET", url: "/healthz", remoteAddress: from })).statusCode).toBe(200);
  });
});

describe.each(testDatabaseTargets())("issue 27 item 3: the refusal before Fastify, on $name", (target) => {
  const SMALL_LIMIT = 5;
  let made: Awaited<ReturnType<typeof createTestApp>>;
  let base: string;
  beforeAll(async () => {
    made = await createTestApp(target, { rateLimitPerMinute: SMALL_LIMIT, pageCacheMaxBytes: 4 * 1024 * 1024 });
    base = await made.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(() => made.close());

  it("refuses an address past the limit from Node's HTTP server, serves its cached pages, and still answers the health check", async () => {
    // A cached page first (the miss is counted: 1 of 5).
    expect((await fetch(`${base}/explore/`)).headers.get("podium-cache")).toBe("miss");
    const statuses: number[] = [];
    for (let i = 0; i < SMALL_LIMIT + 3; i += 1) statuses.push((await fetch(`${base}/gone-${i}`)).status);
    expect(statuses).toEqual([404, 404, 404, 404, 429, 429, 429, 429]);
    const refused = await fetch(`${base}/gone-again`, { headers: { "accept-language": "ja" } });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await refused.text()).toContain(messagesFor("ja")["error.tooManyRequests.body"]);
    // A body sent anyway isn't read: the connection closes after the answer.
    const posted = await fetch(`${base}/gone-post`, { method: "POST", body: "x".repeat(10_000) });
    expect(posted.status).toBe(429);
    expect(posted.headers.get("connection")).toBe("close");
    // A page-cache hit is neither counted nor refused: it costs what a refusal does.
    const hit = await fetch(`${base}/explore/`);
    expect(hit.status).toBe(200);
    expect(hit.headers.get("podium-cache")).toBe("hit");
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });
});
