import { type MessageFormatElement, parse, TYPE } from "@formatjs/icu-messageformat-parser";
import { createElement, isValidElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import * as ReactIntl from "react-intl";
import { describe, expect, it, type MockInstance, vi } from "vitest";
import { messagesFor } from "./catalogues";
import { type CompiledMessages, compileMessages, parseMessage } from "./icu-parse";
import { FormattedDate, FormattedMessage, FormattedNumber, FormattedTime, RawIntlProvider } from "./intl";
import { createCompiledIntl, createIntlCache, LOCALES, type Locale, type MessageId } from "./locales";
import { createPodiumIntl } from "./podium-intl";

// Issue 30: Podium formats with its own formatter (icu.ts, intl.tsx), not react-intl's runtime;
// react-intl stays here as the reference every message must read exactly as.
vi.mock("./icu-parse", async (original) => {
  const icuParse = await original<typeof import("./icu-parse")>();
  return { ...icuParse, parseMessage: vi.fn(icuParse.parseMessage), compileMessages: vi.fn(icuParse.compileMessages) };
});
const { createIntl } = ReactIntl;

/** Runs `test` with console.error silenced and recorded (the spy it is given), put back after. */
function withConsoleErrors(test: (errors: MockInstance<typeof console.error>) => void) {
  const errors = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    test(errors);
  } finally {
    errors.mockRestore();
  }
}

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

/** Podium's formatter of `locale`'s catalogue, and react-intl's, the reference. */
function formatters(locale: Locale) {
  const messages = messagesFor(locale);
  return {
    podium: createPodiumIntl(locale, messages, createIntlCache()),
    reference: createIntl({ locale, defaultLocale: "en", messages }),
  };
}

/** Every message of `locale` with values of each kind it takes, for a count of 0, 1 and many. */
function* samples(locale: Locale) {
  const messages = messagesFor(locale);
  for (const id of Object.keys(messages) as MessageId[]) {
    for (const count of [0, 1, 1234]) yield { id, values: sampleValues(parse(messages[id]), {}, count) as never };
  }
}

const markup = (result: unknown) =>
  typeof result === "string" ? result : renderToStaticMarkup(createElement("span", null, result as ReactNode));

describe("messages compiled once per language (issue 15: a cheaper render), read as react-intl reads them (issue 30)", () => {
  it.each(LOCALES)("formats every message of %s exactly as react-intl does, for 0, 1 and many", (locale) => {
    const { podium, reference } = formatters(locale);
    for (const { id, values } of samples(locale)) {
      const ours = podium.formatMessage({ id }, values);
      const theirs = reference.formatMessage({ id }, values);
      expect(markup(ours), `${locale} ${id}`).toBe(markup(theirs));
      // A second call (compiled) answers the same.
      expect(markup(podium.formatMessage({ id }, values))).toBe(markup(theirs));
    }
  });

  it.each(LOCALES)("renders every message of %s through <FormattedMessage> as react-intl's does", (locale) => {
    const { podium, reference } = formatters(locale);
    for (const { id, values } of samples(locale)) {
      const ours = renderToStaticMarkup(
        createElement(RawIntlProvider, { value: podium }, createElement(FormattedMessage, { id, values })),
      );
      const theirs = renderToStaticMarkup(
        createElement(
          ReactIntl.RawIntlProvider,
          { value: reference },
          createElement(ReactIntl.FormattedMessage, { id, values }),
        ),
      );
      expect(ours, `${locale} ${id}`).toBe(theirs);
    }
  });

  it.each(LOCALES)("formats numbers, dates and times in %s as react-intl does, as Podium asks for them", (locale) => {
    const { podium, reference } = formatters(locale);
    const when = new Date("2026-11-26T22:30:00Z");
    /** Each component of ours beside react-intl's, with the props Podium gives it. */
    const cases: [unknown, unknown, Record<string, unknown>][] = [
      [FormattedNumber, ReactIntl.FormattedNumber, { value: 1234567.891 }],
      [FormattedNumber, ReactIntl.FormattedNumber, { value: 15320, notation: "compact" }],
      [FormattedDate, ReactIntl.FormattedDate, { value: when, dateStyle: "long", timeZone: "UTC" }],
      [
        FormattedDate,
        ReactIntl.FormattedDate,
        { value: "2026-11-26T22:30:00Z", dateStyle: "medium", timeStyle: "short", timeZone: "UTC" },
      ],
      [FormattedTime, ReactIntl.FormattedTime, { value: when, hour: "numeric", minute: "2-digit" }],
      [FormattedTime, ReactIntl.FormattedTime, { value: when }],
    ];
    for (const [ours, theirs, props] of cases) {
      expect(
        renderToStaticMarkup(createElement(RawIntlProvider, { value: podium }, createElement(ours as never, props))),
      ).toBe(
        renderToStaticMarkup(
          createElement(ReactIntl.RawIntlProvider, { value: reference }, createElement(theirs as never, props)),
        ),
      );
    }
    expect(podium.formatNumber(2.5, { maximumFractionDigits: 1 })).toBe(
      reference.formatNumber(2.5, { maximumFractionDigits: 1 }),
    );
    expect(podium.formatDate(when, { month: "short", day: "numeric", timeZone: "UTC" })).toBe(
      reference.formatDate(when, { month: "short", day: "numeric", timeZone: "UTC" }),
    );
  });

  it("compiles a catalogue once, however often and however its messages are asked for", () => {
    // A catalogue of its own: compiled catalogues are kept per catalogue, for the process.
    const messages = { ...messagesFor("fr") };
    const compile = vi.mocked(compileMessages);
    compile.mockClear();
    const first = createPodiumIntl("fr", messages, createIntlCache());
    expect(compile).toHaveBeenCalledTimes(1);
    const id = (Object.keys(messages) as MessageId[]).find((key) =>
      parse(messages[key]).some((element) => element.type === TYPE.plural),
    );
    if (!id) throw new Error("the catalogue has no plural message");
    for (const count of [1, 2, 3]) {
      const values = sampleValues(parse(messages[id]), {}, count) as never;
      compile.mockClear();
      const intl = count === 1 ? first : createPodiumIntl("fr", messages, createIntlCache());
      intl.formatMessage({ id }, values);
      renderToStaticMarkup(
        createElement(RawIntlProvider, { value: intl }, createElement(FormattedMessage, { id, values })),
      );
      expect(compile).not.toHaveBeenCalled();
    }
  });

  it("the browser's catalogue: text alone as text, the rest parsed, and formatted without the parser", () => {
    const messages = messagesFor("de");
    const compiled = JSON.parse(JSON.stringify(compileMessages(messages))) as CompiledMessages;
    const reference = createPodiumIntl("de", messages, createIntlCache());
    const compile = vi.mocked(parseMessage);
    compile.mockClear();
    const intl = createCompiledIntl("de", compiled, createIntlCache());
    for (const id of Object.keys(messages) as MessageId[]) {
      const elements = parse(messages[id]);
      const plain = elements.every((element) => element.type === TYPE.literal);
      expect(typeof compiled[id] === "string").toBe(plain);
      const values = sampleValues(elements) as never;
      expect(
        renderToStaticMarkup(
          createElement(RawIntlProvider, { value: intl }, createElement(FormattedMessage, { id, values })),
        ),
      ).toBe(
        renderToStaticMarkup(
          createElement(RawIntlProvider, { value: reference }, createElement(FormattedMessage, { id, values })),
        ),
      );
    }
    expect(compile).not.toHaveBeenCalled();
    // A template that doesn't parse reads as itself, with an error, as react-intl shows it.
    withConsoleErrors((errors) => {
      const broken = createCompiledIntl(
        "de",
        compileMessages({ broken: "{count, plural, one {#}" }),
        createIntlCache(),
      );
      expect(broken.formatMessage({ id: "broken" as MessageId }, { count: 1 })).toBe("{count, plural, one {#}");
      expect(errors).toHaveBeenCalledTimes(1);
    });
  });

  it("keys rich-text parts as react-intl does, so React warns about nothing", () => {
    withConsoleErrors((errors) => {
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
    });
  });

  it("reports a missing value as react-intl does, and shows the message's text rather than failing", () => {
    withConsoleErrors((errors) => {
      const messages = messagesFor("en");
      const id = (Object.keys(messages) as MessageId[]).find((key) =>
        parse(messages[key]).some((element) => element.type === TYPE.argument),
      );
      if (!id) throw new Error("the catalogue has no message with a value");
      const intl = createPodiumIntl("en", messages, createIntlCache());
      const reference = createIntl({ locale: "en", messages, onError: () => {} });
      expect(intl.formatMessage({ id })).toBe(reference.formatMessage({ id }));
      expect(errors).toHaveBeenCalledTimes(1);
    });
  });
});
