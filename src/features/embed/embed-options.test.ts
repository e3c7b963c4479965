import { describe, expect, it } from "vitest";
import { clampStep, DEFAULT_EMBED_OPTIONS, embedQuery, parseEmbedOptions } from "../presentation/embed-options";
import { responsiveEmbedSnippet } from "./embed-dimensions";
import { fitSize } from "./oembed";

describe("issue 34 item 1: responsive embed code", () => {
  it("fills its container's width at the deck's page shape, with no script", () => {
    const code = responsiveEmbedSnippet("https://podium.example", "abcdefghijkl", 16 / 9, 'Say "hi" <now>');
    expect(code).toBe(
      '<div style="position:relative;width:100%;height:0;padding-bottom:calc(56.25% + 56px);overflow:hidden"><iframe src="https://podium.example/p/embed/abcdefghijkl/" title="Say &quot;hi&quot; &lt;now&gt;" style="position:absolute;top:0;left:0;width:100%;height:100%;border:0" allow="autoplay; fullscreen"></iframe></div>',
    );
    expect(code).not.toContain("<script");
    // Without the control bar (?controls=0) the frame is the page's shape alone.
    expect(responsiveEmbedSnippet("https://p.example", "abcdefghijkl", 16 / 9, "T", "?controls=0", false)).toContain(
      "padding-bottom:56.25%;",
    );
    // A portrait A4 page (1 ÷ √2) and a 4:3 one keep their own shape.
    expect(responsiveEmbedSnippet("https://p.example", "abcdefghijkl", Math.SQRT1_2, "T")).toContain(
      "padding-bottom:calc(141.42% + 56px)",
    );
    expect(responsiveEmbedSnippet("https://p.example", "abcdefghijkl", 4 / 3, "T")).toContain(
      "padding-bottom:calc(75% + 56px)",
    );
    // A shape that isn't a number falls back to 16:9.
    expect(responsiveEmbedSnippet("https://p.example", "abcdefghijkl", Number.NaN, "T")).toContain("56.25%");
  });

  it("the options' query string goes into the iframe's address, escaped for the attribute", () => {
    const code = responsiveEmbedSnippet("https://p.example", "abcdefghijkl", 16 / 9, "T", "?start=3&loop=1");
    expect(code).toContain('src="https://p.example/p/embed/abcdefghijkl/?start=3&amp;loop=1"');
  });

  it("oEmbed sizes follow the page shape too", () => {
    expect(fitSize(null, null, 4 / 3)).toEqual({ width: 560, height: 420 });
    expect(fitSize(null, 300, 0.75)).toEqual({ width: 225, height: 300 });
  });
});

describe("issue 34 item 2: embed options as URL parameters", () => {
  it("reads every option; the defaults without any", () => {
    expect(parseEmbedOptions({}, 10)).toEqual(DEFAULT_EMBED_OPTIONS);
    expect(
      parseEmbedOptions(
        { start: "4", autoplay: "1", loop: "true", controls: "0", title: "false", chrome: "light" },
        10,
      ),
    ).toEqual({ start: 4, autoplay: true, loop: true, controls: false, title: false, chrome: "light" });
  });

  it("ignores or clamps bad values, never keeping them", () => {
    const bad = parseEmbedOptions(
      { start: "<script>", autoplay: "yes", loop: "2", controls: "", title: "nope", chrome: '"><img src=x>' },
      10,
    );
    expect(bad).toEqual(DEFAULT_EMBED_OPTIONS);
    expect(parseEmbedOptions({ start: "999" }, 10).start).toBe(10);
    expect(parseEmbedOptions({ start: "0" }, 10).start).toBe(1);
    expect(parseEmbedOptions({ start: "-3" }, 10).start).toBe(1);
    expect(parseEmbedOptions({ start: "2.5" }, 10).start).toBe(1);
    expect(parseEmbedOptions({ start: ["3", "5"] as unknown as string }, 10).start).toBe(3);
    expect(clampStep("12345678901234", 5)).toBe(1);
  });

  it("writes only what differs from the defaults, and reads back what it wrote", () => {
    expect(embedQuery(DEFAULT_EMBED_OPTIONS)).toBe("");
    const options = { start: 3, autoplay: true, loop: false, controls: false, title: true, chrome: "light" as const };
    const query = embedQuery(options);
    expect(query).toBe("?start=3&autoplay=1&controls=0&chrome=light");
    expect(parseEmbedOptions(Object.fromEntries(new URLSearchParams(query)), 10)).toEqual(options);
  });
});
