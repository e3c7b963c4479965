// Benchmark of PDF import (issue 10, item 4). Goal: a 30-page text PDF is imported in ≤ 10 s.
//
// One run starts the built server (PGlite in memory, no demo seed, request log off, rate limits
// lifted), signs one person up through the real form, builds a 30-page text PDF with pdf-lib
// (a heading, a few lines and a coloured band per page) and imports it through the running
// pipeline: POST /api/imports/pdf, then GET /api/imports/{id} every 100 ms until it is done.
// Each import is timed from the first byte sent to the answer that says "done" (upload,
// conversion in the PDF worker, and the one transaction that stores page images and the deck).
// The first import is reported apart (the worker's first start loads pdfjs from disk).
//
// The figures and the goal are reported, never enforced. The run exits non-zero only when an
// import fails or the server dies.
//
// Usage: npm run bench:pdf [-- --runs 3 --pages 30 --build]
// Builds when dist/ is missing (or with --build); all traffic goes to 127.0.0.1.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { PDFDocument, rgb, StandardFonts } from "pdf-lib";
import * as support from "./support.mjs";
import { freePort, LIFTED_RATE_LIMITS, option, pdfUpload, ROOT, signUpThroughForm, startPodium } from "./support.mjs";

process.chdir(ROOT);

const RUNS = option("runs", 3);
const PAGES = option("pages", 30);
const GOAL_SECONDS = 10;

async function textPdf(pages) {
  const pdf = await PDFDocument.create();
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n += 1) {
    const page = pdf.addPage([960, 540]);
    page.drawRectangle({ x: 0, y: 0, width: 960, height: 60, color: rgb(0.25, 0.24, 0.73) });
    page.drawText(`Section ${n}: what the tide leaves`, { x: 60, y: 440, size: 40, font: bold });
    for (let line = 0; line < 8; line += 1) {
      page.drawText(`Line ${line + 1} of page ${n}: anemones, limpets, kelp and a crab called ${n}-${line}`, {
        x: 60,
        y: 380 - line * 34,
        size: 20,
        font,
      });
    }
  }
  return Buffer.from(await pdf.save());
}

// --- the server -----------------------------------------------------------------------------

let server = null;

const request = (port, options) => support.request(port, { ...options, timeoutMs: 120_000 });
const signUp = (port) => signUpThroughForm(port, { lastName: "Pdf", emailPrefix: "bench-pdf", timeoutMs: 120_000 });

/** One import: upload, then ask until done. Returns seconds and the page count. */
async function importOnce(port, person, pdf, run) {
  const { body, headers } = pdfUpload(person, pdf, `bench-${run}.pdf`);
  const started = performance.now();
  const upload = await request(port, { method: "POST", path: "/api/imports/pdf", headers, body });
  const uploadedAt = performance.now();
  if (upload.status !== 202) throw new Error(`POST /api/imports/pdf answered ${upload.status}: ${upload.body}`);
  const { id } = JSON.parse(String(upload.body));
  for (;;) {
    const answer = await request(port, { path: `/api/imports/${id}`, headers: { cookie: person.cookie } });
    const status = JSON.parse(String(answer.body));
    if (status.state === "done") {
      const seconds = (performance.now() - started) / 1000;
      return { seconds, acceptedAfter: (uploadedAt - started) / 1000, pages: status.pageCount };
    }
    if (status.state !== "converting") throw new Error(`import failed: ${answer.status} ${answer.body}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function main() {
  if (process.argv.includes("--build") || !existsSync("dist/server/pdf-worker.js")) {
    console.log("building…");
    execFileSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
  }
  const pdf = await textPdf(PAGES);
  const port = await freePort();
  server = await startPodium(port, { dataDir: "memory://" }, { PODIUM_SEED: "off", ...LIFTED_RATE_LIMITS });
  try {
    const person = await signUp(port);
    console.log(
      `PDF import bench: ${PAGES}-page text PDF (${(pdf.length / 1024).toFixed(0)} KB), ${RUNS} runs after a first one, ${availableParallelism()} cores`,
    );
    const first = await importOnce(port, person, pdf, 0);
    console.log(
      `  first import (worker cold): ${first.seconds.toFixed(2)} s, ${(first.pages / first.seconds).toFixed(1)} pages/s`,
    );
    const times = [];
    for (let run = 1; run <= RUNS; run += 1) {
      const result = await importOnce(port, person, pdf, run);
      times.push(result.seconds);
      console.log(
        `  import ${run}: ${result.seconds.toFixed(2)} s (accepted after ${result.acceptedAfter.toFixed(2)} s), ${(result.pages / result.seconds).toFixed(1)} pages/s`,
      );
    }
    const sorted = [...times].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    console.log(
      `PDF import: median ${median.toFixed(2)} s per ${PAGES}-page import, ${(PAGES / median).toFixed(1)} pages/s (goal ≤ ${GOAL_SECONDS} s: ${median <= GOAL_SECONDS ? "met" : "NOT met"})`,
    );
  } finally {
    await server.stop();
  }
}

main().catch(async (error) => {
  console.error(error);
  if (server) console.error(server.stderr().slice(-2_000));
  await server?.stop();
  process.exit(1);
});
