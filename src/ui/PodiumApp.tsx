import { type ReactNode, StrictMode, useEffect } from "react";
import { type IntlShape, RawIntlProvider } from "react-intl";

/**
 * The root of every page, identical on the server and in the browser (hydration needs
 * the same tree): the request's own intl instance, and a mark once hydrated.
 */
export function PodiumApp({ intl, children }: { intl: IntlShape; children: ReactNode }) {
  return (
    <StrictMode>
      <RawIntlProvider value={intl}>
        <HydrationMark />
        {children}
      </RawIntlProvider>
    </StrictMode>
  );
}

function HydrationMark() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return null;
}
