import { useId } from "react";
import { FormattedMessage, useIntl } from "../i18n/intl";
import { LANGUAGE_COOKIE, LANGUAGE_COOKIE_EXPIRY_DAYS, LOCALE_NAMES, LOCALES, type Locale } from "../i18n/locales";
import { writeCookie } from "../lib/usage-session";

/**
 * Spec §9: the UI language comes from the `language` cookie. Choosing one sets the cookie and
 * shows the same page again in that language.
 */
export function chooseLanguage(locale: Locale): void {
  writeCookie(document, LANGUAGE_COOKIE, locale, {
    expiryDays: LANGUAGE_COOKIE_EXPIRY_DAYS,
    secure: window.location.protocol === "https:",
  });
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
        onChange={(event) => choose(event.currentTarget.value as Locale)}
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
