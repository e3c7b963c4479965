/**
 * Spec §4 "Usage-session id" and §9: the id that ties a visitor's usage events together.
 * It comes from the usage-session cookie when there is one, otherwise it is random per page
 * load. The cookie lasts 30 minutes (renewed with each event) and holds encoded JSON with
 * session_id. It is set only when no cookie consent is needed, or once performance cookies
 * are allowed; it is removed when they are refused. The no-cookie test host and embed mode
 * never touch cookies.
 */

/** §9: the usage-session cookie, 30 minutes (cookie expiry is given in days). */
export const USAGE_SESSION_COOKIE = "podium_usage_session";
export const USAGE_SESSION_EXPIRY_DAYS = 30 / (24 * 60);
/** The visitor's cookie choice: "performance" (allowed) or "necessary" (refused); one year. */
export const COOKIE_CONSENT_COOKIE = "podium_cookie_consent";
export const COOKIE_CONSENT_EXPIRY_DAYS = 365;
/** The consent-change event the cookie banner dispatches on window (detail: { performance }). */
export const COOKIE_CONSENT_CHANGE_EVENT = "podium:cookie-consent-change";

/**
 * How a page handles cookies (boot data): "consent" asks first, "always" needs no consent
 * (PODIUM_COOKIE_CONSENT=not-required), "off" never touches them (no-cookie host, embed mode).
 */
export type UsageCookieMode = "consent" | "always" | "off";
export type CookieChoice = "performance" | "necessary";

/** The part of `document` this needs (a fake in tests). */
export interface CookieJar {
  cookie: string;
}

export const DAY_MS = 24 * 60 * 60 * 1000;

export function readCookie(jar: CookieJar, name: string): string | null {
  for (const part of jar.cookie.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

export function writeCookie(
  jar: CookieJar,
  name: string,
  value: string,
  options: { expiryDays: number; secure: boolean; now?: number; domain?: string | null },
): void {
  const expires = new Date((options.now ?? Date.now()) + options.expiryDays * DAY_MS).toUTCString();
  const domain = options.domain ? `; domain=${options.domain}` : "";
  jar.cookie = `${name}=${value}; expires=${expires}; path=/${domain}; SameSite=Lax${options.secure ? "; Secure" : ""}`;
}

export function removeCookie(jar: CookieJar, name: string, domain: string | null = null): void {
  jar.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/${domain ? `; domain=${domain}` : ""}; SameSite=Lax`;
}

/** Hosts that can't take a cookie domain: localhost and IP addresses (a browser refuses one there). */
function isLocalOrAddress(host: string): boolean {
  return host === "localhost" || host.endsWith(".localhost") || /^[\d.]+$/.test(host) || host.includes(":");
}

/**
 * §9 "The cookie domain is chosen by host: localhost, the dev domain or the production domain."
 * The usage cookie's domain for an environment served at `publicHost` (PODIUM_PUBLIC_URL's host):
 * none (a host-only cookie) on local, on localhost and on IP addresses; otherwise the environment's
 * own domain (dev, pre-production, production: the public host without a leading "www."), so the
 * cookie holds across that domain's hosts. The no-cookie host sets none at all.
 */
export function usageCookieDomain(environment: string, publicHost: string): string | null {
  const host = publicHost.toLowerCase().replace(/\.$/, "");
  if (environment === "local" || environment === "nocookie" || !host.includes(".") || isLocalOrAddress(host)) {
    return null;
  }
  return host.startsWith("www.") ? host.slice(4) : host;
}

/**
 * The domain attribute a page may use: the environment's domain when the page's host is on it,
 * else none (a browser drops a cookie whose domain doesn't match the page, and then nothing is kept).
 */
export function cookieDomainForPage(pageHost: string, environmentDomain: string | null | undefined): string | null {
  if (!environmentDomain) return null;
  const host = pageHost.toLowerCase();
  return host === environmentDomain || host.endsWith(`.${environmentDomain}`) ? environmentDomain : null;
}

export function readCookieChoice(jar: CookieJar): CookieChoice | null {
  const value = readCookie(jar, COOKIE_CONSENT_COOKIE);
  return value === "performance" || value === "necessary" ? value : null;
}

/** The session_id inside the usage-session cookie, or null when absent or unreadable. */
export function readUsageSessionId(jar: CookieJar): string | null {
  const raw = readCookie(jar, USAGE_SESSION_COOKIE);
  if (!raw) return null;
  try {
    const value = JSON.parse(decodeURIComponent(raw)) as { session_id?: unknown };
    return typeof value.session_id === "string" && /^[A-Za-z0-9_-]{1,100}$/.test(value.session_id)
      ? value.session_id
      : null;
  } catch {
    return null;
  }
}

export function encodeUsageSession(sessionId: string): string {
  return encodeURIComponent(JSON.stringify({ session_id: sessionId }));
}

export interface UsageSession {
  /** The id to send as user.session_id. */
  readonly id: string;
  /** The cookie-derived id for platform.id: the id while it lives in a cookie, else null. */
  readonly cookieId: string | null;
  /** Renews the cookie (30 more minutes) when cookies are allowed; call with each event. */
  touch(now?: number): void;
  /** A consent change: allowed sets the cookie, refused removes it (the id stays for this page). */
  consentChanged(performance: boolean, now?: number): void;
}

export function createUsageSession(options: {
  mode: UsageCookieMode;
  jar: CookieJar;
  randomId: () => string;
  /** Served over HTTPS: the cookie is Secure. */
  secure: boolean;
  /** §9: the cookie's domain (cookieDomainForPage), or null for a host-only cookie. */
  domain?: string | null;
  now?: number;
}): UsageSession {
  const { mode, jar, secure } = options;
  const domain = options.domain ?? null;
  const fromCookie = mode === "off" ? null : readUsageSessionId(jar);
  const id = fromCookie ?? options.randomId();
  let allowed = mode === "always" || (mode === "consent" && readCookieChoice(jar) === "performance");
  let inCookie = fromCookie !== null && allowed;
  const write = (now?: number) => {
    writeCookie(jar, USAGE_SESSION_COOKIE, encodeUsageSession(id), {
      expiryDays: USAGE_SESSION_EXPIRY_DAYS,
      secure,
      now,
      domain,
    });
    inCookie = true;
  };
  if (mode !== "off") {
    if (allowed) write(options.now);
    // A cookie left from before a refusal goes.
    else if (fromCookie !== null) removeCookie(jar, USAGE_SESSION_COOKIE, domain);
  }
  return {
    id,
    get cookieId() {
      return inCookie ? id : null;
    },
    touch(now) {
      if (mode !== "off" && allowed) write(now);
    },
    consentChanged(performance, now) {
      if (mode !== "consent") return;
      allowed = performance;
      if (performance) write(now);
      else {
        removeCookie(jar, USAGE_SESSION_COOKIE, domain);
        inCookie = false;
      }
    },
  };
}
