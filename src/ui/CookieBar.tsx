import { useEffect, useRef } from "react";
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

/** The bar's height while it shows (CSS custom property on <html>; the page's bottom padding reads it). */
export const COOKIE_BAR_HEIGHT_PROPERTY = "--cookie-bar-height";

/**
 * The cookie banner's bar (CookieBanner.tsx says when it shows): the question, the two choices,
 * and the room it takes at the page's end. Issue 30: its code reaches only browsers that show it
 * (a first visit, or "Cookie settings"); until it has hydrated it stays hidden (cookies.css), so
 * no choice is clicked before it can be taken.
 */
export function CookieBar({ openedFrom, onChosen }: { openedFrom: HTMLElement | null; onChosen: () => void }) {
  const session = useSession();
  const intl = useIntl();
  const region = useRef<HTMLElement>(null);

  useEffect(() => {
    region.current?.setAttribute("data-ready", "true");
    if (openedFrom) region.current?.focus();
  }, [openedFrom]);

  // Issue 12: while the bar shows, the page ends above it (bottom padding of its height), so it
  // never covers the page's last lines or a full-height player's Present button.
  useEffect(() => {
    const bar = region.current;
    if (!bar) return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() =>
      root.style.setProperty(COOKIE_BAR_HEIGHT_PROPERTY, `${Math.ceil(bar.getBoundingClientRect().height)}px`),
    );
    observer.observe(bar);
    return () => {
      observer.disconnect();
      root.style.removeProperty(COOKIE_BAR_HEIGHT_PROPERTY);
    };
  }, []);

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
    onChosen();
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
