// The PDF half of `npm run bench:imports` (issue 27 items 2 and 5): while one person keeps two
// hostile PDFs in flight, is another person's 1-page PDF done within 10 s, and does the server's
// memory (the server process and its PDF converter child) stay under the stated ceiling?
//
// Ada keeps two imports going through the real API (POST /api/imports/pdf, then GET
// /api/imports/{id} until it ends), each lane sending its next hostile PDF as soon as the last one
// ended: lane 1 a 300-page PDF of 20,000 line segments a page; lane 2 alternately a small PDF
// whose pages each draw a 49 MP image 40 times, and a 1 MB Flate bomb that inflates to 1 GB.
// Meanwhile Grace imports a 1-page PDF again and again, each timed from the first byte sent to
// the answer that says "done"; her first is timed on the idle server as the same-run baseline.
// The resident size of the server and of every process it started is read every 50 ms (/proc).
//
// Figures are reported, never enforced; correctness problems (a 5xx, a hostile PDF that
// converts, Grace's PDF failing) are pushed to `failures`.
import { readdirSync, readFileSync } from "node:fs";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { bombPdf, imagePdf, linesPdf } from "./hostile-pdfs.mjs";
import { pdfUpload } from "./support.mjs";

const GOAL_MS = 10_000;
/** src/server/workers/pdf-pool.ts PDF_CHILD_MEMORY_MB: the converter's ceiling (its children together), read from the source. */
const CHILD_CEILING_MB = Number(
  /export const PDF_CHILD_MEMORY_MB = ([\d_]+);/
    .exec(readFileSync(new URL("../src/server/workers/pdf-pool.ts", import.meta.url), "utf8"))?.[1]
    ?.replaceAll("_", "") ?? Number.NaN,
);
if (!Number.isFinite(CHILD_CEILING_MB)) throw new Error("pdf-fairness: PDF_CHILD_MEMORY_MB not found in pdf-pool.ts");

const mib = (bytes) => Math.round(bytes / 1024 / 1024);

/** Resident bytes of a process (its threads included), or 0 once it is gone. */
function resident(pid) {
  try {
    return Number(readFileSync(`/proc/${pid}/statm`, "latin1").split(" ")[1]) * 4096;
  } catch {
    return 0;
  }
}

/** The processes `pid` started (the PDF converter), found by their parent in /proc. */
function childrenOf(pid) {
  const found = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "latin1");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (parent === pid) found.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** Samples the server's and its children's memory until stopped: peaks of each and of the sum. */
function watchMemory(serverPid) {
  const peaks = { server: 0, children: 0, total: 0 };
  let children = [];
  let scans = 0;
  const timer = setInterval(() => {
    // Finding the children reads all of /proc: every 10th sample (a killed child is replaced within a second or so).
    if (scans++ % 10 === 0) children = childrenOf(serverPid);
    const server = resident(serverPid);
    const child = children.reduce((sum, pid) => sum + resident(pid), 0);
    peaks.server = Math.max(peaks.server, server);
    peaks.children = Math.max(peaks.children, child);
    peaks.total = Math.max(peaks.total, server + child);
  }, 50);
  return {
    stop() {
      clearInterval(timer);
      return { serverMiB: mib(peaks.server), converterMiB: mib(peaks.children), totalMiB: mib(peaks.total) };
    },
  };
}

async function onePagePdf() {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([960, 540]);
  page.drawText("Grace's one slide", { x: 60, y: 400, size: 40, font });
  page.drawText("It should not wait for anyone else's PDFs.", { x: 60, y: 320, size: 24, font });
  return Buffer.from(await pdf.save());
}

/** One PDF import through the API: { status, problem, ms, pages, waitingSeen }; never throws. */
async function importPdf(port, request, person, pdf, name) {
  const { body, headers } = pdfUpload(person, pdf, `${name}.pdf`);
  const started = performance.now();
  const result = (status, answer, extra = {}) => ({
    name,
    status,
    problem: answer?.problem ?? null,
    ms: Math.round(performance.now() - started),
    pages: answer?.pagesDone ?? 0,
    ...extra,
  });
  try {
    const upload = await request(port, { method: "POST", path: "/api/imports/pdf", headers, body });
    const answer = JSON.parse(String(upload.body) || "null");
    if (upload.status !== 202) return result(upload.status, answer);
    let waitingSeen = answer.waiting ? answer.ahead : null;
    for (;;) {
      const asked = await request(port, { path: `/api/imports/${answer.id}`, headers: { cookie: person.cookie } });
      const status = JSON.parse(String(asked.body) || "null");
      if (status?.waiting) waitingSeen = Math.max(waitingSeen ?? 0, status.ahead);
      if (status?.state !== "converting") return result(asked.status, status, { waitingSeen });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch (error) {
    return result(0, { problem: error.message });
  }
}

/**
 * Runs the PDF phase against a running server. `signUp(port)` makes a person; `serverPid` is the
 * server's process. Returns the report and prints it.
 */
export async function pdfFairness({ port, request, signUp, serverPid, failures, graceRuns = 5 }) {
  console.log("\nPDF fairness: making the hostile PDFs…");
  const hostile = {
    lines: await linesPdf(300, 20_000),
    image: await imagePdf(10, 40),
    bomb: await bombPdf(1_024),
  };
  const grace = await onePagePdf();
  const sizes = Object.entries(hostile).map(([name, pdf]) => `${name} ${Math.round(pdf.length / 1024)} kB`);
  console.log(`  ${sizes.join(", ")}; Grace's 1-page PDF ${Math.round(grace.length / 1024)} kB`);
  const ada = await signUp(port);
  const gracePerson = await signUp(port);

  // The server alone: the converter's share is its ceiling below.
  const idleRss = mib(resident(serverPid));
  // Same-run baseline: Grace's PDF on the idle server (twice: the first starts the converter's pdfjs cold).
  await importPdf(port, request, gracePerson, grace, "grace-warm-up");
  const alone = await importPdf(port, request, gracePerson, grace, "grace-alone");
  if (alone.status !== 200) failures.push(`Grace's PDF alone ended ${alone.status} ${alone.problem}`);

  const memory = watchMemory(serverPid);
  let stop = false;
  const hostileResults = [];
  const lane = async (names) => {
    for (let turn = 0; !stop; turn += 1) {
      const name = names[turn % names.length];
      const outcome = await importPdf(port, request, ada, hostile[name], name);
      hostileResults.push(outcome);
      if (outcome.status >= 500) failures.push(`hostile ${name} answered ${outcome.status} ${outcome.problem}`);
      if (outcome.status === 200) failures.push(`hostile ${name} was converted`);
      // Ada's hour is used up (30 imports): her lanes stop, and that is reported.
      if (outcome.problem === "rate") return;
    }
  };
  const lanes = Promise.all([lane(["lines"]), lane(["image", "bomb"])]);
  // Let both hostile PDFs be under way first.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const graceResults = [];
  for (let run = 0; run < graceRuns; run += 1) {
    const outcome = await importPdf(port, request, gracePerson, grace, `grace-${run + 1}`);
    graceResults.push(outcome);
    if (outcome.status !== 200) failures.push(`Grace's PDF ${run + 1} ended ${outcome.status} ${outcome.problem}`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  stop = true;
  await lanes;
  const peaks = memory.stop();

  const worst = Math.max(...graceResults.map((r) => r.ms));
  const outcomes = {};
  for (const { name, status, problem, ms, pages } of hostileResults) {
    outcomes[name] ??= { count: 0, outcomes: {}, maxMs: 0, maxPages: 0 };
    const row = outcomes[name];
    row.count += 1;
    const key = `${status} ${problem ?? ""}`.trim();
    row.outcomes[key] = (row.outcomes[key] ?? 0) + 1;
    row.maxMs = Math.max(row.maxMs, ms);
    row.maxPages = Math.max(row.maxPages, pages);
  }
  console.log(`\nGrace's 1-page PDF, upload to done (alone on the idle server: ${alone.ms} ms):`);
  for (const r of graceResults) {
    console.log(
      `  ${r.name}: ${r.ms} ms, ${r.status}${r.waitingSeen !== null ? `, waited with ${r.waitingSeen} ahead` : ""}`,
    );
  }
  console.log(
    `  worst ${worst} ms while Ada kept 2 hostile PDFs in flight (goal ≤ ${GOAL_MS} ms: ${worst <= GOAL_MS ? "met" : "NOT met"})`,
  );
  console.log("Ada's hostile PDFs:");
  for (const [name, row] of Object.entries(outcomes)) {
    const ends = Object.entries(row.outcomes).map(([key, n]) => `${key} ×${n}`);
    console.log(
      `  ${name}: ${row.count} sent; ${ends.join(", ")}; each ended within ${row.maxMs} ms, at most ${row.maxPages} pages drawn`,
    );
  }
  const ceiling = idleRss + CHILD_CEILING_MB;
  console.log(
    `Memory: server idle ${idleRss} MiB; peak under attack: server ${peaks.serverMiB} MiB, converter children ${peaks.converterMiB} MiB (ceiling ${CHILD_CEILING_MB}), together ${peaks.totalMiB} MiB (ceiling: idle server + converter's = ${ceiling} MiB: ${peaks.totalMiB <= ceiling ? "under" : "OVER"})`,
  );
  return {
    graceAloneMs: alone.ms,
    graceMs: graceResults.map((r) => r.ms),
    graceWorstMs: worst,
    goalMet: worst <= GOAL_MS,
    hostile: outcomes,
    memory: { idleMiB: idleRss, ...peaks, childCeilingMiB: CHILD_CEILING_MB, totalCeilingMiB: ceiling },
  };
}
