import type { Locale, Messages } from "./locales";
import de from "./messages/de.json" with { type: "json" };
import en from "./messages/en.json" with { type: "json" };
import es from "./messages/es.json" with { type: "json" };
import fr from "./messages/fr.json" with { type: "json" };
import hu from "./messages/hu.json" with { type: "json" };
import it from "./messages/it.json" with { type: "json" };
import ja from "./messages/ja.json" with { type: "json" };
import ko from "./messages/ko.json" with { type: "json" };
import pt from "./messages/pt.json" with { type: "json" };

/** Spec §9: a catalogue for every UI language (src/i18n/catalogues.test.ts keeps them whole). */
const catalogues: Record<Locale, Partial<Messages>> = { de, en, es, fr, hu, it, ja, ko, pt };

/** Each locale's messages, with English behind any message a catalogue lacks: made once, shared by every render. */
const merged = new Map<Locale, Readonly<Messages>>();

/**
 * The locale's messages. The server renders with them, and the client build writes each as the
 * catalogue file the page links (vite.config.ts), so the browser hydrates with the same text.
 */
export function messagesFor(locale: Locale): Readonly<Messages> {
  let messages = merged.get(locale);
  if (!messages) {
    messages = Object.freeze({ ...en, ...catalogues[locale] });
    merged.set(locale, messages);
  }
  return messages;
}
