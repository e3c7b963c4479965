import { type MessageElement, TYPE } from "./icu.ts";
import { parseMessage } from "./icu-parse.ts";

/**
 * Spec §8 "Locale's plural rules missing": a console error, and (Podium) a readable text all the
 * same. Without Intl.PluralRules, intl-messageformat refuses every message with a plural and
 * react-intl shows the raw ICU template ("{count, plural, one {# view} other {# views}}") in place
 * of the count. This formats such a message without plural rules: an exact branch (`=0`) when one
 * matches, `one` for exactly 1, else `other`, with numbers in the locale's format where the browser
 * can. A count reads "1,234 views" rather than the template; only a language whose plural forms
 * differ in other ways (a Hungarian or French 0) may pick a form a native speaker wouldn't.
 */

/** One piece of the formatted message: text, or whatever a value or a tag's function gave (React nodes). */
export type MessagePart = unknown;

const parsed = new Map<string, MessageElement[]>();

function elementsOf(message: string | MessageElement[]): MessageElement[] {
  if (Array.isArray(message)) return message;
  let elements = parsed.get(message);
  if (!elements) {
    elements = parseMessage(message);
    parsed.set(message, elements);
  }
  return elements;
}

function formatNumber(value: number, locale: string): string {
  try {
    return new Intl.NumberFormat(locale).format(value);
  } catch {
    return String(value);
  }
}

function formatDate(value: unknown, locale: string, time: boolean): string {
  try {
    const date = value instanceof Date ? value : new Date(value as string | number);
    return time
      ? new Intl.DateTimeFormat(locale, { timeStyle: "short" }).format(date)
      : date.toLocaleDateString(locale);
  } catch {
    return String(value);
  }
}

/** The plural branch to use without plural rules. */
function pluralBranch(
  options: Record<string, { value: MessageElement[] }>,
  value: number,
  offset: number,
  ordinal: boolean,
): MessageElement[] {
  const exact = options[`=${value}`];
  if (exact) return exact.value;
  if (!ordinal && value - offset === 1 && options.one) return options.one.value;
  return options.other?.value ?? [];
}

function formatElements(
  elements: MessageElement[],
  values: Record<string, unknown>,
  locale: string,
  /** The number `#` stands for, inside a plural branch. */
  pound: number | null,
): MessagePart[] {
  const parts: MessagePart[] = [];
  for (const element of elements) {
    switch (element.type) {
      case TYPE.literal:
        parts.push(element.value);
        break;
      case TYPE.pound:
        parts.push(pound === null ? "#" : formatNumber(pound, locale));
        break;
      case TYPE.argument: {
        const value = values[element.value];
        parts.push(typeof value === "number" ? formatNumber(value, locale) : (value ?? ""));
        break;
      }
      case TYPE.number: {
        const value = values[element.value];
        parts.push(typeof value === "number" ? formatNumber(value, locale) : String(value ?? ""));
        break;
      }
      case TYPE.date:
      case TYPE.time:
        parts.push(formatDate(values[element.value], locale, element.type === TYPE.time));
        break;
      case TYPE.select: {
        const branch = element.options[String(values[element.value])] ?? element.options.other;
        parts.push(...formatElements(branch?.value ?? [], values, locale, pound));
        break;
      }
      case TYPE.plural: {
        const value = Number(values[element.value]);
        const branch = pluralBranch(element.options, value, element.offset, element.pluralType === "ordinal");
        parts.push(...formatElements(branch, values, locale, value - element.offset));
        break;
      }
      case TYPE.tag: {
        const children = formatElements(element.children, values, locale, pound);
        const render = values[element.value];
        if (typeof render === "function") parts.push((render as (chunks: MessagePart[]) => MessagePart)(children));
        else parts.push(...children);
        break;
      }
    }
  }
  return parts;
}

/**
 * The message formatted without plural rules: its parts, adjacent texts joined (a message of
 * text only is one string).
 */
export function formatWithoutPluralRules(
  message: string | MessageElement[],
  values: Record<string, unknown>,
  locale: string,
): MessagePart[] {
  const joined: MessagePart[] = [];
  for (const part of formatElements(elementsOf(message), values, locale, null)) {
    const last = joined.length - 1;
    if (typeof part === "string" && typeof joined[last] === "string") joined[last] = `${joined[last]}${part}`;
    else joined.push(part);
  }
  return joined;
}
