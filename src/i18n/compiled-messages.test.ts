import { type MessageFormatElement, parse, TYPE } from "@formatjs/icu-messageformat-parser";
import { createElement, isValidElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createIntl, createIntlCache, FormattedMessage, RawIntlProvider } from "react-intl";
import { describe, expect, it, vi } from "vitest";
import { messagesFor } from "./catalogues";
import { createPodiumIntl, LOCALES, type MessageId } from "./locales";

/** Values for every argument a message takes, of the kind it takes (numbers, dates, rich text…). */
function sampleValues(elements: MessageFormatElement[], values: Record<string, unknown> = {}, count = 3) {
  for (const element of elements) {
    switch (element.type) {
      case TYPE.argument:
        values[element.value] ??= `«${element.value}»`;
        break;
      case TYPE.number:
      case TYPE.plural:
        values[element.value] = count;
        break;
      case TYPE.date:
      case TYPE.time:
        values[element.value] = new Date("2026-11-26T10:30:00Z");
        break;
      case TYPE.select:
        values[element.value] ??= Object.keys(element.options)[0];
        break;
      case TYPE.tag:
        values[element.value] = (parts: ReactNode[]) => createElement("b", { className: element.value }, parts);
        break;
    }
    if ("options" in element)
      for (const option of Object.values(element.options)) sampleValues(option.value, values, count);
    if (element.type === TYPE.tag) sampleValues(element.children, values, count);
  }
  return values;
}

const markup = (result: unknown) =>
  typeof result === "string" ? result : renderToStaticMarkup(createElement("span", null, result as ReactNode));

describe("messages compiled once per language (issue 15: a cheaper render)", () => {
  it.each(LOCALES)("formats every message of %s exactly as react-intl does, for 0, 1 and many", (locale) => {
    const messages = messagesFor(locale);
    const podium = createPodiumIntl(locale, messages, createIntlCache());
    const reference = createIntl({ locale, defaultLocale: "en", messages });
    for (const id of Object.keys(messages) as MessageId[]) {
      for (const count of [0, 1, 1234]) {
        const values = sampleValues(parse(messages[id]), {}, count);
        const ours = podium.formatMessage({ id }, values as never);
        const theirs = reference.formatMessage({ id }, values as never);
        expect(markup(ours), `${locale} ${id}`).toBe(markup(theirs));
        // A second call (compiled) answers the same.
        expect(markup(podium.formatMessage({ id }, values as never))).toBe(markup(theirs));
      }
    }
  });

  it("compiles a message once, however it is asked for (<FormattedMessage> passes an empty option)", () => {
    // A catalogue of its own: compiled messages are kept per catalogue, for the process.
    const messages = { ...messagesFor("fr") };
    const intl = createPodiumIntl("fr", messages, createIntlCache());
    const compile = vi.spyOn(intl.formatters, "getMessageFormat");
    const id = (Object.keys(messages) as MessageId[]).find((key) =>
      parse(messages[key]).some((element) => element.type === TYPE.plural),
    );
    if (!id) throw new Error("the catalogue has no plural message");
    for (const count of [1, 2, 3]) {
      const values = sampleValues(parse(messages[id]), {}, count) as never;
      intl.formatMessage({ id }, values);
      renderToStaticMarkup(
        createElement(RawIntlProvider, { value: intl }, createElement(FormattedMessage, { id, values })),
      );
    }
    expect(compile).toHaveBeenCalledTimes(1);
  });

  it("keys rich-text parts as react-intl does, so React warns about nothing", () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const messages = messagesFor("en");
      const intl = createPodiumIntl("en", messages, createIntlCache());
      const id = (Object.keys(messages) as MessageId[]).find((key) =>
        parse(messages[key]).some((element) => element.type === TYPE.tag),
      );
      if (!id) throw new Error("the catalogue has no rich-text message");
      const parts = intl.formatMessage({ id }, sampleValues(parse(messages[id])) as never) as unknown as unknown[];
      expect(Array.isArray(parts)).toBe(true);
      for (const part of parts) if (isValidElement(part)) expect(part.key).not.toBeNull();
      renderToStaticMarkup(createElement("p", null, parts as ReactNode));
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
    }
  });

  it("reports a missing value as react-intl does, and shows the message's text rather than failing", () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const messages = messagesFor("en");
      const id = (Object.keys(messages) as MessageId[]).find((key) =>
        parse(messages[key]).some((element) => element.type === TYPE.argument),
      );
      if (!id) throw new Error("the catalogue has no message with a value");
      const intl = createPodiumIntl("en", messages, createIntlCache());
      const reference = createIntl({ locale: "en", messages, onError: () => {} });
      expect(intl.formatMessage({ id })).toBe(reference.formatMessage({ id }));
      expect(errors).toHaveBeenCalledTimes(1);
    } finally {
      errors.mockRestore();
    }
  });
});
