import { type Browser, expect } from "@playwright/test";
import { PDFDocument, rgb, StandardFonts } from "pdf-lib";
import { signInCookies } from "./sign-in";

/**
 * Issue 28: decks of every page shape, made as a person makes them: a PDF (drawn here with
 * pdf-lib) sent to the import route the dashboard's drop zone uses, converted by the server.
 */

/** Page sizes in PDF points. */
export const PAGE_SIZES = {
  letter: [612, 792],
  square: [600, 600],
  wide: [960, 540],
  fourThree: [800, 600],
} as const satisfies Record<string, readonly [number, number]>;

/**
 * A PDF with a page of each size: a coloured band at the top, a red frame at the very edge (so a
 * screenshot shows whether the whole page is in view), a heading and the lines a real document
 * has that are wider than a phone: a long file-name title and a web address.
 */
export async function shapedPdf(sizes: readonly (readonly [number, number])[], heading: string): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const body = await pdf.embedFont(StandardFonts.Helvetica);
  sizes.forEach(([width, height], index) => {
    const page = pdf.addPage([width, height]);
    page.drawRectangle({ x: 0, y: height - 56, width, height: 56, color: rgb(0.25, 0.24, 0.73) });
    page.drawRectangle({
      x: 4,
      y: 4,
      width: width - 8,
      height: height - 8,
      borderColor: rgb(0.8, 0.1, 0.1),
      borderWidth: 8,
    });
    page.drawText(`${heading}_page_${index + 1}_of_${sizes.length}`, { x: 32, y: height - 110, size: 22, font: bold });
    page.drawText(`Page ${index + 1}: ${width} by ${height} points`, { x: 32, y: height / 2, size: 28, font: bold });
    page.drawText("Data: https://example.org/research/kelp-forest-monitoring/annual-report-2024-final.pdf", {
      x: 32,
      y: 48,
      size: 9,
      font: body,
    });
  });
  return Buffer.from(await pdf.save());
}

/**
 * A slide-shaped PDF (960 by 540 points): on page n a coloured band along the bottom, the heading
 * `${heading} n`, and below it `lines(n)`, one under the other.
 */
export async function slidePdf(
  pages: number,
  heading: string,
  look: { band: [number, number, number]; lines: (n: number) => string[]; lineSize: number },
): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const body = await pdf.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n += 1) {
    const page = pdf.addPage([960, 540]);
    page.drawRectangle({ x: 0, y: 0, width: 960, height: 64, color: rgb(...look.band) });
    page.drawText(`${heading} ${n}`, { x: 64, y: 430, size: 44, font: bold });
    look.lines(n).forEach((line, index) => {
      page.drawText(line, { x: 64, y: 350 - index * 40, size: look.lineSize, font: body });
    });
  }
  return Buffer.from(await pdf.save());
}

export interface ImportedDeck {
  oid: string;
  /** The view page's address, /p/{oid}/. */
  url: string;
}

/**
 * Signs a demo person in, in a context of its own, and imports each PDF through `POST
 * /api/imports/pdf` (unlisted: out of the sitemap, search and other tests' counts), waiting for
 * each conversion to end (one after the other: a person may convert only 2 at once).
 */
export async function importPdfDecks(
  browser: Browser,
  baseURL: string,
  email: string,
  pdfs: { name: string; bytes: Buffer; schemaVersion?: "0" | "2" }[],
): Promise<ImportedDeck[]> {
  const context = await browser.newContext({ baseURL });
  await context.addCookies([{ name: "podium_cookie_consent", value: "necessary", url: baseURL }]);
  const page = await context.newPage();
  await signInCookies(page, email);
  const token = (await context.cookies()).find((cookie) => cookie.name === "XSRF-TOKEN")?.value ?? "";
  const importOne = async (pdf: (typeof pdfs)[number]): Promise<ImportedDeck> => {
    const started = await page.request.post("/api/imports/pdf", {
      headers: { "X-XSRF-TOKEN": token },
      multipart: {
        privacy: "unlisted",
        schemaVersion: pdf.schemaVersion ?? "2",
        file: { name: `${pdf.name}.pdf`, mimeType: "application/pdf", buffer: pdf.bytes },
      },
    });
    expect(started.status()).toBe(202);
    const { id } = (await started.json()) as { id: string };
    let job: { state: string; oid?: string; url?: string } = { state: "converting" };
    await expect
      .poll(
        async () => {
          job = await (await page.request.get(`/api/imports/${id}`)).json();
          return job.state;
        },
        { timeout: 60_000 },
      )
      .toBe("done");
    return { oid: job.oid ?? "", url: `/p/${job.oid}/` };
  };
  const decks: ImportedDeck[] = [];
  for (const pdf of pdfs) decks.push(await importOne(pdf));
  await context.close();
  return decks;
}
