import { Children, createElement, Fragment, isValidElement, type ReactNode } from "react";
import {
  type CompiledMessages,
  createFormatters,
  type Formatters,
  formatElements,
  type MessageElement,
} from "./icu.ts";
import type { formatWithoutPluralRules } from "./plural-fallback.ts";

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

/** The intl object (intl.tsx carries it to the components; react-intl's API, issue 30 item 1). */
export type PrimitiveType = string | number | bigint | boolean | null | undefined | Date;
/** A rich-text tag's function (`<link>…</link>`): its parts in, what to render out. */
export type RichTextFunction = (parts: ReactNode[]) => ReactNode;
export type MessageValues = Record<string, PrimitiveType | ReactNode | RichTextFunction>;

export interface MessageDescriptor {
  id: MessageId;
  description?: string;
  defaultMessage?: string;
}

export interface IntlShape {
  locale: Locale;
  /** A message's text; with React nodes or tag functions among the values, what to render. */
  formatMessage(descriptor: MessageDescriptor, values?: Record<string, PrimitiveType>): string;
  formatMessage(descriptor: MessageDescriptor, values?: MessageValues): ReactNode;
  $t: IntlShape["formatMessage"];
  formatNumber(value: number | bigint, options?: Intl.NumberFormatOptions): string;
  formatDate(value: Date | number | string, options?: Intl.DateTimeFormatOptions): string;
  formatTime(value: Date | number | string, options?: Intl.DateTimeFormatOptions): string;
}

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
  // Issue 32 item 5: browsers send a handful of different headers; each is read once.
  const known = negotiated.get(header);
  if (known !== undefined) return known;
  const locale = negotiate(header);
  if (negotiated.size >= NEGOTIATED_KEPT) negotiated.clear();
  negotiated.set(header, locale);
  return locale;
}

/** Accept-Language headers whose answer is kept (a flood of different ones starts the map again). */
const NEGOTIATED_KEPT = 1_000;
const negotiated = new Map<string, Locale>();

function negotiate(header: string): Locale {
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
export function hasPluralRules(locale: string): boolean {
  if (typeof Intl.PluralRules !== "function") return false;
  // Asked for every intl object, one a page: supportedLocalesOf costs more than the answer's lookup.
  let known = pluralRulesByLocale.get(locale);
  if (known === undefined) {
    known = Intl.PluralRules.supportedLocalesOf(locale).length > 0;
    pluralRulesByLocale.set(locale, known);
  }
  return known;
}
/** hasPluralRules' answers by locale (a handful: the locales Podium speaks). */
const pluralRulesByLocale = new Map<string, boolean>();

/** Issue 30: the Intl formatters one intl object uses (react-intl's "intl cache"). */
export function createIntlCache(): Formatters {
  return createFormatters();
}

/** @formatjs/intl's options for dates and times: others given to formatDate are left out. */
const DATE_TIME_OPTIONS = [
  "formatMatcher",
  "timeZone",
  "hour12",
  "weekday",
  "era",
  "year",
  "month",
  "day",
  "hour",
  "minute",
  "second",
  "timeZoneName",
  "hourCycle",
  "dateStyle",
  "timeStyle",
  "calendar",
  "numberingSystem",
  "fractionalSecondDigits",
] as const;

/**
 * createPodiumIntl's intl from a compiled catalogue (the browser's). Where the source is given (the
 * server, tests), a message the catalogue lacks shows its default message formatted, and one that
 * fails shows its template, as react-intl does with source messages; without it (the browser: no
 * parser, no templates) the default message as it is, and the message's id, as react-intl does with
 * precompiled ones. No Podium component gives a default message; a failure is a bug the console names.
 */
export function createCompiledIntl(
  locale: Locale,
  catalogue: CompiledMessages,
  cache: Formatters = createIntlCache(),
  report?: (message: string) => void,
  withoutPluralRules?: typeof formatWithoutPluralRules,
  source?: { parse: (message: string) => MessageElement[]; messages: Messages },
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
  /** A message that could not be formatted (react-intl's FORMAT_ERROR): said in the console. */
  const formatError = (id: string, error: unknown) => {
    failed = true;
    // Said once, above: not again for every count on the page.
    if (typeof Intl.PluralRules !== "function") return;
    console.error(new Error(`Error formatting message: "${id}", using id as fallback.`, { cause: error }));
  };
  const format = (descriptor: MessageDescriptor, values: Record<string, unknown> | undefined): unknown => {
    const id = String(descriptor.id);
    const message = Object.hasOwn(catalogue, id) ? catalogue[id] : undefined;
    if (message === undefined || message === "") {
      // A missing message (react-intl's MISSING_TRANSLATION, not reported): its default, else its id.
      if (!descriptor.defaultMessage) return id;
      if (!source) return descriptor.defaultMessage;
      try {
        return keyedParts(
          formatElements(source.parse(descriptor.defaultMessage), DEFAULT_LOCALE, cache, keyedValues({ ...values })),
        );
      } catch (error) {
        formatError(id, error);
        return descriptor.defaultMessage;
      }
    }
    if (typeof message === "string") return message;
    if (!Array.isArray(message)) {
      formatError(id, new Error(`The message "${id}" does not parse: ${message.invalid}`));
      return message.invalid;
    }
    try {
      return keyedParts(formatElements(message, locale, cache, keyedValues({ ...values })));
    } catch (error) {
      formatError(id, error);
      return source ? source.messages[id as MessageId] : id;
    }
  };
  const formatMessage = ((descriptor: MessageDescriptor, values?: Record<string, unknown>) => {
    failed = false;
    const result = format(descriptor, values);
    if (!failed) return result;
    failed = false;
    const message = catalogue[descriptor.id];
    if (!Array.isArray(message) || !values || !withoutPluralRules) return result;
    try {
      const parts = withoutPluralRules(message, values, locale);
      return parts.every((part) => typeof part === "string")
        ? parts.join("")
        : createElement(Fragment, null, ...(parts as Parameters<typeof createElement>[2][]));
    } catch {
      return result;
    }
  }) as IntlShape["formatMessage"];
  const formatDateTime = (
    kind: "date" | "time",
    value: Date | number | string,
    options: Intl.DateTimeFormatOptions = {},
  ) => {
    const date = typeof value === "string" ? new Date(value || 0) : value;
    try {
      let filtered: Intl.DateTimeFormatOptions = {};
      for (const name of DATE_TIME_OPTIONS) if (name in options) Object.assign(filtered, { [name]: options[name] });
      if (
        kind === "time" &&
        !filtered.hour &&
        !filtered.minute &&
        !filtered.second &&
        !filtered.timeStyle &&
        !filtered.dateStyle
      )
        filtered = { ...filtered, hour: "numeric", minute: "numeric" };
      return cache.dateTime(locale, filtered).format(date);
    } catch (error) {
      console.error(new Error(`Error formatting ${kind}.`, { cause: error }));
      return String(date);
    }
  };
  return {
    locale,
    formatMessage,
    $t: formatMessage,
    formatNumber: (value, options = {}) => {
      try {
        return cache.number(locale, options).format(value);
      } catch (error) {
        console.error(new Error("Error formatting number.", { cause: error }));
        return String(value);
      }
    },
    formatDate: (value, options) => formatDateTime("date", value, options),
    formatTime: (value, options) => formatDateTime("time", value, options),
  };
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
function keyedValues(values: Record<string, unknown>): Record<string, unknown> {
  const keyed: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    keyed[name] =
      typeof value === "function"
        ? (parts: unknown) => (value as (parts: unknown) => unknown)(keyedParts(parts))
        : value;
  }
  return keyed;
}

const serverIntlCaches = new Map<Locale, Formatters>();

/**
 * Issue 11 (a cheap miss): the server's formatters for one language, kept for the process: they
 * depend on the locale and the options only, so every request in that language may share them.
 */
export function serverIntlCache(locale: Locale): Formatters {
  let cache = serverIntlCaches.get(locale);
  if (!cache) {
    cache = createIntlCache();
    serverIntlCaches.set(locale, cache);
  }
  return cache;
}
