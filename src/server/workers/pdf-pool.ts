import { type ChildProcess, fork } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type PdfConversionEvents, type PdfConverter, PdfImportError } from "../../features/pdf-import/errors";
import type { PdfChildMessage, PdfChildRequest } from "./pdf-worker";

/**
 * PDF conversion off the request loop (issue 10, item 4; issue 27, items 2 and 5). One child
 * process per server process converts every PDF (pdf-worker.ts), taking turns: the people with
 * PDFs waiting go round in order, each turn one slice (PDF_SLICE_MS, every page started in it
 * finished) of that person's oldest PDF. So one person's PDFs delay another's by at most one
 * slice — about a page — however many pages they have; a person's second PDF waits for their
 * first. Its memory is the child's, pdfjs's heap and the canvas's and sharp's native memory
 * alike: the server reads the child's resident size every RSS_POLL_MS and kills it past the
 * ceiling, failing the PDF whose turn it was; the others reopen in a fresh child where they were.
 */

/** The built converter's file name beside the server bundle (vite.config.ts). */
export const PDF_WORKER_FILE = "pdf-worker.js";

/**
 * One page may use this much of the converter's CPU time to draw and encode (counted from the
 * last page the job sent, or the start of its turn; CPU time, so a busy machine doesn't make a
 * real page fail: the child runs at nice 10, behind everything else). A slide page uses 0.1–0.3
 * s (bench:pdf: 9 pages/s on the 2-core development machine), a page holding a 24 MP photo about
 * 1.5 s; 5 s is three times that. It is the longest one person's page holds up another's PDF on
 * a machine with CPU to spare.
 */
export const PDF_PAGE_TIME_LIMIT_MS = 5_000;
/**
 * However busy the machine, a page is stopped after this long by the clock: what bounds another
 * person's wait when the machine has no CPU to spare. On the development machine at a load of
 * 28–33 on 2 cores a 1-page PDF alone took 4–12 s (the child gets what nice 10 leaves), so 30 s.
 */
export const PDF_PAGE_WALL_LIMIT_MS = 30_000;
/**
 * The conversion time (CPU, as above) one PDF may use in all (its own turns, not others'):
 * 300 pages (the most a PDF may have) at the measured 9 pages/s take 33 s, 100 s on a machine
 * three times as loaded; 120 s lets every real deck through and no PDF hold the converter for
 * minutes. A PDF whose pace (its time per page so far, times its pages) says it can't finish
 * within it is stopped as soon as that is clear (PACE_GRACE_MS), not at the end.
 */
export const PDF_JOB_TIME_LIMIT_MS = 120_000;
/** Its pace is judged once a PDF has used this much time and drawn 2 pages (a first page is slow: fonts load). */
const PACE_GRACE_MS = 5_000;
/**
 * The converter's memory ceiling in MiB: the resident sets (JavaScript heap and native memory
 * alike) of the child converting and the standby child, together. Measured on the development
 * machine: a child idles at 100 MiB with pdfjs loaded; a 30-page slide deck peaks at 190 MiB, a
 * deck of 24 MP photos at 425 MiB (so with the standby about 525); the hostile PDFs of issue 27
 * pass it (a page drawing a 49 MP image 40 times: 780 MiB and growing; a 1 MB Flate bomb: 1.4
 * GiB). Past it the child is killed and the PDF refused (tooComplex). PODIUM_PDF_MEMORY_MB sets it.
 */
// Session 36: at 768 a 3-page 2 kB PDF was refused in two full e2e runs ("needs more memory"), and
// once more at 2048 (session 37): the same words then also said that the child had died on its own
// (any exit), which is the likelier cause. A child that dies on its own is now replaced and the PDF
// goes on (PDF_CRASH_RETRIES). 2 GiB still stops the hostile PDFs (they grow without bound).
export const PDF_CHILD_MEMORY_MB = 2_048;
/**
 * A turn: the pages of one PDF started within this long, then the next person's turn. With no one
 * else waiting a turn is long (LONE_SLICE_MS: one PDF alone keeps its encode overlapping the next
 * page's drawing), and ends after the page under way as soon as someone else's PDF arrives.
 */
const PDF_SLICE_MS = 250;
const LONE_SLICE_MS = 60_000;
/**
 * A child that dies on its own while converting (V8 out of heap, a crash, killed from outside) is
 * replaced and the PDF goes on from its next page this many times; then the PDF is refused
 * (tooComplex). Two: what kills one child (the kernel's OOM killer, an operator) may take the
 * standby with it, and its death, met when the PDF moves to it, isn't the PDF's doing. The PDF's
 * time is its own across children (PDF_JOB_TIME_LIMIT_MS), so retries don't extend it.
 */
const PDF_CRASH_RETRIES = 2;
/**
 * A converter that dies before it has started (killed from outside, or the machine out of
 * processes) is nothing about the PDF: it gets a fresh one, this many times, before the PDF fails
 * with "couldn't start".
 */
const PDF_START_RETRIES = 2;
/** How often the child's resident size and CPU time are read (/proc, Linux). */
const RSS_POLL_MS = 50;
/** Clock ticks a second in /proc/{pid}/stat (USER_HZ: 100 on every Linux Podium runs on). */
const CLOCK_TICKS_PER_S = 100;
/** A fresh child loads pdfjs before its first PDF; that isn't the PDF's time (a busy machine: tens of seconds). */
const CHILD_START_LIMIT_MS = 60_000;

export interface PdfWorkerOptions {
  /** PDFs converting or waiting besides the first, in all (4); past that, 503 with Retry-After. */
  maxWaiting?: number;
  /** The child's resident-memory ceiling in MiB (PDF_CHILD_MEMORY_MB). */
  memoryLimitMb?: number;
  /** See the constants above. */
  pageTimeLimitMs?: number;
  pageWallLimitMs?: number;
  jobTimeLimitMs?: number;
  paceGraceMs?: number;
  sliceMs?: number;
  /** How long a spare child (pdfjs loaded) waits for the next PDF; 0 keeps none (5 minutes). */
  spareIdleMs?: number;
}

const TOO_SLOW =
  "Podium couldn't convert this PDF in time: its pages take too long to draw. Split it into smaller files or simplify the pages, and try again.";
const TOO_COMPLEX =
  "This PDF needs more memory than Podium allows for one file. Split it into smaller files or reduce its images, and try again.";
const tooLong = (limitMs: number) =>
  `Podium stopped converting this PDF: at the pace its pages draw, it would take longer than the ${Math.round(limitMs / 1000)} seconds Podium allows for one file. Split it into smaller files or simplify the pages, and try again.`;

interface Job {
  id: number;
  account: string;
  bytes: Uint8Array;
  events: PdfConversionEvents;
  resolve(): void;
  reject(error: unknown): void;
  /** Known once opened (in any child). */
  pageCount: number | null;
  pagesDone: number;
  /** Conversion time used in its own turns. */
  usedMs: number;
  /** The child it is open in (reopened from its next page after a child is replaced). */
  openIn: Child | null;
  started: boolean;
  /** Last `waiting` figure told, so it is told again only when it changes. */
  toldAhead: number | null;
  ended: boolean;
  /** Children that died on their own while converting it (PDF_CRASH_RETRIES). */
  crashes: number;
  /** Converters that couldn't start for it (PDF_START_RETRIES). */
  startFailures: number;
}

interface Child {
  process: ChildProcess;
  /** Resolves true once pdfjs is loaded, false if the child died or didn't start in time. */
  ready: Promise<boolean>;
  /** The answer to the request in flight, if any. */
  answer: ((message: PdfChildMessage | { type: "exit" }) => void) | null;
  exited: boolean;
}

/** The child's resident set in bytes (Linux), or null where /proc can't say. */
function residentBytes(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const pages = Number(readFileSync(`/proc/${pid}/statm`, "latin1").split(" ")[1]);
    return Number.isFinite(pages) ? pages * 4096 : null;
  } catch {
    return null;
  }
}

/** The child's CPU time so far in ms (all its threads: user and system), or null where /proc can't say. */
function cpuMs(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / CLOCK_TICKS_PER_S : null;
  } catch {
    return null;
  }
}

export function createPdfWorkers(workerDir: string, options: PdfWorkerOptions = {}): PdfConverter {
  const script = fileURLToPath(
    new URL(PDF_WORKER_FILE, `file://${workerDir.endsWith("/") ? workerDir : `${workerDir}/`}`),
  );
  const maxWaiting = options.maxWaiting ?? 4;
  const memoryLimitBytes = (options.memoryLimitMb ?? PDF_CHILD_MEMORY_MB) * 1024 * 1024;
  const pageTimeLimitMs = options.pageTimeLimitMs ?? PDF_PAGE_TIME_LIMIT_MS;
  const pageWallLimitMs = options.pageWallLimitMs ?? PDF_PAGE_WALL_LIMIT_MS;
  const jobTimeLimitMs = options.jobTimeLimitMs ?? PDF_JOB_TIME_LIMIT_MS;
  const paceGraceMs = options.paceGraceMs ?? PACE_GRACE_MS;
  const sliceMs = options.sliceMs ?? PDF_SLICE_MS;
  const spareIdleMs = options.spareIdleMs ?? 5 * 60 * 1000;
  /** Each person's PDFs, oldest first; the Map's order is the turn order (served: moved to the end). */
  const queues = new Map<string, Job[]>();
  let jobCount = 0;
  let nextJobId = 1;
  let pumping = false;
  let closed = false;
  let child: Child | null = null;
  /** The job whose turn it is, and whether its turn was a long one (no one else was waiting). */
  let turnOf: { job: Job; child: Child; lone: boolean } | null = null;
  /**
   * While PDFs convert, a second child waits with pdfjs loaded, so a child killed for time or
   * memory is replaced at once: the next person's turn doesn't wait for a new child to start.
   */
  let standby: Child | null = null;
  let idleTimer: NodeJS.Timeout | null = null;

  const spawn = (): Child => {
    // The V8 heap gets most of the ceiling; the resident-size watch covers the rest (native memory).
    const heapMb = Math.max(64, Math.floor((memoryLimitBytes / 1024 / 1024) * 0.75));
    const converter = fork(script, [], {
      execArgv: [`--max-old-space-size=${heapMb}`],
      serialization: "advanced",
      stdio: ["ignore", "ignore", "ignore", "ipc"],
    });
    let markReady: (ready: boolean) => void = () => {};
    const ready = new Promise<boolean>((resolve) => {
      markReady = resolve;
    });
    const startLimit = setTimeout(() => markReady(false), CHILD_START_LIMIT_MS);
    startLimit.unref();
    const spawned: Child = { process: converter, ready, answer: null, exited: false };
    converter.on("message", (message: PdfChildMessage) => {
      if (message.type === "ready") {
        clearTimeout(startLimit);
        markReady(true);
      } else spawned.answer?.(message);
    });
    converter.on("error", () => {});
    converter.on("exit", () => {
      spawned.exited = true;
      clearTimeout(startLimit);
      markReady(false);
      if (child === spawned) child = null;
      if (standby === spawned) standby = null;
      spawned.answer?.({ type: "exit" });
    });
    return spawned;
  };
  const stopChild = (which: Child | null) => {
    if (!which) return;
    if (child === which) child = null;
    if (standby === which) standby = null;
    if (!which.exited) which.process.kill("SIGKILL");
    for (const jobs of queues.values()) for (const job of jobs) if (job.openIn === which) job.openIn = null;
  };
  /** A running child, idle between jobs (pdfjs loaded) until spareIdleMs passes with none. */
  const takeChild = (): Child => {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = null;
    if (!child || child.exited) {
      child = standby ?? spawn();
      standby = null;
    }
    child.process.ref();
    (child.process.channel as { ref?(): void } | undefined)?.ref?.();
    standby ??= spawn();
    return child;
  };
  const idle = () => {
    // Nothing a PDF made is kept: the child that converted it goes, and a fresh one waits (or none).
    stopChild(child);
    const spare = standby ?? (closed || spareIdleMs <= 0 ? null : spawn());
    standby = null;
    if (!spare) return;
    if (closed || spareIdleMs <= 0) {
      stopChild(spare);
      return;
    }
    spare.process.unref();
    (spare.process.channel as { unref?(): void } | undefined)?.unref?.();
    child = spare;
    idleTimer = setTimeout(() => stopChild(spare), spareIdleMs);
    idleTimer.unref();
  };

  /** Tells every waiting PDF how many go before it: its person's older PDFs and the people whose turn comes first. */
  const tellWaiting = () => {
    let peopleBefore = 0;
    for (const jobs of queues.values()) {
      jobs.forEach((job, index) => {
        if (job.started) return;
        const ahead = peopleBefore + index;
        if (job.toldAhead === ahead) return;
        job.toldAhead = ahead;
        job.events.waiting?.(ahead);
      });
      peopleBefore += 1;
    }
  };

  const end = (job: Job, error: unknown | null) => {
    if (job.ended) return;
    job.ended = true;
    jobCount -= 1;
    const jobs = queues.get(job.account) ?? [];
    const at = jobs.indexOf(job);
    if (at >= 0) jobs.splice(at, 1);
    if (jobs.length === 0) queues.delete(job.account);
    if (job.openIn && !job.openIn.exited) {
      const request: PdfChildRequest = { type: "close", job: job.id };
      job.openIn.process.send(request);
    }
    job.openIn = null;
    if (error) job.reject(error);
    else job.resolve();
  };

  /**
   * Sends one request and follows its answers until the turn is over, watching time and memory.
   * Resolves with how the turn ended.
   */
  const turn = (
    current: Child,
    job: Job,
    request: PdfChildRequest,
  ): Promise<"opened" | "paused" | "done" | "crashed" | { error: PdfImportError; kill: boolean }> =>
    new Promise((resolve) => {
      const pid = current.process.pid;
      // The child's CPU time where /proc says it (Linux; its last reading once it is gone), else the clock.
      let lastCpu = cpuMs(pid);
      const clock =
        lastCpu === null
          ? () => performance.now()
          : () => {
              lastCpu = cpuMs(pid) ?? lastCpu;
              return lastCpu ?? 0;
            };
      const startedAt = clock();
      const usedBefore = job.usedMs;
      let pageFrom = startedAt;
      let settled = false;
      let pageTimer: NodeJS.Timeout;
      const settle = (outcome: Awaited<ReturnType<typeof turn>>) => {
        if (settled) return;
        settled = true;
        clearTimeout(pageTimer);
        clearInterval(memoryWatch);
        current.answer = null;
        job.usedMs = usedBefore + (clock() - startedAt);
        resolve(outcome);
      };
      const fail = (problem: PdfImportError["problem"], message: string, kill = true) =>
        settle({ error: new PdfImportError(problem, 422, message), kill });
      const armPageTimer = () => {
        clearTimeout(pageTimer);
        pageTimer = setTimeout(() => fail("tooSlow", TOO_SLOW), pageWallLimitMs);
        pageFrom = clock();
      };
      armPageTimer();
      const memoryWatch = setInterval(() => {
        if (clock() - pageFrom > pageTimeLimitMs) fail("tooSlow", TOO_SLOW);
        // The ceiling is the converter's as a whole: the child converting and the one standing by.
        const rss = residentBytes(current.process.pid);
        const waiting = standby && !standby.exited ? (residentBytes(standby.process.pid) ?? 0) : 0;
        if (rss !== null && rss + waiting > memoryLimitBytes) fail("tooComplex", TOO_COMPLEX);
      }, RSS_POLL_MS);
      current.answer = (message) => {
        if (settled) return;
        if (message.type === "exit") {
          // Out of heap (V8's own limit), or a crash: the pump tries the PDF once more in a fresh
          // child before it says the file was too much for the converter.
          settle("crashed");
          return;
        }
        if (message.type === "ready" || message.job !== job.id) return;
        switch (message.type) {
          case "opened":
            job.pageCount = message.pageCount;
            settle("opened");
            return;
          case "page": {
            armPageTimer();
            job.pagesDone += 1;
            const used = usedBefore + (clock() - startedAt);
            try {
              job.events.page(message.page);
            } catch (error) {
              settle({ error: error as PdfImportError, kill: false });
              return;
            }
            const pageCount = job.pageCount ?? 0;
            const projected = (used / job.pagesDone) * pageCount;
            if (used > jobTimeLimitMs || (job.pagesDone >= 2 && used >= paceGraceMs && projected > jobTimeLimitMs)) {
              fail("tooLong", tooLong(jobTimeLimitMs));
            }
            return;
          }
          case "paused":
          case "done":
            settle(message.type);
            return;
          case "error":
            settle({ error: new PdfImportError(message.problem, message.statusCode, message.message), kill: false });
            return;
        }
      };
      if (current.exited) {
        settle("crashed");
        return;
      }
      // The bytes go by structured clone over the IPC channel; the server keeps its copy in case
      // the child is replaced before the PDF is done (it is then reopened where it was).
      current.process.send(request, (error) => {
        if (error) settle("crashed");
      });
    });

  /** A `run` turn: short when others wait, long (until someone else's PDF arrives) when not. */
  const run = (current: Child, job: Job) => {
    const lone = queues.size <= 1;
    turnOf = { job, child: current, lone };
    return turn(current, job, { type: "run", job: job.id, sliceMs: lone ? LONE_SLICE_MS : sliceMs }).finally(() => {
      turnOf = null;
    });
  };
  /** A PDF arrived: a long turn under way ends after its page (only when another person's turn is due). */
  const cutLoneTurn = (account: string) => {
    if (!turnOf?.lone || turnOf.job.account === account || turnOf.child.exited) return;
    turnOf.lone = false;
    const request: PdfChildRequest = { type: "yield", job: turnOf.job.id };
    turnOf.child.process.send(request);
  };

  const pump = async () => {
    if (pumping) return;
    pumping = true;
    try {
      while (!closed && queues.size > 0) {
        const [account, jobs] = queues.entries().next().value as [string, Job[]];
        const job = jobs[0] as Job;
        if (!job.started) {
          job.started = true;
          job.events.started?.();
        }
        tellWaiting();
        const current = takeChild();
        let outcome: Awaited<ReturnType<typeof turn>> | "notStarted";
        if (!(await current.ready)) {
          // The converter itself couldn't start: nothing about this PDF; it tries a fresh one, and
          // after PDF_START_RETRIES it fails (the next PDF tries a new one).
          stopChild(current);
          job.startFailures += 1;
          outcome =
            job.startFailures > PDF_START_RETRIES
              ? {
                  error: new PdfImportError(
                    "failed",
                    500,
                    "Podium couldn't start converting this PDF. Please try again.",
                  ),
                  kill: false,
                }
              : "notStarted";
        } else if (job.openIn !== current) {
          const from = job.pagesDone + 1;
          outcome = await turn(current, job, { type: "open", job: job.id, bytes: job.bytes, from });
          if (outcome === "opened") {
            job.openIn = current;
            // Told once, when first opened (a reopen after a replaced child isn't news).
            if (from === 1) {
              try {
                job.events.opened(job.pageCount ?? 0);
              } catch (error) {
                outcome = { error: error as PdfImportError, kill: false };
              }
            }
          }
          // Opening and the first slice are one turn: a new PDF doesn't wait a round in between.
          if (outcome === "opened") outcome = await run(current, job);
        } else {
          outcome = await run(current, job);
        }
        if (closed) break;
        if (outcome === "crashed") {
          // The child died on its own (not stopped here for time or memory): once, the PDF goes on
          // from its next page in a fresh child; twice, it is the file's doing.
          job.openIn = null;
          job.crashes += 1;
          stopChild(current);
          if (job.crashes > PDF_CRASH_RETRIES) end(job, new PdfImportError("tooComplex", 422, TOO_COMPLEX));
        } else if (typeof outcome === "object") {
          if (outcome.kill) stopChild(current);
          end(job, outcome.error);
        } else if (outcome === "done") {
          end(job, null);
        } else if (outcome === "paused" && job.usedMs > jobTimeLimitMs) {
          end(job, new PdfImportError("tooLong", 422, tooLong(jobTimeLimitMs)));
        }
        // The person's turn is over: they go to the back of the line.
        const left = queues.get(account);
        if (left) {
          queues.delete(account);
          queues.set(account, left);
        }
        if (child?.exited) child = null;
      }
    } finally {
      pumping = false;
    }
    if (!closed) idle();
  };

  return {
    convert(bytes, events, account = "") {
      if (closed) return Promise.reject(new Error("The PDF workers are closed."));
      if (jobCount > maxWaiting) {
        return Promise.reject(
          new PdfImportError("busy", 503, "Podium is converting other PDFs right now. Try again in a minute.", 60),
        );
      }
      return new Promise<void>((resolve, reject) => {
        const job: Job = {
          id: nextJobId++,
          account,
          bytes,
          events,
          resolve,
          reject,
          pageCount: null,
          pagesDone: 0,
          usedMs: 0,
          openIn: null,
          started: false,
          toldAhead: null,
          ended: false,
          crashes: 0,
          startFailures: 0,
        };
        jobCount += 1;
        const jobs = queues.get(account);
        if (jobs) jobs.push(job);
        else queues.set(account, [job]);
        cutLoneTurn(account);
        void pump();
        tellWaiting();
      });
    },
    async close() {
      closed = true;
      if (idleTimer) clearTimeout(idleTimer);
      const closing = new Error("The PDF workers are closed.");
      for (const jobs of [...queues.values()]) for (const job of [...jobs]) end(job, closing);
      stopChild(standby);
      const last = child;
      stopChild(child);
      if (last && !last.exited) await new Promise((resolve) => last.process.once("exit", resolve));
    },
  };
}
