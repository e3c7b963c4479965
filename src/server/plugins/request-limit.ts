import type { IncomingMessage, ServerResponse } from "node:http";
import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Redis } from "ioredis";
import { messagesFor } from "../../i18n/catalogues";
import { LANGUAGE_COOKIE, LOCALES, type Locale, requestLocale } from "../../i18n/locales";
import { addressKey } from "../../lib/address";
import { escapeHtml } from "../../lib/html";

/** The request limit's window: `max` requests per address in each minute. */
const WINDOW_MS = 60_000;
/**
 * Addresses known to be past the limit, remembered until their window ends, at most this many
 * (about 100 bytes each). A fixed window stays refused until it ends, so a remembered address is
 * refused without asking the count (Redis included) again. Past the bound the oldest go first: they
 * are asked about again, and counted as before.
 */
const MAX_REMEMBERED_REFUSALS = 100_000;
const LANGUAGE_IN_COOKIE = new RegExp(`(?:^|;)\\s*${LANGUAGE_COOKIE}=([^;]*)`);

export interface RequestLimit {
  /**
   * Answers a request from an address already known to be past the limit straight from Node's
   * HTTP server, before Fastify builds a request (true when it did).
   */
  refuseRaw(request: IncomingMessage, response: ServerResponse): boolean;
  /**
   * Counts a request that skipped Fastify's hooks (a malformed URL, answered by frameworkErrors)
   * and answers it when past the limit (true when it did).
   */
  refused(request: FastifyRequest, reply: FastifyReply): Promise<boolean>;
}

interface Refusal {
  html: Buffer;
  json: Buffer;
}

/**
 * Issue 27 item 3: every request from an address is counted, and the answer past the limit is
 * cheap. One onRequest hook, ahead of the session lookup and every route, counts each request
 * that reaches Fastify (pages, 404s, static misses, errors; the health checks excepted) with
 * @fastify/rate-limit's counter (in Redis with REDIS_URL, shared by every process). Past the limit
 * the answer is a few hundred bytes built once per language, never a rendered page, with
 * Retry-After; the address is remembered until its window ends, and its requests are then refused
 * by Node's HTTP server before Fastify (refuseRaw). Page-cache hits are neither counted nor refused
 * (ARCHITECTURE.md "The request limit").
 */
export async function registerRequestLimit(
  app: FastifyInstance,
  options: {
    max: number;
    redis: Redis | null;
    /** Requests let through uncounted (Podium refreshing a stale cached page). */
    allowList: (request: FastifyRequest) => boolean;
    /** The visitor's address on a raw request, as request.ip says (app.ts trustProxy). */
    addressOf: (request: IncomingMessage) => string;
  },
): Promise<RequestLimit> {
  await app.register(rateLimit, {
    // The one global count is the hook below; routes with a limit of their own (the client log)
    // still get @fastify/rate-limit's per-route hook.
    global: false,
    max: options.max,
    timeWindow: WINDOW_MS,
    // Issue 16 item 1: one count for all processes in Redis. While Redis is away the request limit
    // is not enforced (fail open; the Redis connection logs a warning): pages keep being served.
    ...(options.redis ? { redis: options.redis, nameSpace: "requests:", skipOnError: true } : {}),
    keyGenerator: (request) => addressKey(request.ip),
    allowList: (request) => options.allowList(request),
    // A route's own limit answers in words too (JSON: the client log is its one user).
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      error: "Too Many Requests",
      message: `Too many requests. Please wait ${Math.ceil(context.ttl / 1000)} seconds and try again.`,
    }),
  });
  const count = app.createRateLimit();
  const refusals = new Map<Locale, Refusal>(LOCALES.map((locale) => [locale, refusalIn(locale)]));
  const refusedUntil = new Map<string, number>();
  // Routes that are never limited (health checks: a load balancer polls them from one address).
  const exempt = new Set<string>();
  app.addHook("onRoute", (route) => {
    if (route.config?.rateLimit === false) exempt.add(route.url);
  });

  const remembered = (key: string, now: number): number | null => {
    const until = refusedUntil.get(key);
    if (until === undefined) return null;
    if (until > now) return until;
    refusedUntil.delete(key);
    return null;
  };
  const remember = (key: string, until: number) => {
    refusedUntil.delete(key);
    refusedUntil.set(key, until);
    if (refusedUntil.size <= MAX_REMEMBERED_REFUSALS) return;
    const oldest = refusedUntil.keys().next();
    if (!oldest.done) refusedUntil.delete(oldest.value);
  };
  const refusalFor = (headers: IncomingMessage["headers"], url: string | undefined) => {
    const refusal = refusals.get(localeOf(headers)) ?? refusalIn("en");
    const json = wantsJson(headers, url);
    return {
      body: json ? refusal.json : refusal.html,
      type: json ? "application/json; charset=utf-8" : "text/html; charset=utf-8",
    };
  };
  const headersOf = (max: number, waitSeconds: number) => ({
    "retry-after": String(waitSeconds),
    "x-ratelimit-limit": String(max),
    "x-ratelimit-remaining": "0",
    "x-ratelimit-reset": String(waitSeconds),
    "cache-control": "no-store",
    "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
  });
  const refuse = (request: FastifyRequest, reply: FastifyReply, until: number): FastifyReply => {
    const { body, type } = refusalFor(request.headers, request.url);
    return reply
      .code(429)
      .headers(headersOf(options.max, secondsUntil(until)))
      .type(type)
      .send(body);
  };

  /** Counts the request; answers it and returns true when the address is past the limit. */
  const check = async (request: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
    const key = addressKey(request.ip);
    const known = remembered(key, Date.now());
    if (known !== null) {
      if (options.allowList(request)) return false;
      refuse(request, reply, known);
      return true;
    }
    const verdict = await count(request);
    if (verdict.isAllowed) return false;
    if (!verdict.isExceeded) {
      reply.header("x-ratelimit-limit", verdict.max);
      reply.header("x-ratelimit-remaining", verdict.remaining);
      reply.header("x-ratelimit-reset", verdict.ttlInSeconds);
      return false;
    }
    const until = Date.now() + verdict.ttl;
    remember(key, until);
    refuse(request, reply, until);
    return true;
  };

  app.addHook("onRequest", async (request, reply) => {
    if (request.routeOptions.config?.rateLimit === false) return;
    if (await check(request, reply)) return reply;
  });

  return {
    refuseRaw(request, response) {
      if (refusedUntil.size === 0) return false;
      const until = remembered(addressKey(options.addressOf(request)), Date.now());
      if (until === null || exempt.has((request.url ?? "/").split("?")[0] ?? "/")) return false;
      const { body, type } = refusalFor(request.headers, request.url);
      // A body isn't read: the connection closes after the answer (as the event intake does).
      const sending = Number(request.headers["content-length"] ?? 0) > 0 || "transfer-encoding" in request.headers;
      response.writeHead(429, {
        ...headersOf(options.max, secondsUntil(until)),
        "content-type": type,
        "content-length": body.length,
        ...(sending ? { connection: "close" } : {}),
      });
      response.end(request.method === "HEAD" ? undefined : body);
      if (sending) request.resume();
      return true;
    },
    refused: check,
  };
}

/** The answer past the limit in one language: a tiny page and its JSON twin, in words. */
function refusalIn(locale: Locale): Refusal {
  const messages = messagesFor(locale);
  const title = messages["error.tooManyRequests.title"];
  const body = messages["error.tooManyRequests.body"];
  const html =
    `<!doctype html><html lang="${locale}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">` +
    `<title>429 · ${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(body)}</p>` +
    `<p><a href="/">${escapeHtml(messages["error.goHome"])}</a></p></body></html>`;
  return {
    html: Buffer.from(html),
    json: Buffer.from(JSON.stringify({ statusCode: 429, error: "Too Many Requests", message: body })),
  };
}

function secondsUntil(until: number): number {
  return Math.max(1, Math.ceil((until - Date.now()) / 1000));
}

/** The page's language rule without a session (the language cookie, else Accept-Language). */
function localeOf(headers: IncomingMessage["headers"]): Locale {
  const cookie = headers.cookie ? LANGUAGE_IN_COOKIE.exec(headers.cookie)?.[1] : undefined;
  return requestLocale({ cookie: cookie?.trim(), acceptLanguage: headers["accept-language"] });
}

/** As app.ts answers errors: JSON to API calls, JSON bodies and requests that ask for JSON only. */
function wantsJson(headers: IncomingMessage["headers"], url: string | undefined): boolean {
  if (url?.startsWith("/api/")) return true;
  if (/^application\/json\b/i.test(headers["content-type"] ?? "")) return true;
  const accept = headers.accept ?? "";
  return accept.includes("application/json") && !accept.includes("text/html");
}
