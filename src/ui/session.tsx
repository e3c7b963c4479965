import { createContext, useContext } from "react";
import type { CookieChoice, UsageCookieMode } from "../lib/usage-session";

/** What every page knows about the visitor (boot data), for the header and forms. */
export interface SessionInfo {
  isAuthenticated: boolean;
  viewerName: string | null;
  viewerOid: string | null;
  /** The CSRF token for forms on this page (signed-in pages, and pages with forms). */
  csrfToken: string | null;
  /** Podium's environment (spec §7 host rules: production, preproduction, local, dev, nocookie). */
  environment: string;
  /** Spec §4 usage-session cookie: ask first, set it without asking, or never touch cookies. */
  cookies: UsageCookieMode;
  /** The visitor's cookie choice so far (null: not asked yet). */
  cookieChoice: CookieChoice | null;
  /** Spec §9: the usage cookie's domain in this environment (null or absent: host-only). */
  cookieDomain?: string | null;
}

export const ANONYMOUS_SESSION: SessionInfo = {
  isAuthenticated: false,
  viewerName: null,
  viewerOid: null,
  csrfToken: null,
  environment: "production",
  cookies: "off",
  cookieChoice: null,
};

export const SessionContext = createContext<SessionInfo>(ANONYMOUS_SESSION);

export function useSession(): SessionInfo {
  return useContext(SessionContext);
}

/** The hidden form field that carries the CSRF token in plain HTML forms. */
export function CsrfField() {
  const { csrfToken } = useSession();
  return csrfToken ? <input type="hidden" name="_csrf" value={csrfToken} /> : null;
}
