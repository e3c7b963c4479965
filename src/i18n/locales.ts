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

/** Issue 12: at most this many entries of an Accept-Language header are read (a real one has a few). */
const ACCEPT_LANGUAGE_MAX_ENTRIES = 32;

/**
 * Issue 12: the UI language a browser asks for (Accept-Language, RFC 9110 §12.5.4), for a first
 * visit: its entries by quality (q=0 refuses one; ties keep the header's order), each matched by
 * its primary subtag (de-AT → de, pt-BR → pt); `*` or nothing Podium speaks → the default, en.
 */
export function negotiateLocale(header: string | undefined): Locale {
  if (!header) return DEFAULT_LOCALE;
  const entries: { tag: string; q: number; at: number }[] = [];
  for (const [at, part] of header.split(",").slice(0, ACCEPT_LANGUAGE_MAX_ENTRIES).entries()) {
    const [range = "", ...params] = part.trim().split(";");
    let q = 1;
    for (const param of params) {
      const [name, value] = param.trim().split("=");
      if (name?.trim().toLowerCase() !== "q") continue;
      q = /^\s*(0(\.\d{0,3})?|1(\.0{0,3})?)\s*$/.test(value ?? "") ? Number(value) : 0;
    }
    const tag = range.trim().toLowerCase();
    if (q > 0 && tag) entries.push({ tag, q, at });
  }
  entries.sort((a, b) => b.q - a.q || a.at - b.at);
  for (const { tag } of entries) {
    if (tag === "*") return DEFAULT_LOCALE;
    const primary = tag.split("-")[0];
    if (isLocale(primary)) return primary;
  }
  return DEFAULT_LOCALE;
}

/**
 * The language of a page (spec §9, issue 12): the `language` cookie when it names one; else the
 * signed-in person's saved language; else what the browser asks for (Accept-Language); else en.
 * The anonymous page cache keys on the same answer (server/page-cache/plugin.ts).
 */
export function requestLocale(request: {
  cookie: string | undefined;
  account?: string | null | undefined;
  acceptLanguage: string | undefined;
}): Locale {
  if (isLocale(request.cookie)) return request.cookie;
  if (isLocale(request.account)) return request.account;
  return negotiateLocale(request.acceptLanguage);
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
