import { TYPE } from "@formatjs/icu-messageformat-parser";
import { Children, createElement, Fragment, isValidElement, type ReactNode } from "react";
import { createIntl, createIntlCache, type IntlShape } from "react-intl";
import { formatWithoutPluralRules } from "./plural-fallback.ts";

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

/** Spec §8: the console error when the browser has no plural rules for the page's language. */
export function missingPluralRulesMessage(locale: string): string {
  return `Podium: the plural rules for "${locale}" are missing (Intl.PluralRules is not available or lacks this language); counts are shown in a simpler form.`;
}

/** Whether this runtime has plural rules for the locale. */
function hasPluralRules(locale: string): boolean {
  return typeof Intl.PluralRules === "function" && Intl.PluralRules.supportedLocalesOf(locale).length > 0;
}

/**
 * A fresh intl instance for one request or one page (never a shared, switched one: a
 * visitor's language must not leak into another's page during server rendering).
 *
 * Spec §8 (R8.4): when the plural rules are missing, one console error says so (and goes to
 * `report`, the client log in the browser), and messages with a plural are formatted without them
 * (plural-fallback.ts) instead of showing their raw template.
 */
export function createPodiumIntl(
  locale: Locale,
  messages: Messages,
  cache = createIntlCache(),
  report?: (message: string) => void,
): IntlShape {
  let failed = false;
  let reported = false;
  const reportMissingPluralRules = () => {
    if (reported) return;
    reported = true;
    const message = missingPluralRulesMessage(locale);
    console.error(message);
    report?.(message);
  };
  if (!hasPluralRules(locale)) reportMissingPluralRules();
  const intl = createIntl(
    {
      locale,
      defaultLocale: DEFAULT_LOCALE,
      messages,
      onError: (error) => {
        if (error.code === "MISSING_TRANSLATION") return;
        if (error.code === "FORMAT_ERROR") failed = true;
        // Said once, above: not again for every count on the page.
        if (error.code === "FORMAT_ERROR" && typeof Intl.PluralRules !== "function") return;
        console.error(error);
      },
    },
    cache,
  );
  const reactIntlFormat = intl.formatMessage as FormatMessage;
  const compiled = compiledMessages(messages, locale);
  /**
   * Issue 15: a message compiled once per language and process, then formatted directly.
   * react-intl's own path serialises the message, locale and formats into a memo key (JSON) on
   * every call: about 0.7 ms of a 24-card search page. Anything unusual (a missing message,
   * options, a formatting error) takes react-intl's path, which reports it.
   */
  /** A message as text when it is plain text (most are), else its format; null when it doesn't parse. */
  const compile = (template: string): string | MessageFormat | null => {
    try {
      const messageFormat = intl.formatters.getMessageFormat(template, locale, intl.formats, {
        formatters: intl.formatters,
      });
      const ast = messageFormat.getAst();
      return ast.every((element) => element.type === TYPE.literal)
        ? ast.map((element) => (element as { value: string }).value).join("")
        : messageFormat;
    } catch {
      return null;
    }
  };
  const format: FormatMessage = (descriptor, values, options) => {
    const id = descriptor.id as MessageId;
    const template = messages[id];
    // <FormattedMessage> passes { ignoreTag: undefined }: no option set.
    const optionSet = options !== undefined && Object.values(options as object).some((value) => value !== undefined);
    if (optionSet || typeof template !== "string") return reactIntlFormat(descriptor, values, options);
    let message = compiled.get(id);
    if (message === undefined) {
      message = compile(template);
      compiled.set(id, message);
    }
    if (typeof message === "string") return message;
    if (message === null) return reactIntlFormat(descriptor, values, options);
    try {
      return keyedParts(message.format(keyedValues(values)));
    } catch {
      return reactIntlFormat(descriptor, values, options);
    }
  };
  const formatMessage = ((
    descriptor: { id?: string | number },
    values?: Record<string, unknown>,
    options?: unknown,
  ) => {
    failed = false;
    const result = format(descriptor, values, options);
    if (!failed) return result;
    failed = false;
    const template = messages[descriptor.id as MessageId];
    if (typeof template !== "string" || !values) return result;
    try {
      const parts = formatWithoutPluralRules(template, values, locale);
      return parts.every((part) => typeof part === "string")
        ? parts.join("")
        : createElement(Fragment, null, ...(parts as Parameters<typeof createElement>[2][]));
    } catch {
      return result;
    }
  }) as unknown as IntlShape["formatMessage"];
  return { ...intl, formatMessage, $t: formatMessage };
}

type FormatMessage = (
  descriptor: { id?: string | number },
  values?: Record<string, unknown>,
  options?: unknown,
) => unknown;
type MessageFormat = ReturnType<IntlShape["formatters"]["getMessageFormat"]>;

/** Each catalogue's messages as compiled in one language: the text, or the format to fill in. */
const compiledCatalogues = new WeakMap<Messages, Map<string, Map<MessageId, string | MessageFormat | null>>>();

function compiledMessages(messages: Messages, locale: string): Map<MessageId, string | MessageFormat | null> {
  let byLocale = compiledCatalogues.get(messages);
  if (!byLocale) {
    byLocale = new Map();
    compiledCatalogues.set(messages, byLocale);
  }
  let compiled = byLocale.get(locale);
  if (!compiled) {
    compiled = new Map();
    byLocale.set(locale, compiled);
  }
  return compiled;
}

/**
 * What react-intl does with a formatted message's parts: React elements in a list get their index
 * as key (rich text such as `<b>…</b>`), so React never warns about keys.
 */
function keyedParts(parts: unknown): unknown {
  if (!Array.isArray(parts)) return parts;
  return Children.toArray(parts as ReactNode[]).map((child, index) =>
    isValidElement(child) ? createElement(Fragment, { key: index }, child) : child,
  );
}

/** The values with each rich-text function given keyed parts (as react-intl does). */
function keyedValues(values: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!values) return values;
  const keyed: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    keyed[name] =
      typeof value === "function"
        ? (parts: unknown) => (value as (parts: unknown) => unknown)(keyedParts(parts))
        : value;
  }
  return keyed;
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
