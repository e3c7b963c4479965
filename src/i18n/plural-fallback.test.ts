import { afterEach, describe, expect, it, vi } from "vitest";
import { messagesFor } from "./catalogues";
import { LOCALES, missingPluralRulesMessage } from "./locales";
import { formatWithoutPluralRules } from "./plural-fallback";
import { createPodiumIntl } from "./podium-intl";

const pluralRules = Intl.PluralRules;
afterEach(() => {
  Object.defineProperty(Intl, "PluralRules", { value: pluralRules, configurable: true, writable: true });
  vi.restoreAllMocks();
});

describe("formatting without plural rules", () => {
  it("R8.4 picks an exact branch, one for 1, else other, with numbers in the locale's format", () => {
    const views = "{count, plural, =0 {No views yet} one {# view} other {# views}}";
    expect(formatWithoutPluralRules(views, { count: 0 }, "en")).toEqual(["No views yet"]);
    expect(formatWithoutPluralRules(views, { count: 1 }, "en")).toEqual(["1 view"]);
    expect(formatWithoutPluralRules(views, { count: 1234 }, "en")).toEqual(["1,234 views"]);
    expect(formatWithoutPluralRules(views, { count: 1234 }, "de")).toEqual(["1.234 views"]);
    // Arguments, selects, nested plurals and tags.
    expect(
      formatWithoutPluralRules(
        "{name} has {likes, plural, one {# like} other {# likes}} and <b>{kind, select, a {A} other {B}}</b>",
        { name: "Ada", likes: 3, kind: "a", b: (chunks: unknown[]) => `[${chunks.join("")}]` },
        "en",
      ),
    ).toEqual(["Ada has 3 likes and [A]"]);
    // A value that is not text (a React element) stays a part of its own.
    const element = { element: true };
    expect(
      formatWithoutPluralRules(
        "{count, plural, one {{formatted} view} other {{formatted} views}}",
        {
          count: 5,
          formatted: element,
        },
        "en",
      ),
    ).toEqual([element, " views"]);
  });

  it("R8.4 with Intl.PluralRules gone: one console error, and the view count reads as a count, not the ICU template", () => {
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    const report = vi.fn();
    Reflect.deleteProperty(Intl, "PluralRules");
    const intl = createPodiumIntl("en", messagesFor("en"), undefined, report, formatWithoutPluralRules);
    const text = intl.formatMessage({ id: "presentation.viewsCount" }, { count: 1234, formatted: "1,234" });
    expect(text).toBe("1,234 views");
    expect(intl.formatMessage({ id: "presentation.viewsCount" }, { count: 1, formatted: "1" })).toBe("1 view");
    expect(intl.formatMessage({ id: "presentation.views" }, { count: 42 })).toBe("42 views");
    expect(String(text)).not.toContain("plural");
    // One console error for the page, however many counts it shows; the client log hears it too.
    expect(consoleError.mock.calls).toEqual([[missingPluralRulesMessage("en")]]);
    expect(report).toHaveBeenCalledExactlyOnceWith(missingPluralRulesMessage("en"));
  });

  it("R8.4 every language's counts stay readable without plural rules", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    Reflect.deleteProperty(Intl, "PluralRules");
    for (const locale of LOCALES) {
      const intl = createPodiumIntl(locale, messagesFor(locale), undefined, undefined, formatWithoutPluralRules);
      const text = String(intl.formatMessage({ id: "presentation.views" }, { count: 1234 }));
      expect(text, locale).not.toMatch(/[{}]|plural/);
      expect(text, locale).toMatch(/1.?234/);
    }
  });

  it("R8.4 with plural rules present nothing is logged and the plural rules decide", () => {
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    const intl = createPodiumIntl("en", messagesFor("en"));
    expect(intl.formatMessage({ id: "presentation.views" }, { count: 1 })).toBe("1 view");
    expect(consoleError).not.toHaveBeenCalled();
  });
});
