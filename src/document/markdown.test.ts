import { describe, expect, it } from "vitest";
import { importMarkdown, MARKDOWN_MAX_LENGTH, MarkdownImportError, readSlides, type SlideContent } from "./markdown";

/** A slide's texts as [style, listType, text] rows, one per paragraph. */
function rows(slide: SlideContent | undefined): [string, string, string][] {
  return (slide?.texts ?? []).flatMap((text) =>
    text.paragraphs.map((p): [string, string, string] => [text.style, p.listType, p.text]),
  );
}

/** The body paragraphs of the first slide, grouped by text. */
function bodies(markdown: string): string[][] {
  return (readSlides(markdown)[0]?.texts ?? [])
    .filter((text) => text.style === "body")
    .map((text) =>
      text.paragraphs.map((p) =>
        p.listType === "BULLET" ? `• ${p.text}` : p.listType === "NUMBER" ? `${p.number}. ${p.text}` : p.text,
      ),
    );
}

/**
 * Milliseconds of this process's CPU to import (or refuse) a source. CPU time, not the clock's
 * (issue 29): on a busy machine the clock also counts the time spent waiting for a core.
 */
function timeImport(source: string): number {
  const start = process.cpuUsage();
  try {
    importMarkdown(source, "2");
  } catch (error) {
    if (!(error instanceof MarkdownImportError)) throw error;
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** Inputs that took the old regex reader minutes at 1 MB, and nesting that markdown-it bounds. */
const HOSTILE: [string, (size: number) => string][] = [
  ["nested brackets", (size) => `${"[".repeat(size / 2 - 1)}x${"]".repeat(size / 2 - 1)}`],
  ["unclosed emphasis", (size) => "*a **".repeat(size / 5)],
  ["unclosed images", (size) => "![".repeat(size / 2)],
  ["unclosed underscores", (size) => "_a __".repeat(size / 5)],
  ["deep block quotes with lazy lines", (size) => `${"> ".repeat(size / 4)}a\n${"b\n".repeat(size / 4 - 2)}`],
];

describe("hardening 1: Markdown parsing is linear-time", () => {
  it.each(HOSTILE)(
    "%s: 1 MB takes about 8× the time of 125 KB, not 64×",
    (_name, make) => {
      const small = make(125_000);
      const big = make(1_000_000);
      expect(big.length).toBeLessThanOrEqual(MARKDOWN_MAX_LENGTH);
      timeImport(small); // warm up the JIT
      const smallMs = Math.min(timeImport(small), timeImport(small));
      const bigMs = Math.min(timeImport(big), timeImport(big));
      // Linear code takes 8× (garbage collection makes it up to about 10×); quadratic takes 64×.
      expect(bigMs, `125 KB: ${smallMs.toFixed(0)} ms, 1 MB: ${bigMs.toFixed(0)} ms`).toBeLessThan(smallMs * 24 + 250);
    },
    120_000,
  );
});

describe("Markdown reading (CommonMark, by markdown-it)", () => {
  it("reads ATX and setext headings by level", () => {
    const slide = readSlides("# One #\n## Two\n### Three\n###### Six\n#5 is not a heading\n\nSet\n===\nSub\n--")[0];
    expect(rows(slide)).toEqual([
      ["title", "NONE", "One"],
      ["subtitle", "NONE", "Two"],
      ["subtitle_2", "NONE", "Three"],
      ["subtitle_2", "NONE", "Six"],
      ["body", "NONE", "#5 is not a heading"],
      ["title", "NONE", "Set"],
      ["subtitle", "NONE", "Sub"],
    ]);
  });

  it("splits slides at a line of dashes, even right under a paragraph (no setext heading there)", () => {
    const slides = readSlides("Intro\n---\n# Next\n  -----  \nLast");
    expect(slides.map(rows)).toEqual([
      [["body", "NONE", "Intro"]],
      [["title", "NONE", "Next"]],
      [["body", "NONE", "Last"]],
    ]);
  });

  it("issue 10: makes list items bullets and numbers with their nesting, other lines plain, one paragraph per line", () => {
    const source = [
      "- one",
      "  - nested",
      "    continued",
      "lazy line",
      "1. ordered",
      "2) other delimiter",
      "-",
      "plain  ",
      "hard\\",
      "soft",
    ].join("\n");
    expect(bodies(source)).toEqual([
      [
        "• one",
        "• nested",
        "continued",
        "lazy line",
        "1. ordered",
        "2. other delimiter",
        "• ",
        "plain",
        "hard",
        "soft",
      ],
    ]);
    const [slide] = readSlides("3. three\n4. four\n   - [ ] open task\n   - [x] done task\n     1. deep");
    expect(slide?.texts[0]?.paragraphs).toEqual([
      { text: "three", listType: "NUMBER", number: 3 },
      { text: "four", listType: "NUMBER", number: 4 },
      { text: "open task", listType: "BULLET", level: 1, checked: false },
      { text: "done task", listType: "BULLET", level: 1, checked: true },
      { text: "deep", listType: "NUMBER", level: 2, number: 1 },
    ]);
  });

  it("starts a new body text after a blank line, a heading, an image or a thematic break", () => {
    expect(bodies("- a\n\n- b\nc\n***\nd\n# h\ne\n![x](/assets/x.png)\nf")).toEqual([
      ["• a"],
      ["• b", "c"],
      ["d"],
      ["e"],
      ["f"],
    ]);
  });

  it("reads marks as their plain words, and escapes and entities as the characters they stand for", () => {
    expect(bodies("**bold** _em_ `code` [label](https://x.test) ~~struck~~ <https://auto.test>")).toEqual([
      ["bold em code label struck https://auto.test"],
    ]);
    expect(bodies("\\*not em\\* and \\\\ and C:\\path\n&amp; &copy; &#35;")).toEqual([
      ["*not em* and \\ and C:\\path", "& © #"],
    ]);
    // Stray marks stay, as CommonMark says.
    expect(bodies("**unclosed and *half\n2 * 3 * 4")).toEqual([["**unclosed and *half", "2 * 3 * 4"]]);
  });

  it("splits raw HTML that runs over lines at its line breaks, one paragraph per line", () => {
    expect(bodies("<a\nb> and <span\nclass=x>")).toEqual([["<a", "b> and <span", "class=x>"]]);
  });

  it("keeps HTML literal, never markup", () => {
    expect(bodies("<div onclick=x>\n<b>hi</b> <!-- c -->")).toEqual([["<div onclick=x>", "<b>hi</b> <!-- c -->"]]);
  });

  it("makes Podium images alone on a line images; other images read as their alt text", () => {
    const [slide] = readSlides(
      "![A crab](/assets/crab.png)\n![one](/assets/1.png) ![two](/assets/2.png)\n- ![bullet](/assets/b.png)\nSee ![the map](/assets/map.png) here\n![remote](https://x.test/a.png)",
    );
    expect(slide?.images).toEqual([
      { alt: "A crab", src: "/assets/crab.png" },
      { alt: "one", src: "/assets/1.png" },
      { alt: "two", src: "/assets/2.png" },
      { alt: "bullet", src: "/assets/b.png" },
    ]);
    expect(rows(slide)).toEqual([
      ["body", "NONE", "See the map here"],
      ["body", "NONE", "remote"],
    ]);
  });

  it("issue 10: keeps code blocks (spaces and blank lines), block quotes and tables as texts of their kind", () => {
    const [code] = readSlides("```js\n# not a heading\n  x = 1\n\nafter blank\n```\n\n    indented code");
    expect(code?.texts).toEqual([
      {
        style: "body",
        kind: "code",
        language: "js",
        paragraphs: ["# not a heading", "  x = 1", "", "after blank"].map((text) => ({ text, listType: "NONE" })),
      },
      { style: "body", kind: "code", paragraphs: [{ text: "indented code", listType: "NONE" }] },
    ]);
    const [quoteAndTable] = readSlides("> quoted **words**\n> more\n\n| a | b | c |\n|:--|:-:|--:|\n| 1 | `2` | |");
    expect(quoteAndTable?.texts).toEqual([
      {
        style: "body",
        kind: "quote",
        paragraphs: [
          { text: "quoted words", listType: "NONE", runs: [{ text: "quoted " }, { text: "words", marks: ["strong"] }] },
          { text: "more", listType: "NONE" },
        ],
      },
      {
        style: "body",
        kind: "table",
        align: ["left", "center", "right"],
        paragraphs: [
          { text: "a | b | c", listType: "NONE", cells: [[{ text: "a" }], [{ text: "b" }], [{ text: "c" }]] },
          { text: "1 | 2 | ", listType: "NONE", cells: [[{ text: "1" }], [{ text: "2", marks: ["code"] }], []] },
        ],
      },
    ]);
  });

  it("hides link reference definitions, and reads links that use them as their labels", () => {
    expect(bodies("[label][ref] and [unknown][nowhere]\n\n[ref]: https://x.test")).toEqual([
      ["label and [unknown][nowhere]"],
    ]);
  });

  it("reads again what nests deeper than markdown-it's limit, so nothing is dropped", () => {
    expect(bodies(`${"> ".repeat(200)}deep`)).toEqual([["deep"]]);
    const list = Array.from({ length: 60 }, (_, i) => `${"  ".repeat(i)}${i % 2 ? "1." : "-"} item ${i}`).join("\n");
    expect(bodies(list)[0]).toHaveLength(60);
  });

  it("past its budget for reading again, keeps what lies deeper as literal lines", () => {
    const source = `${"> ".repeat(300_000)}a\n${"b\n".repeat(100_000)}`;
    const [body] = bodies(source);
    expect(body?.[0]?.startsWith("> > > ")).toBe(true);
    expect(body?.[0]).toHaveLength(10_000);
    expect(body).toHaveLength(500);
    expect(body?.at(-1)).toBe("b");
  });

  it("keeps the document limits: paragraphs per text, texts per slide, paragraph length", () => {
    const [slide] = readSlides(`${"line\n".repeat(600)}\n${"# h\n".repeat(300)}${"x".repeat(20_000)}`);
    expect(slide?.texts[0]?.paragraphs).toHaveLength(500);
    expect(slide?.texts).toHaveLength(200);
    const [last] = readSlides(`${"x".repeat(20_000)}`);
    expect(last?.texts[0]?.paragraphs[0]?.text).toHaveLength(10_000);
  });

  it("refuses too many slides with its count", () => {
    try {
      importMarkdown("# a\n---\n".repeat(2000), "2");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(MarkdownImportError);
      expect((error as MarkdownImportError).problem).toEqual({
        code: "tooManySlides",
        values: { count: 2000, limit: 1999 },
      });
    }
  });
});
