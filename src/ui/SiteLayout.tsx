import type { MouseEvent, ReactNode } from "react";
import { FormattedMessage, useIntl } from "../i18n/intl";
import { CookieSettingsButton } from "./CookieBanner";
import { LanguagePicker } from "./LanguagePicker";
import { loadedWhereShown } from "./LoadedWhereShown";
import { useSession } from "./session";
import "./styles/base.css";

/** Issue 30: the account menu's code reaches signed-in people's browsers only. */
export const AccountMenu = loadedWhereShown(
  import.meta.env.SSR ? (await import("./AccountMenu")).AccountMenu : null,
  () => import("./AccountMenu").then((module) => module.AccountMenu),
);

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

/**
 * Spec §2 header: Log in and Get started for anonymous visitors; the account menu (the same one
 * on every page, issue 12) for signed-in ones.
 */
function SiteNav() {
  const session = useSession();
  if (session.isAuthenticated) return <AccountMenu name={session.viewerName ?? ""} />;
  return <SignedOutNav />;
}

/** Spec §2, R2.6: Log in → /login/ and Get started → /signup/, kept on one line at every width. */
export function SignedOutNav({
  onLogIn,
  onGetStarted,
}: {
  onLogIn?: (event: MouseEvent<HTMLAnchorElement>) => void;
  onGetStarted?: (event: MouseEvent<HTMLAnchorElement>) => void;
}) {
  const intl = useIntl();
  return (
    <nav className="site-nav" aria-label={intl.formatMessage({ id: "nav.label" })}>
      <a className="site-nav__link site-nav__login" href="/login/" onClick={onLogIn}>
        <FormattedMessage id="nav.logIn" />
      </a>
      <a className="button button--primary site-nav__signup" href="/signup/" onClick={onGetStarted}>
        <FormattedMessage id="nav.getStarted" />
      </a>
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
