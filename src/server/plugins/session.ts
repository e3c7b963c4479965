import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Database } from "../../db/client";
import { createSessionResolver, endSession, SESSION_LIFETIME_MS, startSession } from "../../features/accounts/service";
import type { LiveChanges } from "../../features/content-changes";

/** The session cookie: HttpOnly, SameSite=Lax, Secure over HTTPS. */
export const SESSION_COOKIE = "podium_session";
/** An anonymous visitor's CSRF seed (for the login and signup forms). */
export const CSRF_SEED_COOKIE = "podium_csrf";
/** Spec §7: the HTTP client reads the token from this cookie and sends it in this header. */
export const XSRF_COOKIE = "XSRF-TOKEN";
export const XSRF_HEADER = "x-xsrf-token";
/** The form field that carries the token where a header can't (plain HTML forms). */
export const CSRF_FIELD = "_csrf";

export interface SessionTools {
  /** The CSRF token for this request, setting the cookies it needs. */
  csrfToken(request: FastifyRequest, reply: FastifyReply): string;
  signIn(request: FastifyRequest, reply: FastifyReply, userId: string): Promise<void>;
  signOut(request: FastifyRequest, reply: FastifyReply): Promise<void>;
}

export class CsrfError extends Error {
  override readonly name = "CsrfError";
  readonly statusCode = 403;
}

const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/** Signed-in sessions whose CSRF token a process keeps (past it, the map starts again). */
const CSRF_TOKENS_KEPT = 10_000;

/**
 * Sessions and CSRF protection. The CSRF token is an HMAC of the session (or of an
 * anonymous seed), never a bare random value: a token from another session never matches.
 * Every state-changing request must carry it (header or form field) and come from our origin.
 */
export function registerSessions(
  app: FastifyInstance,
  options: { db: Database; changes?: LiveChanges; secret: string; secureCookies: boolean; publicOrigin: string },
): SessionTools {
  const { db, secret, secureCookies } = options;
  // Issue 32 item 5: sessions kept in the process, dropped by the change feed.
  const resolveSession = createSessionResolver(db, { changes: options.changes });
  const cookieBase = { path: "/", sameSite: "lax" as const, secure: secureCookies };
  const hmac = (value: string) => createHmac("sha256", secret).update(value).digest("base64url");
  // Issue 32 item 5: a session's token is the same on every page; worked out once per session.
  const sessionTokens = new Map<string, string>();
  const sessionCsrfToken = (session: string): string => {
    let token = sessionTokens.get(session);
    if (token === undefined) {
      token = hmac(`session:${session}`);
      if (sessionTokens.size >= CSRF_TOKENS_KEPT) sessionTokens.clear();
      sessionTokens.set(session, token);
    }
    return token;
  };
  const expectedToken = (request: FastifyRequest): string | null => {
    if (request.sessionToken) return sessionCsrfToken(request.sessionToken);
    const seed = request.cookies[CSRF_SEED_COOKIE];
    return seed && /^[A-Za-z0-9_-]{32}$/.test(seed) ? hmac(`anonymous:${seed}`) : null;
  };

  app.decorateRequest("viewer", null);
  app.decorateRequest("sessionToken", null);

  app.addHook("onRequest", async (request, reply) => {
    const token = request.cookies?.[SESSION_COOKIE];
    if (!token) return;
    const viewer = await resolveSession(token);
    if (viewer) {
      request.viewer = viewer;
      request.sessionToken = token;
    } else {
      reply.clearCookie(SESSION_COOKIE, cookieBase);
    }
  });

  app.addHook("preHandler", async (request) => {
    if (!UNSAFE_METHODS.has(request.method)) return;
    // Only usage-event intake opts out: it records, never acts for anyone (features/events).
    if ((request.routeOptions.config as { csrfExempt?: boolean } | undefined)?.csrfExempt === true) return;
    // Browsers say where a request comes from; another site's page may not change anything here.
    if (request.headers["sec-fetch-site"] === "cross-site") throw new CsrfError("Cross-site requests are refused.");
    const origin = request.headers.origin;
    if (origin && origin !== options.publicOrigin) {
      let host: string | null = null;
      try {
        host = new URL(origin).host;
      } catch {
        host = null;
      }
      if (host !== request.headers.host) throw new CsrfError("Cross-site requests are refused.");
    }
    const header = request.headers[XSRF_HEADER];
    const body = request.body as Record<string, unknown> | undefined;
    const field = body?.[CSRF_FIELD];
    const fieldValue = typeof field === "string" ? field : (field as { value?: unknown } | undefined)?.value;
    const sent = typeof header === "string" ? header : typeof fieldValue === "string" ? fieldValue : null;
    const expected = expectedToken(request);
    if (!sent || !expected || !safeEqual(sent, expected)) {
      throw new CsrfError("Missing or invalid CSRF token. Reload the page and try again.");
    }
  });

  // Pages for a signed-in person, or that set a cookie, are never stored by shared caches.
  app.addHook("onSend", async (request, reply) => {
    if (request.viewer || reply.hasHeader("set-cookie")) reply.header("cache-control", "private, no-store");
  });

  const setXsrfCookie = (request: FastifyRequest, reply: FastifyReply, token: string) => {
    if (request.cookies[XSRF_COOKIE] !== token) {
      // Readable by the page's script (spec §7: the client reads XSRF-TOKEN).
      reply.setCookie(XSRF_COOKIE, token, { ...cookieBase, httpOnly: false });
    }
  };

  return {
    csrfToken(request, reply) {
      let token = expectedToken(request);
      if (!token) {
        const seed = randomBytes(24).toString("base64url");
        reply.setCookie(CSRF_SEED_COOKIE, seed, { ...cookieBase, httpOnly: true });
        request.cookies[CSRF_SEED_COOKIE] = seed;
        token = hmac(`anonymous:${seed}`);
      }
      setXsrfCookie(request, reply, token);
      return token;
    },
    async signIn(request, reply, userId) {
      // A new session id at every sign-in (no session fixation).
      await endSession(db, request.sessionToken ?? undefined);
      const token = await startSession(db, userId);
      reply.setCookie(SESSION_COOKIE, token, {
        ...cookieBase,
        httpOnly: true,
        maxAge: Math.floor(SESSION_LIFETIME_MS / 1000),
      });
      request.sessionToken = token;
      request.viewer = await resolveSession(token);
      setXsrfCookie(request, reply, hmac(`session:${token}`));
    },
    async signOut(request, reply) {
      await endSession(db, request.sessionToken ?? undefined);
      request.sessionToken = null;
      request.viewer = null;
      reply.clearCookie(SESSION_COOKIE, cookieBase);
      reply.clearCookie(XSRF_COOKIE, cookieBase);
    },
  };
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
