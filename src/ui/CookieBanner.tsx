import { useEffect, useRef, useState } from "react";
import { FormattedMessage, useIntl } from "../i18n/intl";
import {
  COOKIE_CONSENT_CHANGE_EVENT,
  COOKIE_CONSENT_COOKIE,
  COOKIE_CONSENT_EXPIRY_DAYS,
  type CookieChoice,
  cookieDomainForPage,
  removeCookie,
  USAGE_SESSION_COOKIE,
  writeCookie,
} from "../lib/usage-session";
import { useSession } from "./session";
import "./styles/cookies.css";

/** The bar's height while it shows (CSS custom property on <html>; the page's bottom padding reads it). */
export const COOKIE_BAR_HEIGHT_PROPERTY = "--cookie-bar-height";

/** The footer's "Cookie settings" button opens the banner again with this window event. */
export const OPEN_COOKIE_SETTINGS_EVENT = "podium:open-cookie-settings";

/**
 * Spec §4 usage-session cookie, where consent is needed: asks once whether performance
 * cookies may be used, remembers the answer for a year, and tells the page with the
 * consent-change event (lib/usage-session.ts sets or removes the cookie). Not a modal: a slim
 * bar along the bottom, beneath which the page ends (issue 12: it never covers the main action),
 * shown only once scripts run (nothing to choose without them).
 */
export function CookieBanner() {
  const session = useSession();
  const intl = useIntl();
  const [open, setOpen] = useState(session.cookies === "consent" && session.cookieChoice === null);
  const [openedFrom, setOpenedFrom] = useState<HTMLElement | null>(null);
  const region = useRef<HTMLElement>(null);

  useEffect(() => {
    if (session.cookies !== "consent") return;
    const reopen = (event: Event) => {
      setOpenedFrom((event as CustomEvent<{ from?: HTMLElement }>).detail?.from ?? null);
      setOpen(true);
    };
    window.addEventListener(OPEN_COOKIE_SETTINGS_EVENT, reopen);
    return () => window.removeEventListener(OPEN_COOKIE_SETTINGS_EVENT, reopen);
  }, [session.cookies]);

  useEffect(() => {
    if (open && openedFrom) region.current?.focus();
  }, [open, openedFrom]);

  // Issue 12: while the bar shows, the page ends above it (bottom padding of its height), so it
  // never covers the page's last lines or a full-height player's Present button.
  useEffect(() => {
    const bar = region.current;
    if (!open || !bar) return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() =>
      root.style.setProperty(COOKIE_BAR_HEIGHT_PROPERTY, `${Math.ceil(bar.getBoundingClientRect().height)}px`),
    );
    observer.observe(bar);
    return () => {
      observer.disconnect();
      root.style.removeProperty(COOKIE_BAR_HEIGHT_PROPERTY);
    };
  }, [open]);

  if (session.cookies !== "consent" || !open) return null;

  const choose = (choice: CookieChoice) => {
    const secure = window.location.protocol === "https:";
    writeCookie(document, COOKIE_CONSENT_COOKIE, choice, { expiryDays: COOKIE_CONSENT_EXPIRY_DAYS, secure });
    if (choice === "necessary") {
      // Spec §9: the usage cookie may carry the environment's domain; a host-only one may be left from before.
      const domain = cookieDomainForPage(window.location.hostname, session.cookieDomain);
      removeCookie(document, USAGE_SESSION_COOKIE);
      if (domain) removeCookie(document, USAGE_SESSION_COOKIE, domain);
    }
    window.dispatchEvent(
      new CustomEvent(COOKIE_CONSENT_CHANGE_EVENT, { detail: { performance: choice === "performance" } }),
    );
    setOpen(false);
    openedFrom?.focus();
  };

  return (
    <section
      ref={region}
      className="cookie-banner"
      aria-label={intl.formatMessage({ id: "cookies.label" })}
      tabIndex={-1}
      data-testid="cookie-banner"
    >
      <p className="cookie-banner__text">
        <FormattedMessage id="cookies.text" />
      </p>
      <div className="cookie-banner__actions">
        <button type="button" className="button" onClick={() => choose("necessary")}>
          <FormattedMessage id="cookies.refuse" />
        </button>
        <button type="button" className="button button--primary" onClick={() => choose("performance")}>
          <FormattedMessage id="cookies.allow" />
        </button>
      </div>
    </section>
  );
}

/** "Cookie settings" for the footer: opens the banner again (only where consent is asked). */
export function CookieSettingsButton() {
  const session = useSession();
  if (session.cookies !== "consent") return null;
  return (
    <button
      type="button"
      className="link-button"
      onClick={(event) =>
        window.dispatchEvent(new CustomEvent(OPEN_COOKIE_SETTINGS_EVENT, { detail: { from: event.currentTarget } }))
      }
    >
      <FormattedMessage id="cookies.settings" />
    </button>
  );
}
