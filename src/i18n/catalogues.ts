import type { Locale, Messages } from "./locales";
import de from "./messages/de.json";
import en from "./messages/en.json";
import es from "./messages/es.json";
import fr from "./messages/fr.json";
import hu from "./messages/hu.json";
import it from "./messages/it.json";
import ja from "./messages/ja.json";
import ko from "./messages/ko.json";
import pt from "./messages/pt.json";

/** Spec §9: a catalogue for every UI language (src/i18n/catalogues.test.ts keeps them whole). */
const catalogues: Record<Locale, Partial<Messages>> = { de, en, es, fr, hu, it, ja, ko, pt };

/** The locale's messages, with English behind any message a catalogue lacks. */
export function messagesFor(locale: Locale): Messages {
  return { ...en, ...catalogues[locale] };
}
