import {
  type CompiledMessage,
  type CompiledMessages,
  type MessageElement,
  type PluralOrSelectOption,
  TYPE,
} from "./icu.ts";

export type { CompiledMessage, CompiledMessages };

/**
 * Issue 30: the parser of Podium's ICU messages (icu.ts says which syntax), apart from the
 * formatter so the browser never loads it: the server, the build and the tests parse; the browser
 * gets each catalogue already parsed (`compileMessages`, written by the build) and only formats.
 */

export class MessageSyntaxError extends Error {}

const NAME = /[^\s{}<>/,#'=]+/y;
const SPACE = /\s*/y;

/** A message's elements; throws MessageSyntaxError for what Podium's catalogues don't use. */
export function parseMessage(message: string): MessageElement[] {
  let at = 0;
  const fail = (what: string): never => {
    throw new MessageSyntaxError(`${what} at ${at} in "${message}"`);
  };
  const space = () => {
    SPACE.lastIndex = at;
    SPACE.exec(message);
    at = SPACE.lastIndex;
  };
  const name = (): string => {
    NAME.lastIndex = at;
    const match = NAME.exec(message);
    if (!match) return fail("a name expected");
    at = NAME.lastIndex;
    return match[0];
  };
  const expect = (text: string) => {
    if (!message.startsWith(text, at)) fail(`"${text}" expected`);
    at += text.length;
  };
  const isTagStart = (from: number) => message[from] === "<" && /[a-zA-Z]/.test(message[from + 1] ?? "");

  /** Elements up to the end, a `}` (a branch's end) or `</` (a tag's end). */
  const elements = (inPlural: boolean): MessageElement[] => {
    const result: MessageElement[] = [];
    let text = "";
    const flush = () => {
      if (text) result.push({ type: TYPE.literal, value: text });
      text = "";
    };
    while (at < message.length) {
      const char = message[at];
      if (char === "}" || message.startsWith("</", at)) break;
      if (char === "{") {
        flush();
        result.push(argument());
      } else if (char === "#" && inPlural) {
        flush();
        result.push({ type: TYPE.pound });
        at += 1;
      } else if (isTagStart(at)) {
        flush();
        result.push(tag());
      } else if (char === "'") {
        const next = message[at + 1];
        if (next === "'") {
          text += "'";
          at += 2;
        } else if (next === "{" || next === "}" || next === "<" || (next === "#" && inPlural)) {
          // Quoted text, up to the next lone apostrophe ('' inside is one apostrophe).
          at += 1;
          while (at < message.length) {
            if (message[at] === "'") {
              if (message[at + 1] === "'") {
                text += "'";
                at += 2;
                continue;
              }
              at += 1;
              break;
            }
            text += message[at];
            at += 1;
          }
        } else {
          text += "'";
          at += 1;
        }
      } else {
        text += char;
        at += 1;
      }
    }
    flush();
    return result;
  };

  const tag = (): MessageElement => {
    expect("<");
    const tagName = name();
    expect(">");
    const children = elements(false);
    expect(`</${tagName}>`);
    return { type: TYPE.tag, value: tagName, children };
  };

  const options = (inPlural: boolean): Record<string, PluralOrSelectOption> => {
    const result: Record<string, PluralOrSelectOption> = {};
    space();
    while (message[at] !== "}") {
      if (at >= message.length) fail("an option expected");
      const exact = message[at] === "=";
      if (exact) at += 1;
      const selector = exact ? `=${name()}` : name();
      space();
      expect("{");
      const value = elements(inPlural);
      expect("}");
      result[selector] = { value };
      space();
    }
    if (!result.other) fail("an `other` option expected");
    return result;
  };

  const argument = (): MessageElement => {
    expect("{");
    space();
    const value = name();
    space();
    if (message[at] === "}") {
      at += 1;
      return { type: TYPE.argument, value };
    }
    expect(",");
    space();
    const kind = name();
    space();
    let element: MessageElement;
    if (kind === "number" || kind === "date" || kind === "time") {
      let style: string | null = null;
      if (message[at] === ",") {
        at += 1;
        space();
        if (message.startsWith("::", at)) fail("number and date skeletons are not supported");
        style = name();
        space();
      }
      element = { type: kind === "number" ? TYPE.number : kind === "date" ? TYPE.date : TYPE.time, value, style };
    } else if (kind === "plural" || kind === "selectordinal") {
      expect(",");
      space();
      let offset = 0;
      if (message.startsWith("offset:", at)) {
        at += "offset:".length;
        space();
        offset = Number(name());
        if (!Number.isFinite(offset)) fail("an offset expected");
      }
      element = {
        type: TYPE.plural,
        value,
        options: options(true),
        offset,
        pluralType: kind === "plural" ? "cardinal" : "ordinal",
      };
    } else if (kind === "select") {
      expect(",");
      element = { type: TYPE.select, value, options: options(false) };
    } else {
      return fail(`unsupported argument type "${kind}"`);
    }
    expect("}");
    return element;
  };

  const result = elements(false);
  if (at < message.length) fail("unexpected text");
  return result;
}

/** One message, compiled (see CompiledMessage). */
export function compileMessage(message: string): CompiledMessage {
  try {
    const elements = parseMessage(message);
    if (elements.length === 0) return "";
    const [first] = elements;
    if (elements.length === 1 && first?.type === TYPE.literal) return first.value;
    return elements;
  } catch (error) {
    if (error instanceof MessageSyntaxError) return { invalid: message };
    throw error;
  }
}

/** A catalogue, compiled: what the build writes for the browser and what the server formats from. */
export function compileMessages(messages: Readonly<Record<string, string>>): CompiledMessages {
  const compiled: Record<string, CompiledMessage> = {};
  for (const [id, message] of Object.entries(messages)) compiled[id] = compileMessage(message);
  return compiled;
}
