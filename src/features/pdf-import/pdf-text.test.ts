import { PDFDocument, type PDFFont, StandardFonts } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { testDatabaseTargets } from "../../db/testing";
import { documentFromPages } from "../../document/pdf-pages";
import { deriveTranscript, transcriptPlainText } from "../../document/transcript";
import { insertTestDeck } from "../../server/testing";
import { readPdfPages } from "../../server/testing/read-pdf";
import { assetUrl } from "../assets/service";
import type { PdfPage } from "./errors";
import { RUNNING_SAMPLE_PAGES, samplePages } from "./reader";

/**
 * Issue 28 item 6: a PDF's text reads as text. A report of 14 portrait pages made here with
 * pdf-lib, as word processors lay one out: a running header at each page's top, a page number at
 * its foot, a heading, and paragraphs wrapped over several lines (one word hyphenated at a line's
 * end, one line broken after a real hyphen). Read by the importer's reader (pdfjs, in this
 * thread), made a document, and checked in the transcript and in the stored search text.
 */
const HEADER = "ACME Annual Report 2026";
/** More than RUNNING_SAMPLE_PAGES: some pages' text is read before drawing, the others' while drawn. */
const PAGES = 14;
const SIZE = 11;
const LEADING = 14;

/** Each page's paragraphs, as lines the way they are printed. */
const linesOf = (page: number): string[][] => [
  [
    `In the year under review, page ${page}, the group grew its revenue in every region. The exam-`,
    "ple of the northern division shows how a well-",
    "known brand can win new customers without",
    "lowering its prices.",
  ],
  [
    "Costs rose more slowly than sales, so the margin widened for the third year in a row.",
    `Section ${page} ends here.`,
  ],
];

async function reportPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const draw = (page: ReturnType<typeof pdf.addPage>, text: string, x: number, y: number, size: number, f: PDFFont) =>
    page.drawText(text, { x, y, size, font: f });
  for (let n = 1; n <= PAGES; n += 1) {
    const page = pdf.addPage([595, 842]);
    // The running header and the page number: the same place on every page.
    draw(page, HEADER, 72, 800, 9, font);
    draw(page, String(n), 290, 30, 9, font);
    draw(page, `Part ${n}: results`, 72, 740, 18, bold);
    let y = 700;
    for (const paragraph of linesOf(n)) {
      for (const line of paragraph) {
        draw(page, line, 72, y, SIZE, font);
        y -= LEADING;
      }
      y -= LEADING;
    }
  }
  return pdf.save();
}

/** The pages as the server reads them (through the PDF converter's child process). */
const readPages = (bytes: Uint8Array) => readPdfPages(bytes, "pdf-text");

describe("issue 28 item 6: PDF text that reads as text", () => {
  let pages: PdfPage[];
  beforeAll(async () => {
    pages = await readPages(await reportPdf());
  }, 120_000);

  it("issue 28 item 6: lines of a paragraph are one paragraph, hyphenation mended, real hyphens kept", () => {
    expect(pages).toHaveLength(PAGES);
    expect(pages[2]?.lines).toEqual([
      "Part 3: results",
      "In the year under review, page 3, the group grew its revenue in every region. The example of the northern division shows how a well-known brand can win new customers without lowering its prices.",
      "Costs rose more slowly than sales, so the margin widened for the third year in a row. Section 3 ends here.",
    ]);
  });

  it("issue 28 item 6: the running header and the page numbers are left out of every page's text", () => {
    // Pages 7 and 14 are not among those read first: what runs across the others is left out of theirs too.
    expect(PAGES).toBeGreaterThan(RUNNING_SAMPLE_PAGES);
    expect(samplePages(PAGES)).not.toContain(7);
    expect(samplePages(5)).toEqual([1, 2, 3, 4, 5]);
    const many = samplePages(300);
    expect(many).toHaveLength(RUNNING_SAMPLE_PAGES);
    expect(many[0]).toBe(1);
    expect(new Set(many).size).toBe(RUNNING_SAMPLE_PAGES);
    expect(many.every((number, index) => index === 0 || number > (many[index - 1] ?? 0))).toBe(true);
    expect(many.at(-1)).toBeGreaterThan(270);
    for (const page of pages) {
      expect(page.lines.join("\n")).not.toContain(HEADER);
      expect(page.lines.some((line) => /^\d+$/.test(line))).toBe(false);
    }
  });

  it("issue 28 item 6: the transcript reads paragraphs, without header or page numbers", () => {
    const document = documentFromPages(
      pages.map((page, index) => ({ ...page, src: assetUrl(String(index).repeat(64)) })),
      "2",
    );
    const transcript = deriveTranscript(document);
    // A page's image is the page: its alt text isn't read again under its text.
    expect(transcript.topics.some((topic) => topic.images)).toBe(false);
    const text = transcriptPlainText(transcript);
    expect(text).not.toContain("ACME");
    expect(text).toContain("The example of the northern division shows how a well-known brand");
    expect(text.split("\n")).toHaveLength(PAGES * 3);
  });
});

describe.each(testDatabaseTargets())("issue 28 item 6: the stored search text of a PDF deck, on $name", (target) => {
  let db: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await target.create());
  }, 120_000);
  afterAll(async () => {
    await drop?.();
  });

  it("issue 28 item 6: search and snippets read the joined text, never the running header", async () => {
    const pages = await readPages(await reportPdf());
    const document = documentFromPages(
      pages.map((page, index) => ({ ...page, src: assetUrl(String(index).repeat(64)) })),
      "2",
    );
    const [owner] = await db.query<{ id: string }>(
      "insert into users (oid, email, username, first_name) values ('pdftext00001', 'pdf@text.test', 'pdftext', 'Pia') returning id::text",
    );
    await insertTestDeck(db, {
      oid: "pdftextdeck1",
      ownerId: owner?.id ?? "",
      title: "Annual report",
      document,
    });
    const [row] = await db.query<{ snippet: string; example: boolean; acme: boolean; broken: boolean }>(
      `select snippet_text as snippet,
              search_vector @@ to_tsquery('simple', 'example') as example,
              search_vector @@ to_tsquery('simple', 'acme') as acme,
              search_vector @@ to_tsquery('simple', 'exam') as broken
         from presentations where oid = 'pdftextdeck1'`,
    );
    expect(row?.example).toBe(true);
    expect(row?.broken).toBe(false);
    expect(row?.acme).toBe(false);
    expect(row?.snippet).not.toContain(HEADER);
    expect(row?.snippet).toContain("The example of the northern division");
  });
});
