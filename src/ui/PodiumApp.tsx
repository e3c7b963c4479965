import { type ReactNode, StrictMode, useEffect } from "react";
import { type IntlShape, RawIntlProvider } from "../i18n/intl";
import { CookieBanner } from "./CookieBanner";
import { whenPartsHydrated } from "./LoadedWhereShown";
import { ANONYMOUS_SESSION, SessionContext, type SessionInfo } from "./session";

/**
 * The root of every page, identical on the server and in the browser (hydration needs
 * the same tree): the request's own intl instance, and a mark once hydrated.
 */
export function PodiumApp({
  intl,
  session = ANONYMOUS_SESSION,
  children,
}: {
  intl: IntlShape;
  session?: SessionInfo;
  children: ReactNode;
}) {
  return (
    <StrictMode>
      <RawIntlProvider value={intl}>
        <SessionContext.Provider value={session}>
          <HydrationMark />
          {children}
          <CookieBanner />
        </SessionContext.Provider>
      </RawIntlProvider>
    </StrictMode>
  );
}

/** `data-hydrated` on <html> once the page answers everywhere: its parts loaded where shown too. */
function HydrationMark() {
  useEffect(() => {
    whenPartsHydrated(() => {
      document.documentElement.dataset.hydrated = "true";
    });
  }, []);
  return null;
}
