/**
 * Issue 30 item 1: the ICU MessageFormat that Podium's catalogues use, parsed and formatted
 * without react-intl's runtime (about 15 KiB gzip on every page, most of it a general parser).
 * The syntax: text (with ICU's apostrophe quoting), `{name}`, `{name, number[, style]}`,
 * `{name, date|time[, style]}`, `{name, plural|selectordinal, [offset:n] =n {…} one {…} other {…}}`
 * with `#`, `{name, select, …}` and rich-text tags `<name>…</name>`. Anything else (number
 * skeletons `::…`, for one) is refused with an error, and the message is shown as its template.
 * Elements have @formatjs/icu-messageformat-parser's shape and type numbers, and formatting follows
 * intl-messageformat step by step, so every message reads exactly as it did (compiled-messages.test.ts compares
 * every message of every catalogue).
 */

/** The element kinds, numbered as @formatjs/icu-messageformat-parser's TYPE. */
export const TYPE = {
  literal: 0,
  argument: 1,
  number: 2,
  date: 3,
  time: 4,
  select: 5,
  plural: 6,
  pound: 7,
  tag: 8,
} as const;

export interface PluralOrSelectOption {
  value: MessageElement[];
}
export type MessageElement =
  | { type: typeof TYPE.literal; value: string }
  | { type: typeof TYPE.argument; value: string }
  | { type: typeof TYPE.number | typeof TYPE.date | typeof TYPE.time; value: string; style: string | null }
  | { type: typeof TYPE.select; value: string; options: Record<string, PluralOrSelectOption> }
  | {
      type: typeof TYPE.plural;
      value: string;
      options: Record<string, PluralOrSelectOption>;
      offset: number;
      pluralType: "cardinal" | "ordinal";
    }
  | { type: typeof TYPE.pound }
  | { type: typeof TYPE.tag; value: string; children: MessageElement[] };

/**
 * A message as the browser's catalogue carries it: a message of text alone as its text (most of
 * them, read as they are), one with arguments, plurals or tags as its elements, and one that
 * doesn't parse as its template marked invalid (formatted as react-intl does: the template, and an error).
 */
export type CompiledMessage = string | MessageElement[] | { invalid: string };
export type CompiledMessages = Readonly<Record<string, CompiledMessage>>;

/** intl-messageformat's named styles (its `formats`), the ones Podium's messages could name. */
const NUMBER_STYLES: Record<string, Intl.NumberFormatOptions> = {
  integer: { maximumFractionDigits: 0 },
  percent: { style: "percent" },
};
const DATE_STYLES: Record<string, Intl.DateTimeFormatOptions> = {
  short: { month: "numeric", day: "numeric", year: "2-digit" },
  medium: { month: "short", day: "numeric", year: "numeric" },
  long: { month: "long", day: "numeric", year: "numeric" },
  full: { weekday: "long", month: "long", day: "numeric", year: "numeric" },
};
const TIME_STYLES: Record<string, Intl.DateTimeFormatOptions> = {
  short: { hour: "numeric", minute: "numeric" },
  medium: { hour: "numeric", minute: "numeric", second: "numeric" },
  long: { hour: "numeric", minute: "numeric", second: "numeric", timeZoneName: "short" },
  full: { hour: "numeric", minute: "numeric", second: "numeric", timeZoneName: "short" },
};

/** The Intl formatters a language needs, made once per language and options. */
export interface Formatters {
  number(locale: string, options?: Intl.NumberFormatOptions): Intl.NumberFormat;
  dateTime(locale: string, options?: Intl.DateTimeFormatOptions): Intl.DateTimeFormat;
  pluralRules(locale: string, options?: Intl.PluralRulesOptions): Intl.PluralRules;
}

export function createFormatters(): Formatters {
  const cache = new Map<string, unknown>();
  const memo =
    <Options, Made>(kind: string, make: (locale: string, options?: Options) => Made) =>
    (locale: string, options?: Options): Made => {
      const key = `${kind}\u0000${locale}\u0000${options === undefined ? "" : JSON.stringify(options)}`;
      let made = cache.get(key) as Made | undefined;
      if (made === undefined) {
        made = make(locale, options);
        cache.set(key, made);
      }
      return made;
    };
  return {
    number: memo("n", (locale, options?: Intl.NumberFormatOptions) => new Intl.NumberFormat(locale, options)),
    dateTime: memo("d", (locale, options?: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(locale, options)),
    pluralRules: memo("p", (locale, options?: Intl.PluralRulesOptions) => new Intl.PluralRules(locale, options)),
  };
}

/** A formatted piece: text (`literal`), or whatever a value or a tag's function gave. */
interface Part {
  literal: boolean;
  value: unknown;
}

export class MessageFormatError extends Error {}

function mergeLiterals(parts: Part[]): Part[] {
  if (parts.length < 2) return parts;
  const merged: Part[] = [];
  for (const part of parts) {
    const last = merged[merged.length - 1];
    if (last?.literal && part.literal) last.value = `${last.value as string}${part.value as string}`;
    else merged.push({ ...part });
  }
  return merged;
}

/** intl-messageformat's formatToParts, for the elements above. */
function formatToParts(
  elements: MessageElement[],
  locale: string,
  formatters: Formatters,
  values: Record<string, unknown> | undefined,
  pound?: number,
): Part[] {
  const only = elements[0];
  if (elements.length === 1 && only?.type === TYPE.literal) return [{ literal: true, value: only.value }];
  const result: Part[] = [];
  for (const element of elements) {
    if (element.type === TYPE.literal) {
      result.push({ literal: true, value: element.value });
      continue;
    }
    if (element.type === TYPE.pound) {
      if (typeof pound === "number") result.push({ literal: true, value: formatters.number(locale).format(pound) });
      continue;
    }
    if (!values || !(element.value in values))
      throw new MessageFormatError(`The intl string context variable "${element.value}" was not provided`);
    let value = values[element.value];
    switch (element.type) {
      case TYPE.argument: {
        if (!value || typeof value === "string" || typeof value === "number" || typeof value === "bigint")
          value =
            typeof value === "string" || typeof value === "number" || typeof value === "bigint" ? String(value) : "";
        result.push({ literal: typeof value === "string", value });
        break;
      }
      case TYPE.date:
      case TYPE.time: {
        const styles = element.type === TYPE.date ? DATE_STYLES : TIME_STYLES;
        const style =
          element.style === null
            ? element.type === TYPE.time
              ? TIME_STYLES.medium
              : undefined
            : styles[element.style];
        if (element.style !== null && !style) throw new MessageFormatError(`unknown style "${element.style}"`);
        result.push({ literal: true, value: formatters.dateTime(locale, style).format(value as Date | number) });
        break;
      }
      case TYPE.number: {
        const style = element.style === null ? undefined : NUMBER_STYLES[element.style];
        if (element.style !== null && !style) throw new MessageFormatError(`unknown style "${element.style}"`);
        result.push({ literal: true, value: formatters.number(locale, style).format(value as number) });
        break;
      }
      case TYPE.tag: {
        if (typeof value !== "function")
          throw new MessageFormatError(`"${element.value}" must be a function that formats rich text`);
        let chunks: unknown = (value as (parts: unknown[]) => unknown)(
          formatToParts(element.children, locale, formatters, values, pound).map((part) => part.value),
        );
        if (!Array.isArray(chunks)) chunks = [chunks];
        for (const chunk of chunks as unknown[]) result.push({ literal: typeof chunk === "string", value: chunk });
        break;
      }
      case TYPE.select: {
        const key = value as string;
        const option =
          (Object.hasOwn(element.options, key) ? element.options[key] : undefined) ?? element.options.other;
        if (!option) throw new MessageFormatError(`no option for "${element.value}"`);
        result.push(...formatToParts(option.value, locale, formatters, values));
        break;
      }
      case TYPE.plural: {
        const exact = `=${value}`;
        let option = Object.hasOwn(element.options, exact) ? element.options[exact] : undefined;
        if (!option) {
          if (typeof Intl.PluralRules !== "function")
            throw new MessageFormatError("Intl.PluralRules is not available in this environment.");
          const rule = formatters
            .pluralRules(locale, { type: element.pluralType })
            .select((value as number) - element.offset);
          option = (Object.hasOwn(element.options, rule) ? element.options[rule] : undefined) ?? element.options.other;
        }
        if (!option) throw new MessageFormatError(`no option for "${element.value}"`);
        result.push(...formatToParts(option.value, locale, formatters, values, (value as number) - element.offset));
        break;
      }
    }
  }
  return mergeLiterals(result);
}

/** intl-messageformat's format(): one string, one part, or a list of strings and other parts. */
export function formatElements(
  elements: MessageElement[],
  locale: string,
  formatters: Formatters,
  values: Record<string, unknown> | undefined,
): unknown {
  const parts = formatToParts(elements, locale, formatters, values);
  if (parts.length === 1) return parts[0]?.value;
  const result: unknown[] = [];
  for (const part of parts) {
    const last = result.length - 1;
    if (result.length > 0 && part.literal && typeof result[last] === "string")
      result[last] = `${result[last] as string}${part.value as string}`;
    else result.push(part.value);
  }
  if (result.length <= 1) return result[0] ?? "";
  return result;
}
