import type { ReactNode } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { CookieSettingsButton } from "./CookieBanner";
import { PostForm } from "./Form";
import { LanguagePicker } from "./LanguagePicker";
import { useSession } from "./session";
import "./styles/base.css";

/** The frame of Podium's pages: skip link, header with the logo, main content, footer. */
export function SiteLayout({
  children,
  headerExtra,
  header,
  footer,
}: {
  children: ReactNode;
  headerExtra?: ReactNode;
  /** Replaces the default header (the viewer page's header, spec §2). */
  header?: ReactNode;
  /** Shown above the footer, full width (the view page's bottom band). */
  footer?: ReactNode;
}) {
  const _intl = useIntl();
  return (
    <>
      <a className="skip-link" href="#main">
        <FormattedMessage id="app.skipToContent" />
      </a>
      {header ?? (
        <header className="site-header">
          <div className="site-header__inner">
            <SiteLogo />
            {headerExtra}
            <SiteNav />
          </div>
        </header>
      )}
      <main id="main" className="site-main" tabIndex={-1}>
        {children}
      </main>
      {footer}
      <footer className="site-footer">
        <p>
          <FormattedMessage id="app.footer.tagline" />
        </p>
        <div className="site-footer__settings">
          <LanguagePicker />
          <CookieSettingsButton />
        </div>
      </footer>
    </>
  );
}

export function PodiumMark() {
  return (
    <svg className="site-logo__mark" width="28" height="28" viewBox="0 0 28 28" aria-hidden="true" focusable="false">
      <rect width="28" height="28" rx="7" fill="currentColor" />
      <rect x="7" y="16" width="4" height="6" rx="1" fill="#fff" />
      <rect x="12" y="11" width="4" height="11" rx="1" fill="#fff" />
      <rect x="17" y="6" width="4" height="16" rx="1" fill="#fff" />
    </svg>
  );
}

/** Spec §2 header: Log in and Get started for anonymous visitors; the account's links for signed-in ones. */
function SiteNav() {
  const session = useSession();
  const intl = useIntl();
  if (!session.isAuthenticated) {
    return (
      <nav className="site-nav" aria-label={intl.formatMessage({ id: "nav.label" })}>
        <a className="site-nav__link" href="/login/">
          <FormattedMessage id="nav.logIn" />
        </a>
        <a className="button button--primary" href="/signup/">
          <FormattedMessage id="nav.getStarted" />
        </a>
      </nav>
    );
  }
  return (
    <nav className="site-nav" aria-label={intl.formatMessage({ id: "nav.label" })}>
      <span className="site-nav__user">{session.viewerName}</span>
      <a className="site-nav__link" href="/dashboard/next/">
        <FormattedMessage id="nav.dashboard" />
      </a>
      <a className="site-nav__link" href="/settings/">
        <FormattedMessage id="nav.settings" />
      </a>
      <PostForm action="/logout" className="site-nav__logout">
        <button type="submit" className="button--link">
          <FormattedMessage id="nav.logOut" />
        </button>
      </PostForm>
    </nav>
  );
}

/** Spec §2: the logo links to /. */
export function SiteLogo() {
  const intl = useIntl();
  return (
    <a className="site-logo" href="/" aria-label={intl.formatMessage({ id: "app.logoLabel" })}>
      <PodiumMark />
      <span className="site-logo__word" aria-hidden="true">
        <FormattedMessage id="app.name" />
      </span>
    </a>
  );
}
