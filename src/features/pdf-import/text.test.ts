import { describe, expect, it } from "vitest";
import { documentFromPages, pageHeight } from "../../document/pdf-pages";
import { walkTopics } from "../../document/schema";
import { assetUrl } from "../assets/service";
import { looksLikePdf, PDF_MAX_PAGE_PIXELS, PDF_MAX_PAGES } from "./errors";
import {
  cleanText,
  isPageNumber,
  linesInReadingOrder,
  MAX_LINE_LENGTH,
  MAX_LINES,
  mendLineBreak,
  pageText,
  paragraphsOf,
  runningLines,
  type TextRun,
} from "./text";

const run = (str: string, x: number, y: number, size = 20, width = str.length * size * 0.5): TextRun => ({
  str,
  transform: [size, 0, 0, size, x, y],
  width,
  height: size,
});

describe("issue 10 PDF import: reading order", () => {
  it("issue 10 PDF import: runs on one baseline are a line, lines go top to bottom and runs left to right", () => {
    const runs = [
      run("second line", 60, 400),
      run("right", 500, 500.4),
      run("Title", 60, 500),
      run("", 60, 450),
      run("bottom", 60, 100, 12),
    ];
    expect(linesInReadingOrder(runs)).toEqual(["Title right", "second line", "bottom"]);
  });

  it("issue 10 PDF import: a gap between runs becomes a space; touching runs join; spaces already there stay single", () => {
    expect(linesInReadingOrder([run("Hel", 0, 10, 20, 30), run("lo", 30, 10, 20, 20)])).toEqual(["Hello"]);
    expect(linesInReadingOrder([run("Hello", 0, 10, 20, 50), run("world", 60, 10, 20, 50)])).toEqual(["Hello world"]);
    expect(linesInReadingOrder([run("Hello ", 0, 10, 20, 60), run(" world", 61, 10)])).toEqual(["Hello world"]);
  });

  it("issue 10 PDF import: control characters and lone surrogates never reach the document; limits hold", () => {
    expect(cleanText("a\u0000b\u0007c \ud800 d\u0085")).toBe("a b c d");
    expect(cleanText("😀 ok")).toBe("😀 ok");
    const long = linesInReadingOrder([run("x".repeat(MAX_LINE_LENGTH + 50), 0, 0)]);
    expect(long[0]).toHaveLength(MAX_LINE_LENGTH);
    const many = linesInReadingOrder(Array.from({ length: MAX_LINES + 20 }, (_, i) => run(`line ${i}`, 0, -i * 30)));
    expect(many).toHaveLength(MAX_LINES);
    expect(many.at(-1)).toMatch(/^line 499 line 500 .* line 519$/);
  });

  it("issue 10 PDF import: odd transforms (NaN, missing) are skipped, not thrown on", () => {
    const odd = [{ str: "bad", transform: [Number.NaN, 0, 0, 1, 0, 0], width: 1, height: 1 }, { ...run("ok", 0, 0) }];
    expect(linesInReadingOrder(odd)).toEqual(["ok"]);
  });
});

describe("issue 28 item 6: PDF text as paragraphs", () => {
  /** Lines printed 14 points apart from y = 700 down, 11 points high, at x = 72 unless given. */
  const printed = (lines: (string | [string, number])[], size = 11, leading = 14, top = 700) =>
    lines.map((line, index) => {
      const [text, x] = typeof line === "string" ? [line, 72] : line;
      return run(text, x, top - index * leading, size, text.length * size * 0.5);
    });
  const A4 = { bottom: 0, top: 842 };

  it("issue 28 item 6: a word broken at a line's end is mended; a hyphen that is the word's own stays", () => {
    expect(mendLineBreak("The exam-", "ple shows")).toBe("The example shows");
    expect(mendLineBreak("a soft exam\u00ad", "ple")).toBe("a soft example");
    // Written with its hyphen elsewhere on the page: kept.
    expect(mendLineBreak("a well-", "known brand", new Set(["well-known"]))).toBe("a well-known brand");
    // A word that takes a hyphen, or one that already holds one: kept.
    expect(mendLineBreak("a self-", "aware team")).toBe("a self-aware team");
    expect(mendLineBreak("state-of-the-", "art tools")).toBe("state-of-the-art tools");
    // Before a capital or a digit: kept, no space.
    expect(mendLineBreak("Jean-", "Paul Sartre")).toBe("Jean-Paul Sartre");
    expect(mendLineBreak("COVID-", "19 cases")).toBe("COVID-19 cases");
    // A dash between words, and lines that simply go on: a space.
    expect(mendLineBreak("costs rose -", "slowly")).toBe("costs rose - slowly");
    expect(mendLineBreak("costs rose", "slowly")).toBe("costs rose slowly");
  });

  it("issue 28 item 6: lines of one paragraph join; a new size, a wider gap, a list item or a short sentence-ending line start another", () => {
    const runs = [
      run("Results", 72, 740, 18, 70),
      ...printed([
        "Revenue grew in every region and the northern division",
        "led the way with new customers in three of its markets",
        "and fewer returns.",
        "Costs rose more slowly than sales, so the margin widened",
        "again.",
      ]),
      ...printed(["• first point", "• second point"], 11, 14, 600),
      ...printed(["After a gap, a paragraph of its own"], 11, 14, 560),
    ];
    expect(paragraphsOf(pageText(runs, A4))).toEqual([
      "Results",
      "Revenue grew in every region and the northern division led the way with new customers in three of its markets and fewer returns.",
      "Costs rose more slowly than sales, so the margin widened again.",
      "• first point",
      "• second point",
      "After a gap, a paragraph of its own",
    ]);
    // An indented first line is the paragraph's; a line that starts far to the right is not.
    const indented = printed([["Indented first line of a long paragraph that goes", 90], "on here below it."]);
    expect(paragraphsOf(pageText(indented, A4))).toEqual([
      "Indented first line of a long paragraph that goes on here below it.",
    ]);
    const column = printed(["Left column text that goes on", ["Right column", 320]]);
    expect(paragraphsOf(pageText(column, A4))).toHaveLength(2);
  });

  it("issue 28 item 6: a page number alone in the page's top or bottom band is left out, elsewhere kept", () => {
    expect(["7", "Page 7", "p. 7", "7 / 36", "7 of 36", "- 7 -", "[7]", "page 12 of 40"].every(isPageNumber)).toBe(
      true,
    );
    expect(["Chapter 7", "2026 results", "7 wonders", "1.5"].some(isPageNumber)).toBe(false);
    const runs = [run("12", 290, 30, 9), run("Body text", 72, 700, 11), run("42", 72, 400, 40)];
    expect(paragraphsOf(pageText(runs, A4))).toEqual(["Body text", "42"]);
    // Without a page box (a page turned a quarter), nothing is taken for a page number.
    expect(paragraphsOf(pageText(runs, null))).toEqual(["Body text", "42", "12"]);
  });

  it("issue 28 item 6: headers and footers that run across most pages are left out; headings that differ stay", () => {
    const pages = [1, 2, 3, 4].map((n) =>
      pageText(
        [
          run("ACME Annual Report 2026", 72, 800, 9),
          run(`Chapter ${n}`, 72, 740, 18),
          run(`Body of page ${n}`, 72, 700, 11),
          run("The same line mid-page", 72, 400, 11),
          run(`Confidential | Page ${n} of 4`, 72, 30, 9),
        ],
        A4,
      ),
    );
    // The cover has no header: the rest still run across most pages.
    pages.unshift(pageText([run("ACME", 72, 500, 40)], A4));
    const running = runningLines(pages);
    expect([...running].sort()).toEqual(["bottom:confidential #", "top:acme annual report 2026"]);
    expect(paragraphsOf(pages[2] ?? pageText([]), running)).toEqual([
      "Chapter 2",
      "Body of page 2",
      "The same line mid-page",
    ]);
    // On one page of five, a line at the top is that page's own.
    const once = [pageText([run("Only here", 72, 800, 9)], A4), ...[1, 2, 3, 4].map(() => pageText([], A4))];
    expect(runningLines(once).size).toBe(0);
  });
});

describe("issue 10 PDF import: the document", () => {
  const page = (n: number, width = 842, height = 595) => ({
    width,
    height,
    lines: [`Page ${n} heading`, "more"],
    src: assetUrl(String(n % 10).repeat(64)),
  });

  it("issue 10 PDF import: one page topic per page, image filling it, text as its text layer, all on the path", () => {
    const document = documentFromPages([page(1), page(2, 595, 842), page(3)], "2");
    expect(document.path).toEqual(["page-1", "page-2", "page-3"]);
    const pages = document.topics[0]?.topics ?? [];
    expect(pages.map((topic) => [topic.layout, topic.width, topic.height])).toEqual([
      ["page", 1600, 1131],
      ["page", 1600, 2264],
      ["page", 1600, 1131],
    ]);
    expect(pages[1]?.images[0]).toMatchObject({ x: 0, y: 0, width: 1600, height: 2264, alt: "Page 2: Page 2 heading" });
    expect(pages[0]?.texts[0]).toMatchObject({ styleClasses: ["body"] });
    expect(pages[0]?.texts[0]?.paragraphs).toEqual([
      { text: "Page 1 heading", listType: "NONE", biggestFontSize: 36 },
      { text: "more", listType: "NONE", biggestFontSize: 36 },
    ]);
    // Pages of a row don't overlap the next row, however tall the row's tallest page.
    const [first, second, third] = pages;
    expect(third?.y).toBeGreaterThanOrEqual((second?.y ?? 0) + (second?.height ?? 0));
    expect(first?.x).not.toBe(second?.x);
    expect(documentFromPages([page(1)], "0").path).toEqual(["overview", "page-1"]);
  });

  it("issue 10 PDF import: the longest PDF Podium takes makes a valid document; a page without text has no text", () => {
    const pages = Array.from({ length: PDF_MAX_PAGES }, (_, i) => page(i + 1));
    const document = documentFromPages(pages, "0");
    expect([...walkTopics(document.topics)]).toHaveLength(PDF_MAX_PAGES + 1);
    expect(documentFromPages([{ ...page(1), lines: [] }], "2").topics[0]?.topics[0]?.texts).toEqual([]);
  });

  it("issue 10 PDF import: page heights follow the page's proportions within bounds", () => {
    expect(pageHeight(1600, 900)).toBe(900);
    expect(pageHeight(10, 100_000)).toBe(32_000);
    expect(pageHeight(0, 0)).toBe(900);
    expect(PDF_MAX_PAGE_PIXELS).toBe(1600 * 4000);
  });

  it("issue 10 PDF import: a PDF is known by %PDF- within its first KiB", () => {
    expect(looksLikePdf(new TextEncoder().encode("%PDF-1.7\n"))).toBe(true);
    expect(looksLikePdf(new TextEncoder().encode(`${" ".repeat(900)}%PDF-1.4`))).toBe(true);
    expect(looksLikePdf(new TextEncoder().encode(`${" ".repeat(1100)}%PDF-1.4`))).toBe(false);
    expect(looksLikePdf(new TextEncoder().encode("<html>"))).toBe(false);
  });
});
