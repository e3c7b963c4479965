import { createHash, randomBytes } from "node:crypto";
import type { Database } from "../../db/client";
import { documentFromPages } from "../../document/pdf-pages";
import type { Theme } from "../../document/schema";
import { InvalidDocumentError } from "../../document/schema";
import { recordAsset, storageUsedBy } from "../assets/repository";
import { assetUrl, STORAGE_QUOTA_BYTES } from "../assets/service";
import { type AssetStore, databaseAssetStore } from "../assets/store";
import { saveOriginalPdf } from "../downloads/repository";
import { insertNewPresentation, type Privacy, replacePresentationDocument } from "../presentation/repository";
import { looksLikePdf, PDF_MAX_BYTES, type PdfConverter, PdfImportError, type PdfPage } from "./errors";
import {
  countConverting,
  deleteJob,
  endJob,
  findJob,
  importsSince,
  insertJob,
  pruneJobs,
  touchJob,
} from "./repository";

/**
 * PDF import jobs (issue 10, item 4). An upload becomes a job; the conversion runs in this
 * process's PDF worker (PdfConverter) and reports pages as they are done; when the last page is
 * ready, the page images and the presentation are stored in ONE transaction, so a failure at any
 * point leaves nothing behind. Jobs are forgotten 10 minutes after they end.
 *
 * A job's status is kept in the database (pdf_import_jobs, migration 0017), so any process answers
 * the page asking how far it is: behind several processes the question reaches another one half
 * the time. The process converting writes its progress there (at most every PROGRESS_WRITE_MS) and
 * says it is still at it every HEARTBEAT_MS; a job not heard of for STALE_JOB_MS (its process
 * stopped) reads as failed. The "2 at once" and hourly limits count the person's jobs in every
 * process.
 *
 * Page images count against the person's image storage (assets/service.ts STORAGE_QUOTA_BYTES),
 * like uploaded images: they are the person's images, and the same sweep removes them when no
 * deck uses them any more.
 */

export type JobState = "converting" | "done" | "failed";

/** Progress is written at most this often while a PDF converts. */
const PROGRESS_WRITE_MS = 500;
/** A converting job's process says it is still at it this often, even on a slow page. */
const HEARTBEAT_MS = 15_000;
/** A converting job not heard of for this long was stopped with its process (a restart). */
export const STALE_JOB_MS = 60_000;
/** PdfImportLimits.importsPerHour counts the imports started in this window. */
const IMPORT_RATE_WINDOW_MS = 60 * 60 * 1000;

export interface JobStatus {
  state: JobState;
  /** Converting, but still waiting for its turn (issue 27 item 2): `ahead` PDFs go before it. */
  waiting?: true;
  ahead?: number;
  pagesDone: number;
  pageCount: number;
  oid?: string;
  /** Where the deck opens once it is done. */
  url?: string;
  problem?: PdfImportError["problem"];
  message?: string;
  statusCode?: number;
}

interface Job {
  id: string;
  ownerId: string;
  state: JobState;
  pagesDone: number;
  pageCount: number;
  /** Waiting for its turn behind this many PDFs; null once it converts. */
  ahead: number | null;
  oid: string | null;
  /** The job replaced an existing deck's slides (it opens in the editor, not the view page). */
  replaced: boolean;
  error: PdfImportError | null;
  endedAt: number | null;
  /** Settles when the job has opened its file or failed (what the upload's answer waits for). */
  opened: Promise<void>;
  finished: Promise<void>;
}

export interface PdfImportOptions {
  title: string;
  privacy: string;
  schemaVersion: string;
  /**
   * Replace this presentation's slides instead of making a new one (the editor's "Replace the
   * slides with a PDF"); the route has checked the edit right. Title, privacy and style are its own.
   */
  replace?: { presentationId: string; oid: string; schemaVersion: "0" | "2"; theme: Theme | undefined } | null;
}

export interface PdfImportLimits {
  /** PDF imports per person per hour, in every process (counted in the database). */
  importsPerHour: number;
  /** PDFs one person may have converting or waiting at once. */
  jobsPerPerson: number;
  quotaBytes: number;
  /** How long a finished job's status stays readable. */
  jobTtlMs: number;
}

export const DEFAULT_PDF_LIMITS: PdfImportLimits = {
  importsPerHour: 30,
  jobsPerPerson: 2,
  quotaBytes: STORAGE_QUOTA_BYTES,
  jobTtlMs: 10 * 60 * 1000,
};

const PRIVACIES: readonly Privacy[] = ["public", "reusable", "unlisted", "private"];

export interface PdfImports {
  /**
   * Takes an uploaded PDF: refuses what can be refused at once (not a PDF, too large, busy), then
   * waits until the worker has opened it (so an encrypted, damaged or too long file is refused
   * in the upload's own answer) unless it waits in the queue. Answers the job's id.
   */
  start(ownerId: string, file: { filename: string; bytes: Uint8Array }, options: PdfImportOptions): Promise<string>;
  /** The job's status, for its owner only (null for anyone else, or when it is gone), from any process. */
  status(ownerId: string, id: string): Promise<JobStatus | null>;
  /** Resolves when the job has ended (done or failed). For tests and the bench. */
  finished(id: string): Promise<void>;
}

export function createPdfImports(options: {
  db: Database;
  converter: PdfConverter;
  /** The store for page images; by default the database's, inside the import's transaction. */
  store?: (tx: Parameters<Parameters<Database["transaction"]>[0]>[0]) => AssetStore;
  limits?: Partial<PdfImportLimits>;
  now?: () => number;
  /** Hears failures that aren't the file's fault (the database, a bug), for the server's log. */
  onError?: (error: unknown) => void;
}): PdfImports {
  const { db, converter } = options;
  const now = options.now ?? Date.now;
  const limits: PdfImportLimits = { ...DEFAULT_PDF_LIMITS, ...options.limits };
  const storeFor = options.store ?? databaseAssetStore;
  /** The jobs converting in this process (and ended ones until forgotten, for finished()). */
  const jobs = new Map<string, Job>();
  const at = (offsetMs = 0) => new Date(now() + offsetMs);

  const forgetOld = async () => {
    for (const [id, job] of jobs) {
      if (job.endedAt !== null && job.endedAt + limits.jobTtlMs < now()) jobs.delete(id);
    }
    await pruneJobs(db, {
      createdBefore: at(-IMPORT_RATE_WINDOW_MS),
      endedBefore: at(-limits.jobTtlMs),
      touchedBefore: at(-(STALE_JOB_MS + limits.jobTtlMs)),
    });
  };

  /** Writes a converting job's progress now and then, and says the process is at it meanwhile. */
  const progressWriter = (job: Job) => {
    let written = 0;
    let timer: NodeJS.Timeout | undefined;
    let writing: Promise<void> = Promise.resolve();
    const write = () => {
      timer = undefined;
      written = now();
      const progress = { pagesDone: job.pagesDone, pageCount: job.pageCount, ahead: job.ahead, at: at() };
      writing = writing.then(() => touchJob(db, job.id, progress)).catch((error: unknown) => options.onError?.(error));
    };
    const heartbeat = setInterval(write, HEARTBEAT_MS);
    heartbeat.unref();
    return {
      changed() {
        if (timer) return;
        timer = setTimeout(write, Math.max(0, written + PROGRESS_WRITE_MS - now()));
        timer.unref();
      },
      /** Writes the progress now; resolves once written. */
      flush(): Promise<void> {
        clearTimeout(timer);
        write();
        return writing;
      },
      /** Stops writing; resolves once the last progress write is done (the end is written after it). */
      async stop() {
        clearInterval(heartbeat);
        clearTimeout(timer);
        await writing;
      },
    };
  };

  const store = async (
    job: Job,
    pages: PdfPage[],
    title: string,
    privacy: Privacy,
    schemaVersion: "0" | "2",
    replace: PdfImportOptions["replace"],
    /** Issue 33 item 4: the PDF itself, kept with the deck for its downloads. */
    original: Uint8Array,
  ) => {
    const images = pages.map((page) => ({
      page,
      hash: createHash("sha256").update(page.image).digest("hex"),
    }));
    let document: ReturnType<typeof documentFromPages>;
    try {
      document = documentFromPages(
        images.map(({ page, hash }) => ({
          width: page.width,
          height: page.height,
          lines: page.lines,
          src: assetUrl(hash),
        })),
        schemaVersion,
      );
    } catch (error) {
      if (error instanceof InvalidDocumentError) {
        throw new PdfImportError("corrupt", 422, `Podium couldn't make a presentation of this PDF: ${error.message}`);
      }
      throw error;
    }
    const unique = new Map(images.map((image) => [image.hash, image]));
    const at = new Date(now());
    return db.transaction(async (tx) => {
      const used = await storageUsedBy(tx, job.ownerId);
      const existing = new Set(
        (
          await tx.query<{ hash: string }>("select hash from assets where hash = any($1::text[])", [[...unique.keys()]])
        ).map((row) => row.hash),
      );
      let adding = 0;
      for (const [hash, { page }] of unique) if (!existing.has(hash)) adding += page.image.byteLength;
      if (used + adding > limits.quotaBytes) {
        throw new PdfImportError(
          "quota",
          413,
          `This PDF's pages don't fit in your ${Math.round(limits.quotaBytes / 1024 / 1024)} MB of image storage. Delete presentations you no longer need and try again; unused images are deleted after a day.`,
        );
      }
      const pageStore = storeFor(tx);
      for (const [hash, { page }] of unique) {
        const fresh = await recordAsset(
          tx,
          {
            hash,
            contentType: "image/webp",
            byteSize: page.image.byteLength,
            width: page.imageWidth,
            height: page.imageHeight,
            uploaderId: job.ownerId,
          },
          at,
        );
        if (fresh) await pageStore.put(hash, page.image);
      }
      if (replace) {
        if (replace.theme) document.theme = replace.theme;
        await replacePresentationDocument(tx, replace.presentationId, document);
        await saveOriginalPdf(tx, replace.oid, original);
        return replace.oid;
      }
      const oid = await insertNewPresentation(tx, {
        ownerId: job.ownerId,
        title,
        descriptionHtml: "",
        privacy,
        schemaVersion: document.schemaVersion,
        tags: [],
        document,
      });
      await saveOriginalPdf(tx, oid, original);
      return oid;
    });
  };

  return {
    async start(ownerId, file, importOptions) {
      await forgetOld();
      const replace = importOptions.replace ?? null;
      const privacy = replace ? "private" : PRIVACIES.find((candidate) => candidate === importOptions.privacy);
      if (!privacy) throw new PdfImportError("privacy", 400, "Choose who can see the presentation.");
      const schemaVersion = replace ? replace.schemaVersion : importOptions.schemaVersion === "0" ? "0" : "2";
      if (file.bytes.byteLength > PDF_MAX_BYTES) {
        throw new PdfImportError("tooLarge", 413, `This PDF is larger than ${PDF_MAX_BYTES / 1024 / 1024} MB.`);
      }
      if (file.bytes.byteLength === 0) throw new PdfImportError("empty", 400, "That file is empty.");
      if (!looksLikePdf(file.bytes)) {
        throw new PdfImportError(
          "notPdf",
          415,
          "That file isn't a PDF. Choose a PDF, or a Markdown (.md) or JSON (.json) file.",
        );
      }
      if ((await countConverting(db, ownerId, at(-STALE_JOB_MS))) >= limits.jobsPerPerson) {
        throw new PdfImportError(
          "busy",
          429,
          "You are already importing PDFs. Wait until they are done, then import this one.",
          30,
        );
      }
      // Counted over every process's jobs of the last hour (a job's row stays that long).
      const recent = await importsSince(db, ownerId, at(-IMPORT_RATE_WINDOW_MS));
      if (recent.count >= limits.importsPerHour) {
        const freeAt = (recent.first?.getTime() ?? now()) + IMPORT_RATE_WINDOW_MS;
        throw new PdfImportError(
          "rate",
          429,
          `You have imported ${limits.importsPerHour} PDFs in the last hour. Wait a while and try again.`,
          Math.max(1, Math.ceil((freeAt - now()) / 1000)),
        );
      }
      const title = importOptions.title.trim().slice(0, 200);
      const fallbackTitle =
        file.filename
          .replace(/\.pdf$/i, "")
          .trim()
          .slice(0, 200) || "PDF";
      const id = randomBytes(12).toString("base64url");
      let markOpened = () => {};
      let started = false;
      const pages: PdfPage[] = [];
      const job: Job = {
        id,
        ownerId,
        state: "converting",
        pagesDone: 0,
        pageCount: 0,
        ahead: null,
        oid: null,
        replaced: false,
        error: null,
        endedAt: null,
        opened: new Promise<void>((resolve) => {
          markOpened = resolve;
        }),
        finished: Promise.resolve(),
      };
      // The job is in the database before anything can report on it, and leaves it if refused at once.
      await insertJob(db, { id, ownerId, at: at() });
      const progress = progressWriter(job);
      const conversion = converter.convert(
        file.bytes,
        {
          waiting: (ahead) => {
            job.ahead = ahead;
            progress.changed();
          },
          started: () => {
            started = true;
            if (job.ahead !== null) {
              job.ahead = null;
              progress.changed();
            }
          },
          opened: (pageCount) => {
            job.pageCount = pageCount;
            progress.changed();
            markOpened();
          },
          page: (page) => {
            pages.push(page);
            job.pagesDone = pages.length;
            progress.changed();
          },
        },
        // Turns go round the people with PDFs waiting (server/workers/pdf-pool.ts).
        ownerId,
      );
      job.finished = conversion
        .then(async () => {
          const firstLine = pages[0]?.lines[0]?.slice(0, 200);
          job.oid = await store(
            job,
            pages,
            title || firstLine || fallbackTitle,
            privacy,
            schemaVersion,
            replace,
            file.bytes,
          );
          job.replaced = replace !== null;
          job.state = "done";
        })
        .catch((error: unknown) => {
          if (!(error instanceof PdfImportError)) options.onError?.(error);
          job.error =
            error instanceof PdfImportError
              ? error
              : new PdfImportError("failed", 500, "Something went wrong while importing the PDF. Please try again.");
          job.state = "failed";
        })
        .finally(async () => {
          job.endedAt = now();
          pages.length = 0;
          await progress.stop();
          const error = job.error
            ? { problem: job.error.problem, message: job.error.message, statusCode: job.error.statusCode }
            : null;
          const end = { pagesDone: job.pagesDone, pageCount: job.pageCount, oid: job.oid, replaced: job.replaced };
          await endJob(db, id, { state: job.state === "done" ? "done" : "failed", ...end, error, at: at() }).catch(
            (failure: unknown) => options.onError?.(failure),
          );
          markOpened();
        });
      // A file refused at once (the queue is full) is no job at all: the converter rejects
      // before anything else happens, so its answer is in by the next turn of the event loop.
      if (!started) {
        const refused = await Promise.race([
          conversion.then(
            () => null,
            (error: unknown) => error,
          ),
          new Promise<null>((resolve) => setImmediate(() => resolve(null))),
        ]);
        if (refused instanceof PdfImportError && refused.problem === "busy") {
          // No job, and not counted against the person's hour.
          await job.finished;
          await deleteJob(db, id);
          throw refused;
        }
      }
      jobs.set(id, job);
      // Waiting for its turn: the upload's answer says how many go before it.
      if (!started && job.state === "converting") await progress.flush();
      if (started) {
        await job.opened;
        // The upload's answer reads the page count from the database (a write after the end's is a no-op).
        if (job.state !== "failed") await progress.flush();
        if (job.state === "failed" && job.error) {
          // Refused in the upload's own answer; its row (failed) still counts against the hour.
          jobs.delete(id);
          await job.finished;
          throw job.error;
        }
      }
      return id;
    },

    async status(ownerId, id) {
      const job = await findJob(db, ownerId, id, at(-limits.jobTtlMs));
      if (!job) return null;
      const status: JobStatus = { state: job.state, pagesDone: job.pagesDone, pageCount: job.pageCount };
      if (job.state === "converting" && job.ahead !== null) {
        status.waiting = true;
        status.ahead = job.ahead;
      }
      if (job.oid) {
        status.oid = job.oid;
        status.url = job.replaced ? `/p/edit/${job.oid}/?notice=slidesReplaced` : `/p/${job.oid}/`;
      }
      if (job.problem) {
        status.problem = job.problem;
        status.message = job.message ?? "";
        status.statusCode = job.statusCode ?? 500;
      }
      if (job.state === "converting" && job.touchedAt.getTime() < now() - STALE_JOB_MS) {
        // Its process stopped (a restart): nothing was stored, and it won't go on.
        status.state = "failed";
        status.problem = "failed";
        status.message =
          "The import stopped before it was done, when the server restarted. Please import the PDF again.";
        status.statusCode = 500;
      }
      return status;
    },

    finished(id) {
      return jobs.get(id)?.finished ?? Promise.resolve();
    },
  };
}
