import { useId } from "react";
import { FormattedMessage, useIntl } from "../i18n/intl";
import { LANGUAGE_COOKIE, LANGUAGE_COOKIE_EXPIRY_DAYS, LOCALE_NAMES, LOCALES, type Locale } from "../i18n/locales";
import { DAY_MS, writeCookie } from "../lib/usage-session";

/** The part of the Cookie Store API used here (Chromium 87+, Firefox 140+, Safari 18.4+). */
interface CookieStoreLike {
  set(options: { name: string; value: string; expires: number; path: string; sameSite: "lax" }): Promise<void>;
}

/**
 * Spec §9: the UI language comes from the `language` cookie. Choosing one sets the cookie and
 * shows the same page again in that language.
 *
 * The reload waits until the cookie is stored where requests read it: a `document.cookie` write
 * reaches Chromium's network process on its own, and a reload right after it can overtake it and
 * go out with the old language (seen on a busy machine: Korean chosen, Japanese served).
 * `cookieStore.set` resolves once the cookie is stored; without it, `document.cookie` it is.
 */
export async function chooseLanguage(locale: Locale): Promise<void> {
  const secure = window.location.protocol === "https:";
  const store = (window as { cookieStore?: CookieStoreLike }).cookieStore;
  let stored = false;
  if (store) {
    try {
      await store.set({
        name: LANGUAGE_COOKIE,
        value: locale,
        expires: Date.now() + LANGUAGE_COOKIE_EXPIRY_DAYS * DAY_MS,
        path: "/",
        sameSite: "lax",
      });
      stored = true;
    } catch {
      // A store that refuses (an insecure context's stub, a sandbox): the classic write below.
    }
  }
  if (!stored) writeCookie(document, LANGUAGE_COOKIE, locale, { expiryDays: LANGUAGE_COOKIE_EXPIRY_DAYS, secure });
  window.location.reload();
}

/** The footer's language switch (the account menu has one too, issue 12). */
export function LanguagePicker() {
  const intl = useIntl();
  const id = useId();
  const choose = chooseLanguage;
  return (
    <span className="language-picker">
      <label htmlFor={id}>
        <FormattedMessage id="language.label" />
      </label>
      <select
        id={id}
        className="language-picker__select"
        value={intl.locale}
        onChange={(event) => void choose(event.currentTarget.value as Locale)}
      >
        {LOCALES.map((locale) => (
          <option key={locale} value={locale} lang={locale}>
            {LOCALE_NAMES[locale]}
          </option>
        ))}
      </select>
    </span>
  );
}
