import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { PDFDocument, PDFName, StandardFonts } from "pdf-lib";
import { afterEach, describe, expect, it } from "vitest";
import { type PdfConversionEvents, type PdfConverter, PdfImportError } from "../../features/pdf-import/errors";
import { TEST_WORKER_DIR } from "../testing/build-workers";
import { createPdfWorkers, type PdfWorkerOptions } from "./pdf-pool";

/**
 * Issue 27 item 2: the PDF converter takes turns across people, limits a page's time and a
 * PDF's pace, and runs in a child process killed past its memory ceiling. These run the built
 * converter (testing/build-workers.ts) in a real child process.
 */

async function blankPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.addPage([200, 200]);
  return pdf.save();
}

async function textPdf(pages: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n += 1) {
    pdf.addPage([842, 595]).drawText(`Page ${n}`, { x: 60, y: 500, size: 36, font });
  }
  return pdf.save();
}

/** Pages that each stroke `segments` line segments: slow to draw (one content stream shared by all). */
async function linesPdf(pages: number, segments: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const ops = ["0.2 w"];
  for (let n = 0; n < segments; n += 1) {
    const at = (k: number) => ((n * 7919 + k * 104_729) % 800).toFixed(1);
    ops.push(`${at(1)} ${at(2)} m ${at(3)} ${at(4)} l S`);
  }
  const contents = pdf.context.register(pdf.context.flateStream(ops.join("\n")));
  for (let n = 0; n < pages; n += 1) pdf.addPage([842, 595]).node.set(PDFName.of("Contents"), contents);
  return pdf.save();
}

/**
 * One blank page, and `megabytes` MB of random bytes in a stream no page uses: the converter holds
 * the file it reads, so its memory grows by at least that much as soon as the PDF is opened —
 * quickly and on any machine, unlike a drawing that fills memory slowly.
 */
async function heavyPdf(megabytes: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.addPage([200, 200]);
  pdf.context.register(pdf.context.stream(randomBytes(megabytes * 1024 * 1024)));
  return pdf.save();
}

/** A conversion followed: every event in order, and how it ended. */
function follow(converter: PdfConverter, bytes: Uint8Array, account: string, log: string[], name = account) {
  const record = { waiting: [] as number[], pages: 0, pageCount: 0, outcome: null as unknown };
  const events: PdfConversionEvents = {
    waiting: (ahead) => {
      record.waiting.push(ahead);
      log.push(`${name} waiting ${ahead}`);
    },
    started: () => log.push(`${name} started`),
    opened: (pageCount) => {
      record.pageCount = pageCount;
    },
    page: () => {
      record.pages += 1;
      log.push(`${name} page ${record.pages}`);
    },
  };
  const done = converter.convert(bytes, events, account).then(
    () => {
      record.outcome = "done";
      log.push(`${name} done`);
    },
    (error: unknown) => {
      record.outcome = error;
      log.push(`${name} failed`);
    },
  );
  return { record, done };
}

describe("issue 27 PDF converter", () => {
  let converter: PdfConverter | null = null;
  const open = (options: PdfWorkerOptions) => {
    converter = createPdfWorkers(TEST_WORKER_DIR, { spareIdleMs: 0, ...options });
    return converter;
  };
  afterEach(async () => {
    await converter?.close();
    converter = null;
  });

  it("issue 27 fair PDF queue: another person's PDF gets the next turn, not the end of the first person's queue", async () => {
    // One page a turn, so the order is exact.
    const pdfs = open({ sliceMs: 0 });
    const log: string[] = [];
    const gracePdf = await textPdf(1);
    const first = follow(pdfs, await textPdf(12), "ada", log, "ada-1");
    const second = follow(pdfs, await textPdf(12), "ada", log, "ada-2");
    // Ada's second PDF waits behind her first.
    expect(second.record.waiting).toEqual([1]);
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (first.record.pages >= 1) {
          clearInterval(check);
          resolve();
        }
      }, 5);
    });
    const arrived = log.length;
    const grace = follow(pdfs, gracePdf, "grace", log);
    await grace.done;
    expect(grace.record.outcome).toBe("done");
    // While Grace's PDF was there, Ada's turn ended after the pages under way (one on its way to the
    // server, one encoding, one drawing), instead of going on to the end of Ada's 24 pages.
    const meanwhile = log.slice(arrived, log.indexOf("grace done"));
    expect(
      meanwhile.filter((event) => event.startsWith("ada")).filter((event) => event.includes("page")).length,
    ).toBeLessThanOrEqual(3);
    await Promise.all([first.done, second.done]);
    expect([first.record.outcome, second.record.outcome]).toEqual(["done", "done"]);
    // Ada's PDFs ran one after the other, and Grace's was done long before Ada's first.
    expect(log.indexOf("ada-1 page 12")).toBeLessThan(log.indexOf("ada-2 started"));
    expect(log.indexOf("grace done")).toBeLessThan(log.indexOf("ada-1 page 12"));
  }, 120_000);

  it("issue 27 fair PDF queue: a waiting PDF is told how many go before it, and again when that changes", async () => {
    const pdfs = open({ sliceMs: 0 });
    const log: string[] = [];
    const a1 = follow(pdfs, await textPdf(4), "ada", log, "ada-1");
    const a2 = follow(pdfs, await textPdf(4), "ada", log, "ada-2");
    const a3 = follow(pdfs, await textPdf(1), "ada", log, "ada-3");
    expect(a1.record.waiting).toEqual([]);
    expect(a2.record.waiting).toEqual([1]);
    expect(a3.record.waiting).toEqual([2]);
    await Promise.all([a1.done, a2.done, a3.done]);
    // When the first was done, the third had one before it.
    expect(a3.record.waiting).toEqual([2, 1]);
    expect(log.indexOf("ada-2 started")).toBeGreaterThan(log.indexOf("ada-1 page 4"));
  }, 120_000);

  it("issue 27 PDF limits: a page past the per-page limit fails its PDF as too slow, and the next PDF converts", async () => {
    // 2 s of CPU time a page (the clock's limit out of the way: a loaded machine can't fail a page here).
    const pdfs = open({ pageTimeLimitMs: 2_000, pageWallLimitMs: 600_000 });
    const log: string[] = [];
    // 200,000 line segments: many seconds of CPU a page on any machine; a text page well under 1 s.
    const slow = follow(pdfs, await linesPdf(3, 200_000), "ada", log);
    const next = follow(pdfs, await textPdf(2), "grace", log);
    await Promise.all([slow.done, next.done]);
    expect(slow.record.outcome).toBeInstanceOf(PdfImportError);
    expect(slow.record.outcome).toMatchObject({ problem: "tooSlow", statusCode: 422 });
    expect((slow.record.outcome as Error).message).toMatch(/pages take too long to draw/);
    expect(next.record.outcome).toBe("done");
    expect(next.record.pages).toBe(2);
  }, 120_000);

  it("issue 27 PDF limits: a PDF whose pace can't finish within the whole-PDF limit is stopped early, in words", async () => {
    // 300 pages of 5,000 segments: at least 0.1 s of CPU a page anywhere, so 300 pages can't fit in
    // 20 s; after two pages that is clear, long before 20 s have been used.
    const pdfs = open({ jobTimeLimitMs: 20_000, paceGraceMs: 0, pageTimeLimitMs: 60_000, pageWallLimitMs: 600_000 });
    const log: string[] = [];
    const long = follow(pdfs, await linesPdf(300, 5_000), "ada", log);
    await long.done;
    expect(long.record.outcome).toMatchObject({ problem: "tooLong", statusCode: 422 });
    expect((long.record.outcome as Error).message).toMatch(/longer than the 20 seconds Podium allows/);
    expect(long.record.pages).toBe(2);
  }, 120_000);

  it("issue 27 PDF memory: a converter past its memory ceiling is killed, the PDF refused as needing too much memory, and the next PDF converts", async () => {
    // A child idles near 100 MiB (two: the converting one and the standby) and draws a small page
    // in under 130; the heavy PDF needs 300 more.
    const pdfs = open({ memoryLimitMb: 300, pageTimeLimitMs: 120_000, pageWallLimitMs: 600_000 });
    const log: string[] = [];
    const bomb = follow(pdfs, await heavyPdf(300), "ada", log);
    const next = follow(pdfs, await blankPdf(), "grace", log);
    await Promise.all([bomb.done, next.done]);
    expect(bomb.record.outcome).toMatchObject({ problem: "tooComplex", statusCode: 422 });
    expect((bomb.record.outcome as Error).message).toMatch(/needs more memory than Podium allows/);
    expect(next.record.outcome).toBe("done");
    expect(next.record.pages).toBe(1);
  }, 120_000);

  it("issue 27 PDF converter: converters that die on their own are replaced and the PDF goes on from its next page; dying every time refuses it in words", async () => {
    const pdfs = open({ sliceMs: 0 });
    const log: string[] = [];
    // Both children killed from outside after the first page (the one at work and the standby).
    let killed = 0;
    const survivor = follow(pdfs, await textPdf(6), "ada", log);
    const killAfterFirstPage = setInterval(() => {
      if (survivor.record.pages >= 1 && killed === 0) killed = killConverters();
    }, 5);
    await survivor.done;
    clearInterval(killAfterFirstPage);
    expect(killed).toBeGreaterThan(0);
    expect(survivor.record.outcome).toBe("done");
    // Every page once, in order: the fresh child went on where the first stopped.
    expect(log.filter((event) => event.includes("page"))).toEqual([1, 2, 3, 4, 5, 6].map((n) => `ada page ${n}`));

    // A PDF whose converter dies every time is refused after its retries.
    const doomed = follow(pdfs, await textPdf(6), "grace", log);
    const killEveryPage = setInterval(() => {
      if (doomed.record.pages >= 1) killConverters();
    }, 5);
    await doomed.done;
    clearInterval(killEveryPage);
    expect(doomed.record.outcome).toBeInstanceOf(PdfImportError);
    // In words: the PDF was too much (its converter died each time), or, when a fresh child was
    // killed before it had even started, the converter couldn't start.
    expect(["tooComplex", "failed"]).toContain((doomed.record.outcome as PdfImportError).problem);
    expect(doomed.record.pages).toBeLessThan(6);
  }, 120_000);
});

/** Kills this process's PDF converter children, the one at work and the standby (SIGKILL, as the kernel's OOM killer would); how many. */
function killConverters(): number {
  let killed = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "latin1");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // Still running (not a zombie waiting to be reaped), and a child of this process.
      if (fields[0] === "Z" || Number(fields[1]) !== process.pid) continue;
      if (!readFileSync(`/proc/${entry}/cmdline`, "latin1").includes("pdf-worker")) continue;
      process.kill(Number(entry), "SIGKILL");
      killed += 1;
    } catch {
      // Gone already.
    }
  }
  return killed;
}
