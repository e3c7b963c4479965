import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import { fileURLToPath } from "node:url";
import compress from "@fastify/compress";
import cookie from "@fastify/cookie";
import formbody from "@fastify/formbody";
import proxyAddr, { compile as compileTrust } from "@fastify/proxy-addr";
import fastifyStatic from "@fastify/static";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { createElement } from "react";
import { type Database, writeConflict } from "../db/client";
import { getOrCreateSecret } from "../features/accounts/repository";
import { registerAccountRoutes } from "../features/accounts/routes";
import { registerAssetRoutes } from "../features/assets/routes";
import { registerCatalogRoutes } from "../features/catalog/routes";
import { LISTS_TAG } from "../features/content-changes";
import { registerDashboardRoutes } from "../features/dashboard/routes";
import { registerDownloadRoutes } from "../features/downloads/routes";
import { registerEditorRoutes } from "../features/editor/routes";
import { registerEmbedRoutes } from "../features/embed/routes";
import { createEventIntake, type EventIntake } from "../features/events/intake";
import { startEventPipeline } from "../features/events/pipeline/start";
import type { EventPipeline } from "../features/events/pipeline/types";
import { startEventPruning } from "../features/events/retention";
import { registerEventRoutes } from "../features/events/routes";
import { createSenderKeyer } from "../features/events/sender-keys";
import { createVisitorIds } from "../features/events/visitor-id";
import { registerExploreRoutes } from "../features/explore/routes";
import type { SearchMemory } from "../features/explore/search-memory";
import { registerHomeRoutes } from "../features/home/routes";
import type { FeatureContext, PagePerson, PageSpec } from "../features/http";
import { registerLikeRoutes } from "../features/likes/routes";
import { createLiveHub, type LiveHub } from "../features/live/hub";
import { type LiveRoutes, registerLiveRoutes } from "../features/live/routes";
import { loadLiveState } from "../features/live/service";
import { registerModerationRoutes } from "../features/moderation/routes";
import { registerPdfImportRoutes } from "../features/pdf-import/routes";
import { registerPresenterRoutes } from "../features/presentation/presenter/routes";
import { registerPresentationRoutes, registerSitemapRoute } from "../features/presentation/routes";
import { registerSearchSuggestRoutes } from "../features/search-suggest/routes";
import { loadTitleIndex, TrendingSearches } from "../features/search-suggest/service";
import { SUGGEST_INDEX_MAX_AGE_MS } from "../features/search-suggest/title-index";
import { refreshedOnChange } from "../features/small-caches";
import { registerViewPageRoutes } from "../features/view-page/routes";
import type { Viewer } from "../features/viewer";
import { LANGUAGE_COOKIE, type Locale, requestLocale } from "../i18n/locales";
import { type Limits, memoryLimits } from "../lib/limits";
import { ownerDisplayName } from "../lib/owner";
import { COOKIE_CONSENT_COOKIE, type CookieChoice, usageCookieDomain } from "../lib/usage-session";
import { ErrorPage, type ErrorReason } from "../ui/ErrorPage";
import type { SessionInfo } from "../ui/session";
import type { Config } from "./config";
import { ChangeFeed } from "./page-cache/change-feed";
import {
  fillTemplate,
  gzipFilledTemplate,
  makeTemplate,
  PersonalPages,
  PLACEHOLDER_PERSON,
} from "./page-cache/personal";
import {
  acceptsGzip,
  mayHaveWritten,
  type PageCache,
  registerPageCache,
  wildcardSpelledOut,
} from "./page-cache/plugin";
import { RequestInputError, registerRequestInput } from "./plugins/request-input";
import { type RequestLimit, registerRequestLimit } from "./plugins/request-limit";
import { registerSecurityHeaders } from "./plugins/security-headers";
import { registerSessions } from "./plugins/session";
import { loadClientAssets } from "./render/assets";
import { renderPage } from "./render/page";
import { readableLogStream } from "./request-log";
import { registerHealthRoutes } from "./shared/health";
import { openRedis, REDIS_FIRST_CONNECT_WAIT_MS, type SharedRedis } from "./shared/redis";
import { redisLimits } from "./shared/redis-limits";
import { createDocumentWorkers } from "./workers/documents";

/** Where the client build's hashed files are served (scripts, style sheets, message catalogues). */
const STATIC_PREFIX = "/static/";
/**
 * Issue 30: headers only a document obeys (or, for the limit, only a person reads). A file under
 * /static/ is never a document, and the view page loads about 20 of them before Present: these
 * were 0.65 KB of each response, a tenth of the page's transferred JavaScript. `nosniff` and the
 * resource policy stay: they protect scripts and style sheets too.
 */
const DOCUMENT_ONLY_HEADERS = [
  "content-security-policy",
  "x-frame-options",
  "cross-origin-opener-policy",
  "origin-agent-cluster",
  "referrer-policy",
  "x-dns-prefetch-control",
  "x-download-options",
  "x-permitted-cross-domain-policies",
  "x-xss-protection",
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "x-ratelimit-reset",
];

import { createPdfWorkers } from "./workers/pdf-pool";

/** Idle keep-alive connections stay open this long (Fastify's default for its own servers). */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;
/** Largest request body accepted anywhere (architecture: bodies are limited). */
export const BODY_LIMIT_BYTES = 256 * 1024;
/** When the database is unavailable, visitors are asked to come back after this long. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 30;
/** A JSON caller's words for a write that lost a race (pages say error.badRequest.conflict). */
const WRITE_CONFLICT_MESSAGE = "Someone changed or removed this at the same moment. Reload and try again.";
/** Answers up to this size are compressed in one call (brotli 4: about 1 ms for 256 KiB); larger ones stream. */
const COMPRESS_IN_ONE_CALL_MAX_BYTES = 256 * 1024;
/** Anonymous error pages kept rendered: statuses × languages × cookie states in use (a few dozen). */
const ERROR_PAGES_KEPT = 256;
/** Largest presentation file accepted by an import (Markdown or JSON). */
export const UPLOAD_LIMIT_BYTES = 2 * 1024 * 1024;

/** The favicon: Podium's mark, drawn inline (nothing fetched from elsewhere). */
const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 28 28"><rect width="28" height="28" rx="7" fill="#3f3cbb"/><rect x="7" y="16" width="4" height="6" rx="1" fill="#fff"/><rect x="12" y="11" width="4" height="11" rx="1" fill="#fff"/><rect x="17" y="6" width="4" height="16" rx="1" fill="#fff"/></svg>`;

/**
 * Builds Podium's HTTP application without listening (tests drive it with inject()).
 * The database is opened, migrated and seeded by the caller, and closed with the app.
 */
export async function buildApp(config: Config, db: Database): Promise<FastifyInstance> {
  // Malformed URLs and bodies are rejected before routing; they get the same error pages.
  let sendFrameworkError: (
    error: Error & { statusCode?: number },
    request: FastifyRequest,
    reply: FastifyReply,
  ) => void = (_error, _request, reply) => reply.status(400).send();
  // Issue 11: a cached page's hit is answered by Node's HTTP server before Fastify builds a request.
  let rawHits: PageCache | null = null;
  // Issue 14: a usage event is answered by the event intake before Fastify builds a request.
  let eventIntake: EventIntake | null = null;
  // Issue 27 item 3: an address known to be past the request limit is refused before Fastify too.
  let requestLimit: RequestLimit | null = null;
  // From close() on, every request goes to Fastify, which answers 503 and closes the connection:
  // answered raw, a keep-alive connection under load would hold the server open for ever.
  let answeringRaw = true;
  const app = Fastify({
    serverFactory: (handler) => {
      const server = createServer((request, response) => {
        const raw =
          answeringRaw &&
          (eventIntake?.serveRaw(request, response) ||
            rawHits?.serveRaw(request, response) ||
            requestLimit?.refuseRaw(request, response));
        if (!raw) {
          handler(request, response);
        }
      });
      // What Fastify sets on a server of its own.
      server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
      return server;
    },
    // A malformed URL skips every hook: it is counted by the request limit here.
    frameworkErrors: (error, request, reply) => {
      if (!requestLimit) return sendFrameworkError(error, request, reply);
      requestLimit.refused(request, reply).then(
        (refused) => refused || sendFrameworkError(error, request, reply),
        (failure: Error) => sendFrameworkError(failure, request, reply),
      );
    },
    logger:
      config.logger === "readable"
        ? { level: "info", stream: readableLogStream((text) => process.stdout.write(text)) }
        : config.logger === "json"
          ? { level: "info" }
          : false,
    bodyLimit: BODY_LIMIT_BYTES,
    // Issue 16: behind a load balancer, X-Forwarded-For names the visitor, from the proxies named only.
    trustProxy: trustedProxies(config.trustProxy),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    onProtoPoisoning: "error",
    onConstructorPoisoning: "error",
    forceCloseConnections: "idle",
    return503OnClosing: true,
  });

  // Issue 27 item 6: @fastify/compress reads `*` in Accept-Encoding as gzip, so `gzip;q=0, *`
  // (gzip not acceptable, anything else is) got gzip: every hook, and it, reads the header with
  // `*` spelled out. First, so that a page-cache hit sent without a coding isn't gzipped after all.
  app.addHook("onRequest", (request, _reply, done) => {
    const header = request.headers["accept-encoding"];
    if (header?.includes("*")) request.headers["accept-encoding"] = wildcardSpelledOut(header);
    done();
  });
  // The change feed (every process hears every write) and the anonymous page cache (issue 11). The
  // cache's hooks come next: a hit is answered before any other hook runs.
  const changes = new ChangeFeed();
  await changes.start(db);
  const pageCache =
    config.pageCacheMaxBytes > 0
      ? registerPageCache(app, {
          maxBytes: config.pageCacheMaxBytes,
          addressOf: visitorAddress(config.trustProxy),
          feed: changes,
          fingerprint: createHash("sha256")
            .update(JSON.stringify([config.env, config.features, config.cookieConsentRequired, config.publicUrl]))
            .digest("base64url")
            .slice(0, 12),
        })
      : null;
  app.decorate("pageCache", pageCache);
  if (!pageCache) {
    // Without the page cache, writes still answer once this process has heard them: the small
    // caches, the kept sessions (a sign-out) and the search index follow the feed too.
    app.addHook("onSend", async (request, reply, payload) => {
      if (mayHaveWritten(request, reply)) await changes.sync();
      return payload;
    });
  }
  rawHits = pageCache;
  app.addHook("preClose", (done) => {
    answeringRaw = false;
    done();
  });
  // Signed-in page templates (issue 11): a quarter of the page cache's bytes.
  const personalPages =
    config.pageCacheMaxBytes > 0 ? new PersonalPages({ maxBytes: config.pageCacheMaxBytes / 4, feed: changes }) : null;
  app.decorate("changes", changes);

  registerSecurityHeaders(app, { https: config.publicUrl.startsWith("https:") });
  app.addHook("onSend", async (request, reply) => {
    // No content, nothing to frame or run (issue 14: the usage-event beacons' 204s, thousands a second).
    if (reply.statusCode === 204) return;
    // A file that is there; a miss is an error page like any other (with the limit's headers).
    if (request.url.startsWith(STATIC_PREFIX) && reply.statusCode < 400) {
      for (const header of DOCUMENT_ONLY_HEADERS) reply.removeHeader(header);
      // The same address answers in brotli, gzip or as it is (preCompressed): shared caches must know.
      reply.header("vary", "accept-encoding");
      return;
    }
    if (!reply.hasHeader("content-security-policy")) {
      reply.header("content-security-policy", contentSecurityPolicy({ frameable: false }));
      reply.header("x-frame-options", "DENY");
    }
  });
  // A page (tens of KiB) is compressed in one call, not through a stream: @fastify/compress's
  // default on 2 cores streams anything over 8 KiB, a brotli context and several writes per
  // response (a 51 KiB search page: 0.75 ms of the event loop's time against 0.21 ms in one call).
  await app.register(compress, { threshold: 1024, syncThreshold: COMPRESS_IN_ONE_CALL_MAX_BYTES });
  await app.register(cookie);
  await app.register(formbody, { bodyLimit: BODY_LIMIT_BYTES });
  await registerRequestInput(app, { fileSizeLimit: UPLOAD_LIMIT_BYTES });
  // Issue 16 item 4: PODIUM_SECRET, or the stored one, read once at start (the same in every process).
  const secret = config.secret ?? (await getOrCreateSecret(db, "csrf", randomBytes(32).toString("base64url")));
  // Issue 16 item 1: with REDIS_URL the limits are counted in Redis, shared by every process.
  let redis: SharedRedis | null = null;
  let limits: Limits = memoryLimits();
  if (config.redisUrl) {
    redis = openRedis(config.redisUrl, config.redisPrefix, (message) => app.log.warn(`podium: ${message}`));
    // Not ready (/readyz) until connected; the start goes on meanwhile, counting in this process.
    await redis.waitUntilConnected(REDIS_FIRST_CONNECT_WAIT_MS);
    limits = redisLimits(redis);
  }
  // Issue 27 item 3: every request counted, ahead of the session lookup and every route.
  requestLimit = await registerRequestLimit(app, {
    max: config.rateLimitPerMinute,
    redis: redis?.client ?? null,
    // Podium refreshing a stale cached page is not a visitor.
    allowList: (request) => pageCache?.isRevalidation(request) === true,
    addressOf: visitorAddress(config.trustProxy),
  });
  const sessions = registerSessions(app, {
    db,
    changes,
    secret,
    secureCookies: config.publicUrl.startsWith("https:"),
    publicOrigin: new URL(config.publicUrl).origin,
  });
  if (config.clientDir) {
    await app.register(fastifyStatic, {
      root: `${config.clientDir}/static`,
      prefix: STATIC_PREFIX,
      // File names carry content hashes: cache them for a year.
      immutable: true,
      maxAge: "365d",
      // Issue 30: the build wrote each file's best brotli and gzip beside it (scripts/build.mjs).
      preCompressed: true,
      index: false,
      wildcard: false,
    });
  }

  const assets = loadClientAssets(config.clientDir);
  const documents = createDocumentWorkers(config.workerDir ?? fileURLToPath(new URL(".", import.meta.url)), {
    timeoutMs: config.documentWorkTimeoutMs,
  });

  // Spec §9: the usage cookie's domain follows the environment (none on local, localhost and addresses).
  const cookieDomain = usageCookieDomain(config.env, new URL(config.publicUrl).hostname);
  const sendPage = <Data>(request: FastifyRequest, reply: FastifyReply, page: PageSpec<Data>): FastifyReply => {
    // Errors raised before routing arrive before the cookie parser ran.
    const cookies = request.cookies as Partial<Record<string, string>> | undefined;
    const viewer = request.viewer ?? null;
    const locale = requestLocale({
      cookie: cookies?.[LANGUAGE_COOKIE],
      account: viewer?.language,
      acceptLanguage: request.headers["accept-language"],
    });
    const csrfToken = cookies && (viewer || page.forms) ? sessions.csrfToken(request, reply) : null;
    if (page.forms) reply.header("cache-control", "private, no-store");
    const session: SessionInfo = {
      isAuthenticated: viewer !== null,
      viewerName: viewer ? ownerDisplayName(viewer) || viewer.email : null,
      viewerOid: viewer?.oid ?? null,
      csrfToken,
      environment: config.env,
      // Spec §4: the no-cookie host and embed mode skip cookie handling.
      cookies:
        config.env === "nocookie" || page.frameable || page.cookieFree
          ? "off"
          : config.cookieConsentRequired
            ? "consent"
            : "always",
      cookieChoice: cookieChoiceOf(cookies?.[COOKIE_CONSENT_COOKIE]),
      cookieDomain,
    };
    // The page depends on the visitor's cookies (language, session, cookie choice) and, on a first
    // visit, on the language the browser asks for (issue 12).
    const vary = String(reply.getHeader("vary") ?? "");
    const varies = vary ? vary.split(",").map((name) => name.trim()) : [];
    for (const name of ["Cookie", "Accept-Language"]) {
      if (!varies.some((known) => known.toLowerCase() === name.toLowerCase())) varies.push(name);
    }
    reply.header("vary", varies.join(", "));
    const person = viewer && csrfToken ? personOf(viewer, session, csrfToken) : null;
    const html =
      personalPages && page.personal && person
        ? templatedPage(reply, page, { locale, session, person })
        : (anonymousErrorPage(page, locale, session) ?? renderPage(assets, { ...page, locale, session }));
    reply.header(
      "content-security-policy",
      contentSecurityPolicy({ frameable: page.frameable === true, frameAncestors: page.frameAncestors }),
    );
    if (page.frameable) reply.header("cross-origin-resource-policy", "cross-origin");
    else reply.header("x-frame-options", "DENY");
    return reply
      .status(page.status ?? 200)
      .type("text/html; charset=utf-8")
      .send(html);
  };

  /**
   * Issue 27 item 3: an error page for someone not signed in (no CSRF token in it) is the same for
   * every path with the same status, language and cookie state, so it is rendered once: a flood of
   * unknown paths within the request limit costs a lookup each, not a render (about 2 ms).
   */
  const errorPages = new Map<string, string>();
  const anonymousErrorPage = <Data>(page: PageSpec<Data>, locale: Locale, session: SessionInfo): string | null => {
    if (page.entry !== "error" || session.isAuthenticated || session.csrfToken !== null) return null;
    const key = JSON.stringify([page.status, page.data, page.head, page.frameable, locale, session]);
    let html = errorPages.get(key);
    if (html === undefined) {
      html = renderPage(assets, { ...page, locale, session });
      if (errorPages.size >= ERROR_PAGES_KEPT) errorPages.clear();
      errorPages.set(key, html);
    }
    return html;
  };

  /**
   * A signed-in page from its template (issue 11; server/page-cache/personal.ts): rendered once per
   * key with the placeholder person, then filled in for each. `podium-template` says which it was.
   */
  const templatedPage = <Data>(
    reply: FastifyReply,
    page: PageSpec<Data>,
    { locale, session, person }: { locale: Locale; session: SessionInfo; person: PagePerson },
  ): string | Buffer => {
    const { personal } = page;
    if (!personalPages || !personal) return renderPage(assets, { ...page, locale, session });
    const data = personal.mask(page.data, PLACEHOLDER_PERSON);
    const maskedSession: SessionInfo = {
      ...session,
      viewerName: PLACEHOLDER_PERSON.label,
      viewerOid: PLACEHOLDER_PERSON.oid,
      csrfToken: PLACEHOLDER_PERSON.csrfToken,
    };
    // The data without its shared parts (covered by the tags), whatever else it holds: set to
    // undefined, which JSON leaves out (a delete would make the copy slow to write out).
    const keyed: Record<string, unknown> = { ...(data as Record<string, unknown>) };
    for (const name of personal.shared) keyed[name] = undefined;
    // The key is the text itself, not a hash of it (issue 32 item 5: hashing cost more than the
    // lookup): two pages share a template only when all of it is the same.
    const key = `${reply.request.url}\n${JSON.stringify([
      page.entry,
      page.status,
      page.frameable,
      page.forms,
      page.cookieFree,
      page.head,
      locale,
      maskedSession,
    ])}\n${JSON.stringify(keyed)}`;
    let template = personalPages.get(key);
    let how = "hit";
    if (!template) {
      const startedAt = personalPages.sequence;
      template = makeTemplate(
        renderPage(assets, { ...page, data, locale, session: maskedSession }),
        person,
        personal.tags,
      );
      if (!template) {
        reply.header("podium-template", "refused");
        return renderPage(assets, { ...page, locale, session });
      }
      personalPages.set(key, template, startedAt);
      how = "miss";
    }
    reply.header("podium-template", how);
    if (!acceptsGzip(reply.request.headers["accept-encoding"])) return fillTemplate(template, person);
    // Gzipped without compressing (the template's parts are): @fastify/compress leaves it be.
    reply
      .header("content-encoding", "gzip")
      .header("vary", `${String(reply.getHeader("vary") ?? "Cookie")}, Accept-Encoding`);
    return gzipFilledTemplate(template, person);
  };

  const sendErrorPage = (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    reason: ErrorReason | null = null,
  ): FastifyReply => {
    if (wantsJson(request)) {
      const message = status === 404 ? "Not found." : "Something went wrong. Please try again.";
      return reply.status(status).send({ statusCode: status, message });
    }
    reply.header("cache-control", "no-store");
    return sendPage(request, reply, {
      entry: "error",
      status,
      data: { status, reason },
      render: (data) => createElement(ErrorPage, { data }),
      head: { title: String(status), noindex: true },
    });
  };

  // Issue 15 item 5: the trending searches list, computed now and refreshed on a timer.
  const trending = new TrendingSearches(db);
  trending.start();
  app.decorate("trendingSearches", trending);

  // Issue 15: the listed titles in memory, rebuilt in the background after any change to listed
  // presentations (and at least every quarter of an hour: view counts move; SUGGEST_INDEX_MAX_AGE_MS);
  // meanwhile the index before serves.
  const titleIndex = refreshedOnChange(changes, [LISTS_TAG], () => loadTitleIndex(db), SUGGEST_INDEX_MAX_AGE_MS);
  // Loaded as the server starts, so the first suggestion or typo doesn't wait for it (1.3–1.6 s at 100,000 titles).
  app.addHook("onReady", async () => titleIndex.preload());

  const context: FeatureContext = {
    titleIndex,
    db,
    secret,
    documents,
    changes,
    cacheTags: (reply, tags) => pageCache?.tag(reply, tags),
    onCachedServe: (reply, observer) => pageCache?.onServe(reply, observer),
    features: config.features,
    publicUrl: config.publicUrl,
    sendPage,
    sendNotFound: (request, reply) => sendErrorPage(request, reply, 404),
    sendError: sendErrorPage,
    csrfToken: sessions.csrfToken,
    signIn: sessions.signIn,
    signOut: sessions.signOut,
    environment: config.env,
    searchIndex: config.searchIndex,
    cookieConsentRequired: config.cookieConsentRequired,
    likeRateLimitPerMinute: config.likeRateLimitPerMinute,
    accountLimits: config.accountLimits,
    limits,
    nativeApp: config.nativeApp,
    nativeApps: config.nativeApps,
    recordSearch: (term, address) =>
      trending.record(term, address).then(
        () => {},
        () => {},
      ),
  };

  app.setNotFoundHandler((request, reply) => sendErrorPage(request, reply, 404));

  const handleError = (error: Error & { statusCode?: number }, request: FastifyRequest, reply: FastifyReply) => {
    // Issue 27 item 4: a write that lost a race no route foresaw (a unique key taken a moment
    // before, a row deleted after the request looked) is a 409 in words, logged by constraint.
    const conflict = writeConflict(error);
    if (conflict) {
      request.log.warn({ constraint: conflict }, "a write lost a race with another request");
      if (wantsJson(request) || isJsonBody(request)) {
        return reply.status(409).send({ statusCode: 409, message: WRITE_CONFLICT_MESSAGE });
      }
      return sendErrorPage(request, reply, 409, "badRequest.conflict");
    }
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, "request failed");
    if (status === 503) reply.header("retry-after", String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    if (wantsJson(request) || isJsonBody(request)) {
      // Client errors say what was wrong; server errors never leak their details.
      const message = status >= 500 ? "Something went wrong. Please try again." : error.message;
      return reply.status(status).send({ statusCode: status, message });
    }
    const reason = error instanceof RequestInputError ? (`badRequest.${error.problem}` as const) : null;
    // 503 (the database is unavailable) says so and when to come back; other 5xx are 500s.
    return sendErrorPage(request, reply, status === 503 ? 503 : Math.min(status, 500), reason);
  };
  app.setErrorHandler(handleError);
  sendFrameworkError = handleError;

  const health = registerHealthRoutes(app, { db, redis });
  app.decorate("startDraining", health.startDraining);

  app.get("/favicon.svg", (_request, reply) =>
    reply.type("image/svg+xml").header("cache-control", "public, max-age=86400").send(FAVICON_SVG),
  );
  app.get("/favicon.ico", (_request, reply) => reply.redirect("/favicon.svg", 301));
  app.get("/robots.txt", (_request, reply) =>
    reply.type("text/plain; charset=utf-8").send(`User-agent: *\nAllow: /\nSitemap: ${config.publicUrl}/sitemap.xml\n`),
  );

  // Spec §7: like calls carry a JSON content type and no body; an empty body is no body.
  const defaultJsonParser = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    if (body === "") done(null, undefined);
    else defaultJsonParser(request, body.toString(), done);
  });

  registerHomeRoutes(app, context);
  registerAccountRoutes(app, context);
  registerDashboardRoutes(app, context);
  registerEditorRoutes(app, context);
  registerAssetRoutes(app, context);
  const pdfWorkers = createPdfWorkers(config.workerDir ?? fileURLToPath(new URL(".", import.meta.url)), {
    memoryLimitMb: config.pdfMemoryLimitMb,
  });
  registerPdfImportRoutes(app, context, pdfWorkers);
  registerExploreRoutes(app, context);
  registerSearchSuggestRoutes(app, context, trending);
  registerCatalogRoutes(app, context);
  registerModerationRoutes(app, context);
  // Issue 14: accepted usage events wait here (in the process, or in JetStream) and are stored in batches.
  const events = await startEventPipeline(db, config.events, (error, size) =>
    app.log.error({ err: error }, `storing ${size} usage events failed; they are kept and retried`),
  );
  eventIntake = createEventIntake({
    pipeline: events,
    senderKeys: createSenderKeyer(secret),
    visitorIds: createVisitorIds(secret),
    addressOf: visitorAddress(config.trustProxy),
    perMinute: config.rateLimitPerMinute,
    consentRequired: config.cookieConsentRequired,
  });
  registerEventRoutes(app, context, eventIntake);
  app.decorate("usageEvents", events);
  health.addCheck({ name: "events", required: false, check: async () => events.state() });
  registerEmbedRoutes(app, context);
  registerDownloadRoutes(app, context);
  registerLikeRoutes(app, context);
  registerViewPageRoutes(app, context);
  registerPresentationRoutes(app, context);
  // Issue 35: live sessions (the presenter view's panel, the follow page, the event streams; over
  // core NATS between processes when NATS_URL is set).
  const liveHub = await createLiveHub({
    natsUrl: config.events.natsUrl,
    loadState: (sessionId) => loadLiveState(db, sessionId),
    maxBufferedBytes: config.live?.maxBufferedBytes,
    heartbeatMs: config.live?.heartbeatMs,
    reactionFlushMs: config.live?.reactionFlushMs,
    onError: (error) => app.log.warn({ err: error }, "live session event failed"),
  });
  app.decorate("liveHub", liveHub);
  const live = registerLiveRoutes(app, context, liveHub, config.live?.limits);
  app.decorate("liveRoutes", live);
  registerPresenterRoutes(app, context, live.presenterPage);
  // Open event streams would hold close() for ever: they end first (followers reconnect elsewhere).
  app.addHook("preClose", (done) => {
    liveHub.close().then(
      () => done(),
      () => done(),
    );
  });
  registerSitemapRoute(app, context);

  // Issue 14 item 5: old raw events and client logs go; every process tries, one at a time prunes.
  const pruning = startEventPruning(
    db,
    { eventRetentionDays: config.eventRetentionDays, clientLogRetentionDays: config.clientLogRetentionDays },
    (error) => app.log.error({ err: error }, "pruning old usage events failed"),
  );

  app.addHook("onClose", async () => {
    await pruning.stop();
    await live.broadcaster.flush().catch(() => {});
    // The server no longer takes requests: store every accepted event before the database closes.
    await events.close();
    await trending.stop();
    await documents.close();
    await pdfWorkers.close();
    await changes.stop();
    await redis?.close();
    await db.close();
  });

  return app;
}

/**
 * Scripts only from our origin (no inline scripts: page data is a JSON script element),
 * nothing fetched from elsewhere, and framing refused except where a page allows it.
 */
function cookieChoiceOf(value: string | undefined): CookieChoice | null {
  return value === "performance" || value === "necessary" ? value : null;
}

declare module "fastify" {
  interface FastifyInstance {
    /** The anonymous page cache (issue 11), or null when PODIUM_PAGE_CACHE_MB is 0. */
    pageCache: PageCache | null;
    /** The change feed: what writes changed, heard from every process on the database. */
    changes: ChangeFeed;
    /** Issue 16 item 6: /readyz answers 503 from now on (SIGTERM); requests are still served. */
    startDraining(): void;
    /** Issue 14: the usage-event pipeline (flush() waits until what it took is stored). */
    usageEvents: EventPipeline;
    /** Issue 35: the live sessions' event streams in this process. */
    liveHub: LiveHub;
    /** Issue 35: the live routes' question broadcaster (tests flush it). */
    liveRoutes: LiveRoutes;
    /** Issue 15 item 5: the trending searches of this process (tests refresh it). */
    trendingSearches: TrendingSearches;
    /** Issue 32 item 3: the search index in memory (null with PODIUM_SEARCH_INDEX=database; tests wait for it). */
    searchMemory: SearchMemory | null;
  }
}

/**
 * The pages' CSP. A frameable page may be framed by any site, or (issue 34) only by the sites its
 * deck's owner listed, and by Podium itself (the developers page's live example).
 */
export function contentSecurityPolicy(options: { frameable: boolean; frameAncestors?: readonly string[] }): string {
  const ancestors = options.frameAncestors?.length ? `'self' ${options.frameAncestors.join(" ")}` : "*";
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "media-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${options.frameable ? ancestors : "'none'"}`,
  ].join("; ");
}

/** A request that sent JSON (usage events, the client log) gets its errors as JSON. */
function isJsonBody(request: FastifyRequest): boolean {
  return /^application\/json\b/i.test(request.headers["content-type"] ?? "");
}

function wantsJson(request: FastifyRequest): boolean {
  if (request.url.startsWith("/api/")) return true;
  const accept = request.headers.accept ?? "";
  return accept.includes("application/json") && !accept.includes("text/html");
}

/** The signed-in person's strings a page may show (issue 11, page templates). */
function personOf(viewer: NonNullable<Viewer>, session: SessionInfo, csrfToken: string): PagePerson {
  return {
    label: session.viewerName ?? "",
    displayName: ownerDisplayName(viewer),
    email: viewer.email,
    oid: viewer.oid,
    csrfToken,
  };
}

/**
 * The visitor's address on a raw request (the page cache's hits, before Fastify), read as Fastify
 * reads request.ip under the same trustProxy setting.
 */
function visitorAddress(trust: Config["trustProxy"]): (request: IncomingMessage) => string {
  const trusts = trustedProxies(trust);
  if (trusts === false) return (request) => request.socket.remoteAddress ?? "";
  return (request) => proxyAddr(request, trusts);
}

/** PODIUM_TRUST_PROXY as the function Fastify and proxy-addr take: which hop may name the one before. */
function trustedProxies(trust: Config["trustProxy"]): false | ((address: string, hop: number) => boolean) {
  if (trust === false) return false;
  if (typeof trust === "number") return (_address, hop) => hop < trust;
  return compileTrust(trust);
}
