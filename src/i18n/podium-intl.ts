import type { Formatters } from "./icu.ts";
import { type CompiledMessages, compileMessages, parseMessage } from "./icu-parse.ts";
import { createCompiledIntl, createIntlCache, type IntlShape, type Locale, type Messages } from "./locales.ts";
import type { formatWithoutPluralRules } from "./plural-fallback.ts";

/**
 * A fresh intl instance for one request or one page (never a shared, switched one: a
 * visitor's language must not leak into another's page during server rendering), from a
 * catalogue's source messages: each catalogue is compiled once per process (`compileMessages`).
 *
 * Issue 30: Podium's own formatter (icu.ts, intl.tsx), which formats every message exactly as
 * react-intl did. The browser starts from the compiled catalogue the build wrote
 * (`createCompiledIntl`), so it never loads the parser.
 *
 * Spec §8 (R8.4): when the plural rules are missing, one console error says so (and goes to
 * `report`, the client log in the browser), and messages with a plural are formatted without them
 * (plural-fallback.ts, given as `withoutPluralRules`: issue 30, the browser loads it only where
 * the plural rules are missing) instead of showing their raw template.
 */
export function createPodiumIntl(
  locale: Locale,
  messages: Messages,
  cache: Formatters = createIntlCache(),
  report?: (message: string) => void,
  withoutPluralRules?: typeof formatWithoutPluralRules,
): IntlShape {
  return createCompiledIntl(locale, compiledCatalogue(messages), cache, report, withoutPluralRules, {
    parse: parseMessage,
    messages,
  });
}

/** Each source catalogue, compiled once (the server's are frozen and shared by every render). */
const compiledCatalogues = new WeakMap<Messages, CompiledMessages>();

function compiledCatalogue(messages: Messages): CompiledMessages {
  let compiled = compiledCatalogues.get(messages);
  if (!compiled) {
    compiled = compileMessages(messages);
    compiledCatalogues.set(messages, compiled);
  }
  return compiled;
}
