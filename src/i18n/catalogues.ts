import type { Locale, Messages } from "./locales";
import en from "./messages/en.json";

/** Catalogues that exist so far; a locale without one falls back to English text. */
const catalogues: Partial<Record<Locale, Partial<Messages>>> = { en };

/** The locale's messages, with English behind any message a catalogue lacks. */
export function messagesFor(locale: Locale): Messages {
  return { ...en, ...catalogues[locale] };
}
