import { useEffect, useState } from "react";
import { FormattedMessage } from "../i18n/intl";
import { loadedWhereShown } from "./LoadedWhereShown";
import { useSession } from "./session";
import "./styles/cookies.css";

/** Issue 30: the bar's code reaches only the browsers that show it (CookieBar.tsx). */
const CookieBar = loadedWhereShown(import.meta.env.SSR ? (await import("./CookieBar")).CookieBar : null, () =>
  import("./CookieBar").then((module) => module.CookieBar),
);

/** The footer's "Cookie settings" button opens the banner again with this window event. */
export const OPEN_COOKIE_SETTINGS_EVENT = "podium:open-cookie-settings";

/**
 * Spec §4 usage-session cookie, where consent is needed: asks once whether performance
 * cookies may be used, remembers the answer for a year, and tells the page with the
 * consent-change event (lib/usage-session.ts sets or removes the cookie). Not a modal: a slim
 * bar along the bottom, beneath which the page ends (issue 12: it never covers the main action),
 * shown only once scripts run (nothing to choose without them). This part decides when it shows
 * (the first visit, and the footer's "Cookie settings"); CookieBar.tsx is the bar.
 */
export function CookieBanner() {
  const session = useSession();
  const [open, setOpen] = useState(session.cookies === "consent" && session.cookieChoice === null);
  const [openedFrom, setOpenedFrom] = useState<HTMLElement | null>(null);

  useEffect(() => {
    if (session.cookies !== "consent") return;
    const reopen = (event: Event) => {
      setOpenedFrom((event as CustomEvent<{ from?: HTMLElement }>).detail?.from ?? null);
      setOpen(true);
    };
    window.addEventListener(OPEN_COOKIE_SETTINGS_EVENT, reopen);
    return () => window.removeEventListener(OPEN_COOKIE_SETTINGS_EVENT, reopen);
  }, [session.cookies]);

  if (session.cookies !== "consent" || !open) return null;
  return (
    <CookieBar
      openedFrom={openedFrom}
      onChosen={() => {
        setOpen(false);
        openedFrom?.focus();
      }}
    />
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
