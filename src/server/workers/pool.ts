import { readFileSync, readlinkSync } from "node:fs";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";

/**
 * A small pool of worker threads for CPU-heavy work (issue 9): parsing an import, exporting a
 * document, reading the editor's preview. The request loop only hands work over and waits, so
 * one hostile file can't freeze every other visitor. Each task has a time limit: past it the
 * worker is terminated (the only way to stop a busy thread) and replaced, and the caller gets a
 * WorkTimeoutError. Memory is capped per worker, and the queue is bounded.
 */

export interface WorkerPoolOptions {
  /** Threads; by default one fewer than the cores (at least 1), so the request loop keeps a core. */
  size?: number;
  /**
   * How long one task may take from the moment it is asked for (queueing included). Once it runs
   * on a worker that said which thread it is (serveTasks, on Linux), it is the CPU time the
   * worker spends on it that counts, up to WALL_LIMIT_FACTOR times this in all: on a busy machine
   * a task waits for a core, and waiting is not the work's cost.
   */
  timeoutMs: number;
  /** Tasks waiting beyond this many are refused at once (WorkBusyError). */
  maxQueue?: number;
  /** V8 heap cap per worker, in MiB: a task that needs more fails instead of swapping the machine. */
  maxHeapMb?: number;
  /**
   * Start every worker now, not at the first task: a worker's start-up (loading its code, about
   * a second on a busy machine) would otherwise eat into the first task's time limit.
   */
  warm?: boolean;
}

/** A task ran past its time limit; its worker was stopped. */
export class WorkTimeoutError extends Error {
  override readonly name = "WorkTimeoutError";
  constructor(readonly timeoutMs: number) {
    super(`The work took longer than ${timeoutMs} ms and was stopped.`);
  }
}

/** Too much work is waiting; try again shortly. */
export class WorkBusyError extends Error {
  override readonly name = "WorkBusyError";
  readonly statusCode = 503;
  constructor() {
    super("The server is busy; please try again in a few seconds.");
  }
}

/** What a worker answers: a result, or an error as plain data (rebuilt by the caller). */
export type WorkAnswer = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: TransferredError };
export interface TransferredError {
  name: string;
  message: string;
  /** The error's own fields (statusCode, problem, …). */
  fields: Record<string, unknown>;
}

interface Job {
  id: number;
  task: string;
  payload: unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  /** Fires at the task's deadline, counted from its arrival: waiting in the queue counts too. */
  timer: NodeJS.Timeout | null;
  /** When it was asked for (Date.now()). */
  arrived: number;
  /** Its worker thread's CPU time (ms) when it started there, where that can be read. */
  cpuAtStart: number | null;
}

interface Slot {
  worker: Worker;
  /** The worker has loaded its code and said so (a new worker's start-up doesn't delay its job's timer). */
  ready: boolean;
  job: Job | null;
  /** The worker's thread id (Linux), for its CPU time: null where it didn't say or can't be read. */
  thread: number | null;
}

/** A task's time limit is CPU time, and wall time at most this many times it (Options.timeoutMs). */
export const WALL_LIMIT_FACTOR = 10;
/** Linux's clock ticks per second for /proc CPU times (USER_HZ, 100 on every Linux Node runs on). */
const TICKS_PER_SECOND = 100;

/** A thread's CPU time so far (user + system), in ms; null where /proc can't tell. */
export function threadCpuMs(thread: number): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${thread}/stat`, "utf8");
    // Fields after the command name (which may hold spaces): state is the first, utime the 12th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : null;
  } catch {
    return null;
  }
}

/** The calling thread's id (Linux: /proc/thread-self is "pid/task/tid"); null elsewhere. */
export function currentThreadId(): number | null {
  try {
    const thread = Number(readlinkSync("/proc/thread-self").split("/").pop());
    return Number.isInteger(thread) && thread > 0 ? thread : null;
  } catch {
    return null;
  }
}

const DEFAULT_MAX_QUEUE = 64;
const DEFAULT_MAX_HEAP_MB = 512;

export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  private readonly size: number;
  private readonly maxQueue: number;
  private readonly maxHeapMb: number;

  constructor(
    private readonly script: URL,
    private readonly options: WorkerPoolOptions,
    /** Rebuilds an error the worker sent as data (so `instanceof` works on this side). */
    private readonly rebuildError: (error: TransferredError) => Error = defaultRebuild,
  ) {
    this.size = Math.max(1, options.size ?? Math.min(4, availableParallelism() - 1));
    this.maxQueue = options.maxQueue ?? DEFAULT_MAX_QUEUE;
    this.maxHeapMb = options.maxHeapMb ?? DEFAULT_MAX_HEAP_MB;
    if (options.warm) while (this.slots.length < this.size) this.spawn();
  }

  /** Runs a named task in a worker; rejects with the task's own error, WorkTimeoutError or WorkBusyError. */
  run<Result>(task: string, payload: unknown): Promise<Result> {
    if (this.closed) return Promise.reject(new Error("The worker pool is closed."));
    if (this.queue.length >= this.maxQueue) return Promise.reject(new WorkBusyError());
    return new Promise<Result>((resolve, reject) => {
      const job: Job = {
        id: this.nextId++,
        task,
        payload,
        resolve: resolve as (value: unknown) => void,
        reject,
        timer: null,
        arrived: Date.now(),
        cpuAtStart: null,
      };
      // The caller hears within the time limit whatever happens: queued too long, or running too long.
      job.timer = setTimeout(() => this.expire(job), this.options.timeoutMs);
      this.queue.push(job);
      this.dispatch();
    });
  }

  /** Stops every worker; queued and running tasks are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) {
      if (job.timer) clearTimeout(job.timer);
      job.reject(new Error("The worker pool is closed."));
    }
    await Promise.all(
      this.slots.splice(0).map((slot) => {
        if (slot.job?.timer) clearTimeout(slot.job.timer);
        slot.job?.reject(new Error("The worker pool is closed."));
        return slot.worker.terminate();
      }),
    );
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = this.slots.find((candidate) => candidate.ready && candidate.job === null);
      if (!slot) {
        // A new worker takes the next job once it is ready (see spawn).
        const starting = this.slots.filter((candidate) => !candidate.ready).length;
        if (this.slots.length < this.size && starting < this.queue.length) this.spawn();
        return;
      }
      this.start(slot, this.queue.shift() as Job);
    }
  }

  private spawn(): Slot {
    const worker = new Worker(this.script, {
      resourceLimits: { maxOldGenerationSizeMb: this.maxHeapMb },
      stdout: false,
      stderr: false,
    });
    // Workers never keep the process alive on their own (a shutdown closes the pool anyway).
    worker.unref();
    const slot: Slot = { worker, ready: false, job: null, thread: null };
    worker.on("message", (answer: WorkAnswer | { ready: true; thread?: number | null }) => {
      if ("ready" in answer) {
        slot.ready = true;
        slot.thread = typeof answer.thread === "number" && threadCpuMs(answer.thread) !== null ? answer.thread : null;
        this.dispatch();
        return;
      }
      const job = slot.job;
      if (!job || answer.id !== job.id) return;
      this.finish(slot);
      if (answer.ok) job.resolve(answer.result);
      else job.reject(this.rebuildError(answer.error));
    });
    // A crash (out of memory, an uncaught error) fails its task; the slot is replaced.
    const fail = (error: Error) => {
      const job = slot.job;
      this.replace(slot);
      job?.reject(error);
    };
    worker.on("error", fail);
    worker.on("exit", (code) => {
      if (slot.job) fail(new Error(`The worker stopped unexpectedly (exit code ${code}).`));
      else {
        this.remove(slot);
        // A worker that died while starting leaves its queue to a new one.
        if (!this.closed) this.dispatch();
      }
    });
    this.slots.push(slot);
    return slot;
  }

  private start(slot: Slot, job: Job): void {
    slot.job = job;
    job.cpuAtStart = slot.thread === null ? null : threadCpuMs(slot.thread);
    slot.worker.ref();
    slot.worker.postMessage({ id: job.id, task: job.task, payload: job.payload });
  }

  /**
   * A job's deadline passed: dropped from the queue, or its worker stopped mid-task, unless it runs
   * where its CPU time is known and that is still under the limit (within the wall-time cap): then
   * the deadline moves to where its CPU time would reach the limit.
   */
  private expire(job: Job): void {
    job.timer = null;
    const queued = this.queue.indexOf(job);
    if (queued >= 0) this.queue.splice(queued, 1);
    const slot = this.slots.find((candidate) => candidate.job === job);
    const cpuNow = slot?.thread != null && job.cpuAtStart !== null ? threadCpuMs(slot.thread) : null;
    const cpuLeft = cpuNow === null || job.cpuAtStart === null ? 0 : this.options.timeoutMs - (cpuNow - job.cpuAtStart);
    const wallLeft = job.arrived + this.options.timeoutMs * WALL_LIMIT_FACTOR - Date.now();
    if (slot && cpuLeft > 0 && wallLeft > 0) {
      job.timer = setTimeout(() => this.expire(job), Math.min(cpuLeft, wallLeft));
      return;
    }
    if (slot) this.replace(slot);
    job.reject(new WorkTimeoutError(this.options.timeoutMs));
  }

  private finish(slot: Slot): void {
    if (slot.job?.timer) clearTimeout(slot.job.timer);
    slot.job = null;
    slot.worker.unref();
    this.dispatch();
  }

  /** Terminates a slot's worker (busy or crashed) and lets a new one take its place. */
  private replace(slot: Slot): void {
    if (slot.job?.timer) clearTimeout(slot.job.timer);
    slot.job = null;
    this.remove(slot);
    void slot.worker.terminate();
    if (this.closed) return;
    // A replacement starts at once, so the next task doesn't wait for a worker's start-up.
    if (this.slots.length < this.size) this.spawn();
    this.dispatch();
  }

  private remove(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
  }
}

function defaultRebuild(error: TransferredError): Error {
  return Object.assign(new Error(error.message), { name: error.name }, error.fields);
}

/** The worker's side: answers each message by running the named task. */
export function serveTasks(
  port: {
    on(event: "message", listener: (message: unknown) => void): void;
    postMessage(answer: WorkAnswer | { ready: true; thread: number | null }): void;
  },
  tasks: Record<string, (payload: never) => unknown>,
): void {
  port.on("message", async (message) => {
    const { id, task, payload } = message as { id: number; task: string; payload: never };
    try {
      const run = tasks[task];
      if (!run) throw new Error(`Unknown task ${task}`);
      port.postMessage({ id, ok: true, result: await run(payload) });
    } catch (error) {
      const { name, message: text, ...fields } = error as Error & Record<string, unknown>;
      const own = Object.fromEntries(Object.entries(fields).filter(([key]) => key !== "stack"));
      port.postMessage({
        id,
        ok: false,
        error: {
          name: (error as Error).name ?? String(name),
          message: (error as Error).message ?? String(text),
          fields: own,
        },
      });
    }
  });
  // Which thread this is, so the pool counts the CPU time its tasks take (WorkerPoolOptions.timeoutMs).
  port.postMessage({ ready: true, thread: currentThreadId() });
}
