import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { FormattedMessage, useIntl } from "../../../i18n/intl";
import { followAfterLog, redirectAfter } from "../../../lib/redirect";
import { loadedWhereShown } from "../../../ui/LoadedWhereShown";
import { AccountMenu, SignedOutNav, SiteLogo } from "../../../ui/SiteLayout";
import { trackEvent } from "../../events/client";
import { HEADER_LOG_EVENTS, searchLog } from "../../events/log-calls";
import { useSearchSuggestions } from "../../search-suggest/components/useSearchSuggestions";
import { HEADER_CLICK_SOURCE, type HeaderAppData } from "../header-data";
import { searchUrl } from "../search";
import "./header.css";
import { Icon } from "../../../ui/Icon";

/** Issue 30: the app badges are for signed-in people (spec §2), and so is their code. */
export const NativeAppBadges = loadedWhereShown(
  import.meta.env.SSR ? (await import("./NativeAppBadges")).NativeAppBadges : null,
  () => import("./NativeAppBadges").then((module) => module.NativeAppBadges),
);

/** Spec §9: the extra-small breakpoint; below it the search collapses to an icon. */
const EXTRA_SMALL_QUERY = "(max-width: 433px)";

/**
 * The viewer page's header (spec §2): logo, search (collapsing to an icon on the smallest
 * screens), trending searches, Log in / Get started or the account dropdown, an optional back
 * button and the native-app badges. Not rendered without searchTerms.
 */
export function ViewerHeader({
  appData,
  onBack,
  initialSearch = "",
}: {
  appData: HeaderAppData;
  onBack?: () => void;
  initialSearch?: string;
}) {
  const intl = useIntl();
  const headerRef = useRef<HTMLElement>(null);
  // Spec §7: header logs carry the presentation's oid when the header sits on a view page.
  const logFields = appData.oid ? { oid: appData.oid } : {};
  const log = (eventName: string, fields: Record<string, unknown> = {}) =>
    trackEvent(eventName, { ...logFields, ...fields });

  // Spec §7 click logo: the logo is the shared SiteLogo, so its click is caught on the element.
  const oid = appData.oid;
  useEffect(() => {
    const logo = headerRef.current?.querySelector<HTMLAnchorElement>("a.site-logo");
    if (!logo) return;
    const onClick = (event: globalThis.MouseEvent) =>
      followAfterLog(event, trackEvent(HEADER_LOG_EVENTS.clickLogo, oid ? { oid } : {}));
    logo.addEventListener("click", onClick);
    return () => logo.removeEventListener("click", onClick);
  }, [oid]);

  if (!appData.searchTerms) return null;
  const trending = appData.searchTerms[appData.authorSegment] ?? appData.searchTerms.other ?? [];
  return (
    <header className="viewer-header" ref={headerRef}>
      <div className="viewer-header__inner">
        {onBack ? (
          <button type="button" className="viewer-header__back" onClick={onBack}>
            <span aria-hidden="true">←</span> <FormattedMessage id="header.back" />
          </button>
        ) : null}
        <SiteLogo />
        <HeaderSearch count={appData.searchableCount} initial={initialSearch} log={log} />
        {appData.isAuthenticated ? (
          <AccountMenu name={appData.viewerName ?? ""} clickSource={HEADER_CLICK_SOURCE} />
        ) : (
          <SignedOutNav
            onLogIn={(event) => followAfterLog(event, log(HEADER_LOG_EVENTS.visitPricingPage))}
            onGetStarted={(event) => followAfterLog(event, log(HEADER_LOG_EVENTS.visitSignupPage))}
          />
        )}
      </div>
      {trending.length > 0 ? (
        <nav className="trending" aria-label={intl.formatMessage({ id: "header.trending" })}>
          <span className="trending__label" aria-hidden="true">
            <FormattedMessage id="header.trending" />
          </span>
          <ul>
            {trending.map((term) => (
              <li key={term}>
                <a
                  className="trending__term"
                  href={searchUrl(term)}
                  onClick={(event) =>
                    followAfterLog(event, log(HEADER_LOG_EVENTS.searchPresentations, searchLog(term)))
                  }
                >
                  {term}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      {appData.isAuthenticated ? <NativeAppBadges apps={appData.nativeApps} /> : null}
    </header>
  );
}

function HeaderSearch({
  count,
  initial,
  log,
}: {
  count: number;
  initial: string;
  log: (eventName: string, fields?: Record<string, unknown>) => Promise<boolean>;
}) {
  const intl = useIntl();
  const [expanded, setExpanded] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const submitRef = useRef<HTMLButtonElement>(null);
  const id = useId();
  // Closing gives focus back to the search icon (the close button goes away with the open search).
  const collapse = () => {
    setExpanded(false);
    requestAnimationFrame(() => submitRef.current?.focus());
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // Spec §2: on the smallest size, a submit while collapsed expands instead of searching.
    if (!expanded && window.matchMedia(EXTRA_SMALL_QUERY).matches) {
      setExpanded(true);
      requestAnimationFrame(() => inputRef.current?.focus());
      return;
    }
    search(inputRef.current?.value ?? "");
  };
  // Spec §7: log search presentations (§3 search log), then search once the log settles.
  const search = (term: string) =>
    void redirectAfter(
      (url) => window.location.assign(url),
      searchUrl(term),
      log(HEADER_LOG_EVENTS.searchPresentations, searchLog(term)),
    );
  // Issue 15 item 4: suggestions as you type (a trending term runs its search like a submit).
  const suggestions = useSearchSuggestions({ inputRef, onTerm: search });

  const placeholder = intl.formatMessage({ id: "header.searchPlaceholder" }, { count });
  return (
    <search className={`header-search${expanded ? " header-search--expanded" : ""}`}>
      <form action="/explore/search/" method="get" onSubmit={onSubmit} className="header-search__form">
        <label htmlFor={id} className="visually-hidden">
          {placeholder}
        </label>
        <input
          ref={inputRef}
          id={id}
          name="search"
          type="search"
          defaultValue={initial}
          placeholder={placeholder}
          autoComplete="off"
          maxLength={200}
          className="header-search__input"
          {...suggestions.inputProps}
          onClick={() => void log(HEADER_LOG_EVENTS.searchBarClicked)}
          onFocus={() => void log(HEADER_LOG_EVENTS.enterSearchBar)}
          onKeyDown={(event) => {
            if (suggestions.onKeyDown(event)) return;
            if (event.key === "Escape" && expanded) collapse();
          }}
        />
        <button
          ref={submitRef}
          type="submit"
          className="header-search__submit"
          aria-label={intl.formatMessage({ id: "header.search" })}
        >
          <Icon path="M15.5 14h-.8l-.3-.3A6.5 6.5 0 1 0 9.5 16a6.5 6.5 0 0 0 4.2-1.6l.3.3v.8l5 5 1.5-1.5zm-6 0a4.5 4.5 0 1 1 0-9 4.5 4.5 0 0 1 0 9z" />
        </button>
        {expanded ? (
          <button
            type="button"
            className="header-search__close"
            aria-label={intl.formatMessage({ id: "header.closeSearch" })}
            onClick={collapse}
          >
            ×
          </button>
        ) : null}
      </form>
      {suggestions.popup}
    </search>
  );
}
