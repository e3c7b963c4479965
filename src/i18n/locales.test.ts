import { describe, expect, it } from "vitest";
import { negotiateLocale, requestLocale } from "./locales";

describe("issue 12: the language of a first visit (Accept-Language)", () => {
  it("takes the language with the highest quality that Podium speaks", () => {
    expect(negotiateLocale("de")).toBe("de");
    expect(negotiateLocale("fr;q=0.5, de;q=0.9")).toBe("de");
    expect(negotiateLocale("en;q=0.1, ja;q=0.8, ko;q=0.3")).toBe("ja");
    // Equal qualities keep the header's order.
    expect(negotiateLocale("it, es")).toBe("it");
    expect(negotiateLocale("es;q=0.7, it;q=0.7")).toBe("es");
    // Without q, an entry counts as q=1.
    expect(negotiateLocale("hu, de;q=0.9")).toBe("hu");
  });

  it("matches region and script tags by their language (de-AT → de, pt-BR → pt)", () => {
    expect(negotiateLocale("de-AT")).toBe("de");
    expect(negotiateLocale("pt-BR,pt;q=0.9,en-US;q=0.8")).toBe("pt");
    expect(negotiateLocale("FR-ca")).toBe("fr");
    expect(negotiateLocale("zh-Hant-TW, ko-KR;q=0.4")).toBe("ko");
  });

  it("skips what Podium doesn't speak, and falls back to the default (en)", () => {
    expect(negotiateLocale("zh-CN, nl;q=0.9, es;q=0.2")).toBe("es");
    expect(negotiateLocale("zh-CN, nl;q=0.9")).toBe("en");
    expect(negotiateLocale(undefined)).toBe("en");
    expect(negotiateLocale("")).toBe("en");
    expect(negotiateLocale("*")).toBe("en");
    // "Anything" ranked above German: any language will do, so the default.
    expect(negotiateLocale("de;q=0.3, *;q=0.5")).toBe("en");
  });

  it("never takes a refused language (q=0) or a malformed quality", () => {
    expect(negotiateLocale("de;q=0, fr;q=0.1")).toBe("fr");
    expect(negotiateLocale("de;q=0.000")).toBe("en");
    expect(negotiateLocale("de;q=2, it;q=0.4")).toBe("it");
    expect(negotiateLocale("de;q=abc, it;q=0.4")).toBe("it");
    expect(negotiateLocale(" , ;q=1, ja ")).toBe("ja");
  });

  it("reads a bounded number of entries", () => {
    const long = `${Array.from({ length: 100 }, () => "xx").join(",")}, de`;
    expect(negotiateLocale(long)).toBe("en");
  });

  it("the language cookie wins, then the account's saved language, then Accept-Language", () => {
    expect(requestLocale({ cookie: "fr", account: "it", acceptLanguage: "de" })).toBe("fr");
    expect(requestLocale({ cookie: undefined, account: "it", acceptLanguage: "de" })).toBe("it");
    expect(requestLocale({ cookie: undefined, account: null, acceptLanguage: "de-AT" })).toBe("de");
    // A cookie that names no language is as if there were none.
    expect(requestLocale({ cookie: "klingon", acceptLanguage: "ko" })).toBe("ko");
    expect(requestLocale({ cookie: undefined, acceptLanguage: undefined })).toBe("en");
  });
});
