import { createIntl, createIntlCache, type IntlShape } from "react-intl";

/** Spec §9: the UI languages; the default is en. */
export const LOCALES = ["de", "en", "es", "fr", "pt", "hu", "it", "ja", "ko"] as const;
export type Locale = (typeof LOCALES)[number];
/** Each language by its own name (the same in every UI language, so not a message). */
export const LOCALE_NAMES: Record<Locale, string> = {
  de: "Deutsch",
  en: "English",
  es: "Español",
  fr: "Français",
  pt: "Português",
  hu: "Magyar",
  it: "Italiano",
  ja: "日本語",
  ko: "한국어",
};
/** How long the language cookie lasts, in days. */
export const LANGUAGE_COOKIE_EXPIRY_DAYS = 365;
export const DEFAULT_LOCALE: Locale = "en";
/** Product brief: the language cookie is named `language` and holds a code. */
export const LANGUAGE_COOKIE = "language";

export type MessageId = keyof typeof import("./messages/en.json");
export type Messages = Record<MessageId, string>;

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/** Spec §9: the language comes from the language cookie (or the page's lang attribute), else en. */
export function resolveLocale(cookieValue: string | undefined): Locale {
  return isLocale(cookieValue) ? cookieValue : DEFAULT_LOCALE;
}

/**
 * A fresh intl instance for one request or one page (never a shared, switched one: a
 * visitor's language must not leak into another's page during server rendering).
 */
export function createPodiumIntl(locale: Locale, messages: Messages, cache = createIntlCache()): IntlShape {
  return createIntl(
    {
      locale,
      defaultLocale: DEFAULT_LOCALE,
      messages,
      // Spec §8: missing plural rules are a console error, not a crash.
      onError: (error) => {
        if (error.code === "MISSING_TRANSLATION") return;
        console.error(error);
      },
    },
    cache,
  );
}

const serverIntlCaches = new Map<Locale, ReturnType<typeof createIntlCache>>();

/**
 * Issue 11 (a cheap miss): the server's formatters for one language, kept for the process. A fresh
 * cache per request parsed every ICU message again on every render; the formatters depend on the
 * locale and the message only, so every request in that language may share them.
 */
export function serverIntlCache(locale: Locale): ReturnType<typeof createIntlCache> {
  let cache = serverIntlCaches.get(locale);
  if (!cache) {
    cache = createIntlCache();
    serverIntlCaches.set(locale, cache);
  }
  return cache;
}

declare global {
  namespace FormatjsIntl {
    interface Message {
      ids: MessageId;
    }
  }
}
