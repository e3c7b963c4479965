import { createHash, randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import { brotliCompress, gzip, constants as zlib } from "node:zlib";
import { fastifyCookie } from "@fastify/cookie";
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";
import { LISTS_TAG } from "../../features/content-changes";
import { isMobileUserAgent } from "../../features/http";
import { LANGUAGE_COOKIE, requestLocale } from "../../i18n/locales";
import { COOKIE_CONSENT_COOKIE } from "../../lib/usage-session";
import type { ChangeFeed } from "./change-feed";
import { type CachedPage, PageStore } from "./store";

/**
 * Issue 11 "Staleness": a cached page is served as is for 4 s, then while one refresh runs until
 * it is 9 s old (stale-while-revalidate); counts shown on a page (views, likes) lag by less than 10 s.
 */
export const PAGE_CACHE_FRESH_MS = 4_000;
export const PAGE_CACHE_STALE_MS = 9_000;
/** Followers wait this long for the one render of their page, then render themselves. */
const FLIGHT_TIMEOUT_MS = 10_000;
/** Brotli quality for a miss: fast enough for the request loop's answer, within 10 % of the best size. */
const BROTLI_QUALITY = 6;
/**
 * Then, off the request's path, the best brotli replaces it (about 10 % fewer bytes for every later
 * visitor), once the page has been asked for this many times: quality 11 costs 40 ms of a core for
 * a 51 KiB search page (quality 6: 0.7 ms), and doing it for every page stored, each refresh
 * included, took both cores under 200 different searches (40 pages/s while the cache filled).
 * One at a time; a refresh that renders the same bytes keeps the compressed bodies it had.
 */
const BROTLI_BEST_QUALITY = 11;
export const BROTLI_BEST_AFTER_HITS = 8;
/** The session cookie (server/plugins/session.ts): a request carrying one is someone's, never cached. */
const SESSION_COOKIE = "podium_session";
/** Only text that compresses well and is shared as is: pages, JSON, XML and SVG. */
const CACHEABLE_TYPES = /^(text\/html|application\/json|application\/xml|image\/svg\+xml)\b/;
/** Headers that belong to one response, never replayed. */
const PER_RESPONSE_HEADERS = new Set([
  "content-length",
  "content-encoding",
  "etag",
  "set-cookie",
  "date",
  "connection",
  "retry-after",
  // The rate limit's counters are one address's; a hit isn't counted.
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "x-ratelimit-reset",
]);
const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

const parseCookies = (header: string) => fastifyCookie.parse(header);
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

interface Pending {
  key: string;
  startedAt: number;
  tags: string[] | null;
  onServe: ((address: string) => void) | null;
  settle: (page: CachedPage | null) => void;
}

declare module "fastify" {
  interface FastifyRequest {
    pageCache: Pending | null;
  }
}

export interface PageCache {
  readonly store: PageStore;
  /**
   * Answers a fresh or stale hit straight from Node's HTTP server, before Fastify builds a request
   * (true when it did). Everything else, and every request that app.inject() makes, goes through
   * Fastify, whose first hook does the same plus single flight.
   */
  serveRaw(request: IncomingMessage, response: ServerResponse): boolean;
  /** Names what the response shows (FeatureContext.cacheTags). */
  tag(reply: FastifyReply, tags: readonly string[]): void;
  /**
   * Calls `observer` with the visitor's address whenever a hit serves the page this response
   * becomes (FeatureContext.onCachedServe): what a route records per request (a search counted for
   * trending) still happens when the cache answers instead of the route.
   */
  onServe(reply: FastifyReply, observer: (address: string) => void): void;
  /** True when the request is Podium revalidating a stale page (the rate limit lets it through). */
  isRevalidation(request: FastifyRequest): boolean;
  /** Renders other requests wait on now (issue 35: an open event stream must lead none). */
  flightsInProgress(): number;
}

/**
 * The anonymous page cache (issue 11). Registered first, so a hit is answered before any other
 * hook runs: the stored status, headers and body in the encoding the browser takes, with a weak
 * ETag (304 when it matches). A request is a candidate when it is a GET without a session cookie;
 * its key is everything an anonymous response depends on. A candidate's response is stored only
 * when a shared cache could store it too: 200, `Cache-Control: public`, no cookie set.
 */
export function registerPageCache(
  app: FastifyInstance,
  options: {
    maxBytes: number;
    feed: ChangeFeed;
    fingerprint: string;
    /** The visitor's address on a raw request, as request.ip would say (app.ts trustProxy). */
    addressOf: (request: IncomingMessage) => string;
  },
): PageCache {
  const { feed } = options;
  const store = new PageStore({
    maxBytes: options.maxBytes,
    freshMs: PAGE_CACHE_FRESH_MS,
    staleMs: PAGE_CACHE_STALE_MS,
  });
  const flights = new Map<string, Promise<CachedPage | null>>();
  const revalidationToken = randomBytes(18).toString("base64url");
  const REVALIDATE_HEADER = "x-podium-revalidate";
  feed.subscribe((tags) => store.invalidate(tags));
  let recompressing = false;
  /** Counts a hit; a page asked for often gets the best brotli, one page at a time. */
  const served = (page: CachedPage) => {
    page.hits += 1;
    if (page.best || recompressing || page.hits < BROTLI_BEST_AFTER_HITS) return;
    recompressing = true;
    void recompress(page).finally(() => {
      recompressing = false;
    });
  };

  app.decorateRequest("pageCache", null);

  const keyOf = (request: { method?: string; url?: string; headers: IncomingMessage["headers"] }): string | null => {
    if (request.method !== "GET" || !feed.live) return null;
    const header = request.headers.cookie;
    const cookies = header ? parseCookies(header) : {};
    if (cookies[SESSION_COOKIE]) return null;
    // The page's own language rule (cookie, else Accept-Language): a German page never reaches an English browser.
    const locale = requestLocale({
      cookie: cookies[LANGUAGE_COOKIE],
      acceptLanguage: request.headers["accept-language"],
    });
    const consent = cookies[COOKIE_CONSENT_COOKIE] ?? "";
    const device = isMobileUserAgent(request.headers["user-agent"]) ? "mobile" : "desktop";
    return `${request.url}\n${locale}\n${device}\n${consent === "performance" || consent === "necessary" ? consent : ""}\n${options.fingerprint}`;
  };

  const lead = (request: FastifyRequest, key: string) => {
    let settle: (page: CachedPage | null) => void = () => {};
    const flight: Promise<CachedPage | null> = new Promise((resolve) => {
      // Only this flight leaves the map: a later leader's flight for the key stays.
      const end = (page: CachedPage | null) => {
        clearTimeout(timer);
        if (flights.get(key) === flight) flights.delete(key);
        resolve(page);
      };
      // A render that takes too long lets its followers go (and a later request lead again).
      const timer = setTimeout(() => end(null), FLIGHT_TIMEOUT_MS);
      settle = end;
    });
    flights.set(key, flight);
    request.pageCache = { key, startedAt: store.sequence, tags: null, onServe: null, settle };
  };

  const revalidate = (request: { url?: string; headers: IncomingMessage["headers"] }, key: string) => {
    if (flights.has(key)) return;
    const cookies: string[] = [];
    const sent = request.headers.cookie ? parseCookies(request.headers.cookie) : {};
    for (const name of [LANGUAGE_COOKIE, COOKIE_CONSENT_COOKIE]) {
      const value = sent[name];
      if (value) cookies.push(`${name}=${encodeURIComponent(value)}`);
    }
    void app
      .inject({
        method: "GET",
        url: request.url ?? "/",
        headers: {
          [REVALIDATE_HEADER]: revalidationToken,
          "user-agent": request.headers["user-agent"] ?? "",
          // The refresh renders the same language as the key it refreshes (issue 12).
          ...(request.headers["accept-language"] ? { "accept-language": request.headers["accept-language"] } : {}),
          "accept-encoding": "identity",
          ...(cookies.length > 0 ? { cookie: cookies.join("; ") } : {}),
        },
      })
      .catch(() => {});
  };

  app.addHook("onRequest", (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    // Issue 35: a stream (server-sent events) never ends as a page: it must not lead a flight others wait on.
    if (request.routeOptions.config?.uncached === true) return done();
    const key = keyOf(request);
    if (key === null) return done();
    if (request.headers[REVALIDATE_HEADER] === revalidationToken) {
      if (!flights.has(key)) lead(request, key);
      return done();
    }
    const found = store.get(key);
    if (found) {
      if (found.state === "stale") revalidate(request, key);
      found.page.onServe?.(request.ip);
      served(found.page);
      serve(request, reply, found.page, found.state === "fresh" ? "hit" : "stale");
      return;
    }
    const flight = flights.get(key);
    if (!flight) {
      lead(request, key);
      return done();
    }
    // Single flight: wait for the one render of this page, or render after all if it can't be shared.
    flight.then((page) => {
      if (page) {
        page.onServe?.(request.ip);
        served(page);
        serve(request, reply, page, "shared");
      } else done();
    }, done);
  });

  // Before @fastify/compress (registered after this plugin): the payload is still the rendered text.
  app.addHook("onSend", async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const pending = request.pageCache;
    if (!pending) {
      if (mayHaveWritten(request, reply)) {
        // A write answers once this process has heard its changes: the next request sees them.
        await feed.sync();
      }
      return payload;
    }
    request.pageCache = null;
    const body = typeof payload === "string" ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : null;
    if (!body || !isShareable(reply) || body.length > store.maxEntryBytes) {
      pending.settle(null);
      return payload;
    }
    // A refresh that rendered the same bytes keeps the bodies it had (and their best brotli).
    const previous = store.peek(pending.key);
    const same = previous?.identity.equals(body) ? previous : null;
    const page = await cachedPageOf(reply, body, pending.tags ?? [LISTS_TAG], same);
    if (pending.onServe) page.onServe = pending.onServe;
    store.set(pending.key, page, pending.startedAt);
    pending.settle(page);
    // This visitor gets the page the way a hit would.
    const encoding = encodingFor(request.headers["accept-encoding"]);
    reply.header("vary", page.headers.vary).header("etag", page.etag).header("podium-cache", "miss");
    if (encoding === "identity") return body;
    reply.header("content-encoding", encoding);
    return encoding === "br" ? page.br : page.gzip;
  });

  // A request that ends without onSend (aborted) lets its followers go.
  app.addHook("onResponse", (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    request.pageCache?.settle(null);
    done();
  });

  return {
    store,
    flightsInProgress: () => flights.size,
    serveRaw(request, response) {
      const key = keyOf(request);
      if (key === null) return false;
      const found = store.get(key);
      if (!found) return false;
      if (found.state === "stale") revalidate(request, key);
      const { page } = found;
      page.onServe?.(options.addressOf(request));
      served(page);
      const how = found.state === "fresh" ? "hit" : "stale";
      if (etagMatches(request.headers["if-none-match"], page.etag)) {
        response.writeHead(304, { ...page.headers, etag: page.etag, "podium-cache": how });
        response.end();
        return true;
      }
      const encoding = encodingFor(request.headers["accept-encoding"]);
      const headers = page.wire[encoding];
      response.writeHead(page.status, how === "hit" ? headers : { ...headers, "podium-cache": how });
      response.end(encoding === "br" ? page.br : encoding === "gzip" ? page.gzip : page.identity);
      return true;
    },
    tag(reply, tags) {
      const pending = reply.request.pageCache;
      if (pending) pending.tags = [...(pending.tags ?? []), ...tags];
    },
    onServe(reply, observer) {
      const pending = reply.request.pageCache;
      if (pending) pending.onServe = observer;
    },
    isRevalidation: (request) => request.headers[REVALIDATE_HEADER] === revalidationToken,
  };
}

/**
 * Issue 27 item 3: a request no route took (404) or refused by a limit (429) changed nothing, so it
 * costs no database round trip (on PostgreSQL, sync() is one).
 */
function wroteNothing(request: FastifyRequest, reply: FastifyReply): boolean {
  return request.is404 || reply.statusCode === 429;
}

/** A request that may have changed something the change feed tells (its answer waits for sync()). */
export function mayHaveWritten(request: FastifyRequest, reply: FastifyReply): boolean {
  return (
    UNSAFE_METHODS.has(request.method) && !request.routeOptions.config?.countsOnly && !wroteNothing(request, reply)
  );
}

function serve(request: FastifyRequest, reply: FastifyReply, page: CachedPage, how: string): void {
  reply.headers(page.headers);
  reply.header("etag", page.etag).header("podium-cache", how);
  if (etagMatches(request.headers["if-none-match"], page.etag)) {
    reply.code(304).send();
    return;
  }
  const encoding = encodingFor(request.headers["accept-encoding"]);
  reply.code(page.status);
  if (encoding === "identity") {
    reply.send(page.identity);
    return;
  }
  reply.header("content-encoding", encoding).send(encoding === "br" ? page.br : page.gzip);
}

/** Swaps a stored page's brotli body for the best one (libuv's threads; the request loop never waits). */
async function recompress(page: CachedPage): Promise<void> {
  try {
    const best = await brotli(page.identity, {
      params: {
        [zlib.BROTLI_PARAM_QUALITY]: BROTLI_BEST_QUALITY,
        [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
        [zlib.BROTLI_PARAM_SIZE_HINT]: page.identity.length,
      },
    });
    page.best = true;
    if (best.length >= page.br.length) return;
    // Body and length change together, between two requests (this runs on the loop).
    page.br = best;
    page.wire.br["content-length"] = best.length;
  } catch {
    // The quick encoding stays.
  }
}

/** What a shared cache may store: a 200 for everyone (`public`, no cookie set) of a text type. */
function isShareable(reply: FastifyReply): boolean {
  if (reply.statusCode !== 200 || reply.hasHeader("set-cookie")) return false;
  const control = String(reply.getHeader("cache-control") ?? "");
  if (!/(^|,)\s*public\s*(,|$)/i.test(control) || /\b(private|no-store)\b/i.test(control)) return false;
  return CACHEABLE_TYPES.test(String(reply.getHeader("content-type") ?? ""));
}

async function cachedPageOf(
  reply: FastifyReply,
  identity: Buffer,
  tags: readonly string[],
  same: CachedPage | null,
): Promise<CachedPage> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value === undefined || PER_RESPONSE_HEADERS.has(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(", ") : String(value);
  }
  headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : "Accept-Encoding";
  const [br, gz] = same
    ? [same.br, same.gzip]
    : await Promise.all([
        brotli(identity, {
          params: {
            [zlib.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
            [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
            [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length,
          },
        }),
        gzipped(identity, { level: 6 }),
      ]);
  const etag = same ? same.etag : `W/"${createHash("sha256").update(identity).digest("base64url").slice(0, 27)}"`;
  const wire = (encoding: string | null, body: Buffer): Record<string, string | number> => ({
    ...headers,
    etag,
    "podium-cache": "hit",
    ...(encoding ? { "content-encoding": encoding } : {}),
    "content-length": body.length,
  });
  return {
    status: 200,
    headers,
    identity,
    br,
    gzip: gz,
    etag,
    tags: [...new Set(tags)],
    storedAt: Date.now(),
    wire: { br: wire("br", br), gzip: wire("gzip", gz), identity: wire(null, identity) },
    hits: same ? same.hits : 0,
    best: same ? same.best : false,
  };
}

/** The content codings Podium sends, best first (a page cache entry holds each). */
const SENT_CODINGS = ["br", "gzip"] as const;
type SentCoding = (typeof SENT_CODINGS)[number];

/** The best encoding the request accepts: brotli, then gzip, else none (q=0 refuses one). */
export function encodingFor(header: string | undefined): "br" | "gzip" | "identity" {
  const accepted = acceptedCodings(header);
  return accepted.has("br") ? "br" : accepted.has("gzip") ? "gzip" : "identity";
}

/** The request takes gzip (the signed-in page templates' encoding). */
export const acceptsGzip = (header: string | undefined): boolean => acceptedCodings(header).has("gzip");

/**
 * Accept-Encoding with `*` spelled out as the codings Podium sends that the header doesn't name
 * (issue 27 item 6), for @fastify/compress: it reads `*` as `gzip`, so `gzip;q=0, *` became
 * `gzip;q=0, gzip` and got gzip. RFC 9110 §12.5.3: `*` stands for any coding not listed, and
 * q=0 means "not acceptable". A header without `*` is returned as it is.
 */
export function wildcardSpelledOut(header: string | undefined): string | undefined {
  if (!header?.includes("*")) return header;
  const parts = header.split(",").map((part) => part.trim());
  const named = new Set(parts.map((part) => codingName(part)));
  const kept = parts.filter((part) => part !== "" && codingName(part) !== "*");
  const wildcard = parts.find((part) => codingName(part) === "*");
  if (wildcard && !isRefused(wildcard)) {
    const quality = wildcard.slice(wildcard.indexOf(";") >= 0 ? wildcard.indexOf(";") : wildcard.length);
    for (const coding of SENT_CODINGS) if (!named.has(coding)) kept.push(`${coding}${quality}`);
  }
  return kept.length > 0 ? kept.join(", ") : "identity";
}

/**
 * The codings Podium sends that the request accepts. A coding named with q=0 is refused; `*`
 * stands for every coding the header doesn't name (RFC 9110 §12.5.3), so `gzip;q=0, *` takes
 * brotli and never gzip.
 */
function acceptedCodings(header: string | undefined): Set<SentCoding> {
  const accepted = new Set<SentCoding>();
  if (!header) return accepted;
  const named = new Map<string, boolean>();
  let wildcard = false;
  for (const part of header.split(",")) {
    const name = codingName(part);
    const acceptable = !isRefused(part);
    if (name === "*") wildcard = acceptable;
    // Named twice, a refusal wins.
    else named.set(name, (named.get(name) ?? true) && acceptable);
  }
  for (const coding of SENT_CODINGS) {
    if (named.get(coding) ?? wildcard) accepted.add(coding);
  }
  return accepted;
}

/** An Accept-Encoding element's coding, lower-cased (`x-gzip` is gzip: RFC 9110 §8.4.1.3). */
function codingName(part: string): string {
  const name = (part.split(";")[0] ?? "").trim().toLowerCase();
  return name === "x-gzip" ? "gzip" : name;
}

/** The element carries q=0: "not acceptable". */
function isRefused(part: string): boolean {
  return part
    .split(";")
    .slice(1)
    .some((param) => {
      const [attribute = "", value = ""] = param.trim().toLowerCase().split("=");
      return attribute.trim() === "q" && Number(value.trim()) === 0;
    });
}

/** If-None-Match with weak comparison (RFC 9110 §13.1.2): any listed tag, or `*`. */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = etag.replace(/^W\//, "");
  return header.split(",").some((candidate) => {
    const value = candidate.trim();
    return value === "*" || value.replace(/^W\//, "") === opaque;
  });
}
