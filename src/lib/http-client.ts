/**
 * The shared HTTP client of spec §7: the CSRF token comes from the XSRF-TOKEN cookie and goes
 * in the X-XSRF-TOKEN header; statuses 200–299 are success; a failure rejects with the
 * status text and the body is not read.
 */
export const XSRF_COOKIE_NAME = "XSRF-TOKEN";
export const XSRF_HEADER_NAME = "X-XSRF-TOKEN";
/** Spec §8, exact. */
export const MISSING_CSRF_MESSAGE = "Cannot make request without CSRF token.";

export function readCookie(cookies: string, name: string): string | null {
  for (const part of cookies.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) {
      const value = rest.join("=");
      try {
        return decodeURIComponent(value) || null;
      } catch {
        return value || null;
      }
    }
  }
  return null;
}

/** Spec §7: 200–299 is success. */
export function isSuccessStatus(status: number): boolean {
  return status >= 200 && status <= 299;
}

/** Spec §7: on pre-production, a Basic authorization header from the credentials in the page's address. */
export function basicAuthorizationFrom(href: string): string | null {
  try {
    const url = new URL(href);
    if (!url.username) return null;
    const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    const bytes = new TextEncoder().encode(credentials);
    let binary = "";
    for (const byte of bytes) binary += String.fromCharCode(byte);
    return `Basic ${btoa(binary)}`;
  } catch {
    return null;
  }
}

export interface CsrfRequestOptions {
  /** The document's cookies (document.cookie in the browser). */
  cookies: string;
  /** Sent as Authorization when present (pre-production). */
  authorization?: string | null;
  fetchImpl?: typeof fetch;
}

/** A state-changing request with no body: JSON content type and the CSRF header, or a throw before any call. */
export async function sendWithCsrf(
  method: "PUT" | "DELETE" | "POST",
  url: string,
  options: CsrfRequestOptions,
): Promise<Response> {
  const token = readCookie(options.cookies, XSRF_COOKIE_NAME);
  if (!token) throw new Error(MISSING_CSRF_MESSAGE);
  const headers: Record<string, string> = { "Content-Type": "application/json", [XSRF_HEADER_NAME]: token };
  if (options.authorization) headers.Authorization = options.authorization;
  // keepalive: a like (or any change without a body) made just before the visitor leaves or reloads
  // the page still reaches the server; the browser would otherwise cancel it with the page.
  const response = await (options.fetchImpl ?? fetch)(url, {
    method,
    headers,
    credentials: "same-origin",
    keepalive: true,
  });
  if (!isSuccessStatus(response.status)) throw new Error(response.statusText || `HTTP ${response.status}`);
  return response;
}

/**
 * R7.3: the absolute address of one of Podium's own paths, on the page's origin. A page opened
 * with credentials in its address (`http://qa:secret@host/…`, pre-production) has a document URL
 * that carries them, and fetch refuses any URL that does, relative ones included; the origin
 * never carries them. Elsewhere (no window, or an absolute URL) the address is returned as it is.
 */
export function onPageOrigin(path: string): string {
  if (typeof window === "undefined" || !path.startsWith("/") || path.startsWith("//")) return path;
  return `${window.location.origin}${path}`;
}
