import { describe, expect, it } from "vitest";
import { assetUrl } from "../assets/service";
import { walkTopics } from "../presentation/document/schema";
import { documentFromPages, pageHeight } from "./document";
import { looksLikePdf, PDF_MAX_PAGE_PIXELS, PDF_MAX_PAGES } from "./errors";
import { cleanText, linesInReadingOrder, MAX_LINE_LENGTH, MAX_LINES, type TextRun } from "./text";

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
