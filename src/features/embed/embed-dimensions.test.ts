import { describe, expect, it } from "vitest";
import {
  cleanDimension,
  DEFAULT_EMBED,
  EMBED_MODAL_MAX_WIDTH,
  type EmbedSettings,
  embedProductType,
  embedSnippet,
  fromHeight,
  fromWidth,
} from "./embed-dimensions";

describe("embed dimensions", () => {
  it.each([
    ["12a3px", "123"],
    ["123456", "1234"],
    ["-5.5", "55"],
    ["abc", ""],
  ])("R5.1 strips non-digits and keeps at most 4 characters: %j → %j", (typed, kept) => {
    expect(cleanDimension(typed)).toBe(kept);
  });
  it("R5.1 keeps 16:9: height → width = round(h·16/9), width → height = round(w/(16/9))", () => {
    expect(fromHeight("315")).toEqual({ width: "560", height: "315" });
    expect(fromHeight("100")).toEqual({ width: "178", height: "100" });
    expect(fromWidth("560")).toEqual({ width: "560", height: "315" });
    expect(fromWidth("1000")).toEqual({ width: "1000", height: "563" });
    expect(fromWidth("99999")).toEqual({ width: "9999", height: "5624" });
    // A width past 4 digits can't be shown: it stops at 9999 and the height follows.
    expect(fromHeight("9999")).toEqual({ width: "9999", height: "5624" });
  });
  it("R5.1 an empty or zero value clears both", () => {
    expect(fromWidth("")).toEqual({ width: "", height: "" });
    expect(fromWidth("0")).toEqual({ width: "", height: "" });
    expect(fromHeight("000")).toEqual({ width: "", height: "" });
    expect(fromHeight("x")).toEqual({ width: "", height: "" });
  });
  it("R3.4 embed settings hold height and width as digit strings, whatever is typed", () => {
    const settings: EmbedSettings[] = [DEFAULT_EMBED];
    for (const typed of [
      "",
      "0",
      "7",
      "315",
      "1000",
      "1001",
      "12.5",
      "-40",
      "3e2",
      "９９",
      "1 0 0",
      "99999",
      "560px",
      "x",
    ]) {
      settings.push(fromWidth(typed), fromHeight(typed));
    }
    for (const { width, height } of settings) {
      expect(typeof width).toBe("string");
      expect(typeof height).toBe("string");
      // Digits only (at most 4, spec §9), or empty when the value was cleared (§5).
      expect(width, `${width}×${height}`).toMatch(/^\d{0,4}$/);
      expect(height, `${width}×${height}`).toMatch(/^\d{0,4}$/);
    }
  });
  it("R9.2 R9.4 defaults 560×315, modal at most 600 wide", () => {
    expect(DEFAULT_EMBED).toEqual({ width: "560", height: "315" });
    expect(EMBED_MODAL_MAX_WIDTH).toBe(600);
  });
  it("R2.2 builds the iframe snippet with size, fullscreen and autoplay allowed", () => {
    const snippet = embedSnippet(
      "https://podium.example",
      "abcdefghijkl",
      { width: "560", height: "315" },
      'Say "hi" <now>',
    );
    expect(snippet).toBe(
      '<iframe src="https://podium.example/p/embed/abcdefghijkl/" width="560" height="315" title="Say &quot;hi&quot; &lt;now&gt;" frameborder="0" allow="autoplay; fullscreen"></iframe>',
    );
  });
  it("R3.11 the embed-copy log's product type: CLASSIC for '0', else NEXT", () => {
    expect(embedProductType("0")).toBe("CLASSIC");
    expect(embedProductType("2")).toBe("NEXT");
  });
});
