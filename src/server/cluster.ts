import cluster, { type Worker } from "node:cluster";
import { logFormatFrom } from "./request-log";

/**
 * Issue 11, item 4: every core. With PODIUM_WORKERS > 1 the primary process (which has already
 * migrated and seeded the database, and closed it) forks that many server processes that share
 * the port through node:cluster, keeps them running, and stops them all on SIGTERM/SIGINT.
 */

/**
 * Set in a worker's environment to its slot number (1…N). It also tells the worker that the
 * primary has migrated and seeded the database, so the worker only opens it and listens.
 */
export const CLUSTER_WORKER_ENV = "PODIUM_CLUSTER_WORKER";

/** The slot number when this process is a worker forked by Podium's primary, else null. */
export function clusterWorkerSlot(env: NodeJS.ProcessEnv = process.env): number | null {
  if (!cluster.isWorker) return null;
  const slot = Number(env[CLUSTER_WORKER_ENV]);
  return Number.isInteger(slot) && slot >= 1 ? slot : null;
}

// Issue 11, item 4: "don't respawn in a tight loop: back off if workers keep dying within seconds
// of starting, and give up with exit 1 after a few".
/** A worker that dies this soon after it was started counts as failing to start. */
export const QUICK_DEATH_MS = 10_000;
/** The first such worker is replaced at once; the next waits this long, doubling with each one in a row (1, 2, 4 s). */
export const RESPAWN_BACKOFF_MS = 1_000;
/** Quick deaths in a row after which the primary stops everything and exits 1. */
export const MAX_QUICK_DEATHS = 5;
/** How long the primary waits for workers it killed (SIGKILL) after the grace period to be gone. */
const KILL_WAIT_MS = 2_000;

export type RespawnDecision = { action: "respawn"; delayMs: number } | { action: "give-up"; quickDeaths: number };

/**
 * When to replace a dead worker. A worker that served for a while and died is replaced at
 * once, and so is the first that dies within QUICK_DEATH_MS of starting; workers that keep
 * dying that soon (a broken database, a bad deploy) are replaced after a growing wait, and after
 * MAX_QUICK_DEATHS in a row the primary gives up instead of spinning.
 */
export class RespawnPolicy {
  private quickDeaths = 0;

  afterDeath(livedMs: number): RespawnDecision {
    if (livedMs >= QUICK_DEATH_MS) {
      this.quickDeaths = 0;
      return { action: "respawn", delayMs: 0 };
    }
    this.quickDeaths += 1;
    if (this.quickDeaths >= MAX_QUICK_DEATHS) return { action: "give-up", quickDeaths: this.quickDeaths };
    return {
      action: "respawn",
      delayMs: this.quickDeaths === 1 ? 0 : RESPAWN_BACKOFF_MS * 2 ** (this.quickDeaths - 2),
    };
  }
}

export interface PrimaryOptions {
  workers: number;
  /** The script the workers run (the server's entry point). */
  entry: string;
  /** The line logged once every worker listens (it says how many serve). */
  servingLine: (workers: number) => string;
  /** How long a shutdown waits for the workers to finish their requests. */
  graceMs: number;
}

interface Slot {
  worker: Worker | null;
  startedAt: number;
  respawnTimer: NodeJS.Timeout | null;
}

const describeExit = (code: number | null, signal: string | null) =>
  signal ? `signal ${signal}` : `exit code ${code ?? "?"}`;
const workersWord = (count: number) => (count === 1 ? "1 worker" : `${count} workers`);

/** Database connections all workers together open by default (a single process opens 20). */
export const CLUSTER_DB_CONNECTIONS = 60;
/** Each worker keeps at least this many, however many workers there are. */
const MIN_WORKER_POOL = 4;

/** Runs the primary: forks the workers, replaces dead ones, stops them all on SIGTERM/SIGINT. */
export function runPrimary(options: PrimaryOptions): void {
  const { workers, graceMs } = options;
  cluster.setupPrimary({ exec: options.entry, args: process.argv.slice(2) });
  const slots = new Map<number, Slot>();
  const policy = new RespawnPolicy();
  /** Set once every worker has listened for the first time; before that a death is a failed start. */
  let serving = false;
  const listened = new Set<number>();
  let stopping: { signal: NodeJS.Signals; failed: string[]; exitCode: number } | null = null;

  const live = () => [...slots.values()].flatMap((slot) => (slot.worker ? [slot.worker] : []));

  // The workers share PostgreSQL's connections: unless PODIUM_DB_POOL says otherwise, each gets its
  // share of CLUSTER_DB_CONNECTIONS (PostgreSQL allows 100 by default, and others connect too).
  const poolSize = process.env.PODIUM_DB_POOL
    ? {}
    : { PODIUM_DB_POOL: String(Math.max(MIN_WORKER_POOL, Math.floor(CLUSTER_DB_CONNECTIONS / workers))) };
  // A worker's standard output is a pipe to this process: it logs the way this process would.
  const logFormat = { PODIUM_LOG: logFormatFrom(process.env.PODIUM_LOG, process.stdout.isTTY === true) || "off" };
  const fork = (slot: number) => {
    const worker = cluster.fork({ [CLUSTER_WORKER_ENV]: String(slot), ...poolSize, ...logFormat });
    slots.set(slot, { worker, startedAt: Date.now(), respawnTimer: null });
    return worker;
  };

  const finish = () => {
    if (!stopping || live().length > 0) return;
    if (stopping.failed.length > 0) {
      console.error(`podium: stopped; ${stopping.failed.join(", ")}`);
      process.exit(1);
    }
    if (stopping.exitCode === 0) console.log(`podium: stopped (${workersWord(workers)})`);
    process.exit(stopping.exitCode);
  };

  /**
   * Sends the signal to every worker; each finishes its requests in flight and exits (serve.ts).
   * exitCode 0: asked to stop; 1: stopping because the workers couldn't be kept running.
   */
  const stop = (signal: NodeJS.Signals, exitCode: number) => {
    if (stopping) return;
    stopping = { signal, failed: [], exitCode };
    for (const slot of slots.values()) {
      if (slot.respawnTimer) clearTimeout(slot.respawnTimer);
      slot.respawnTimer = null;
    }
    const running = live();
    const why = exitCode === 0 ? `${signal} received` : "giving up";
    console.log(`podium: ${why}; stopping ${workersWord(running.length)} (each finishes its requests in flight)`);
    for (const worker of running) worker.process.kill(signal);
    const timer = setTimeout(() => {
      const left = live();
      console.error(
        `podium: shutdown took too long; ${left.length} of ${workers} workers still running after ${graceMs} ms; killing them`,
      );
      stopping?.failed.push(`${workersWord(left.length)} killed after ${graceMs} ms`);
      // finish() exits 1 once they are gone; the backstop in case one can't even be killed.
      for (const worker of left) worker.process.kill("SIGKILL");
      setTimeout(() => process.exit(1), KILL_WAIT_MS).unref();
    }, graceMs);
    timer.unref();
    finish();
  };

  cluster.on("listening", (worker) => {
    const slot = workerSlotOf(worker, slots);
    if (!slot || listened.has(slot)) return;
    listened.add(slot);
    if (serving) {
      console.log(`podium: worker ${slot} replaced (pid ${worker.process.pid}); ${workers} workers serve again`);
    } else if (listened.size === workers) {
      serving = true;
      console.log(options.servingLine(workers));
    }
  });

  cluster.on("exit", (worker, code, signal) => {
    const slot = workerSlotOf(worker, slots);
    const entry = slot ? slots.get(slot) : undefined;
    if (!slot || !entry) return;
    entry.worker = null;
    const how = describeExit(code, signal);
    if (stopping) {
      // Ended by the signal it was sent (before it could set up its own stop): that is a stop too.
      if (code !== 0 && signal !== stopping.signal) stopping.failed.push(`worker ${slot} ended with ${how}`);
      finish();
      return;
    }
    if (!serving && !listened.has(slot)) {
      console.error(`podium: worker ${slot} (pid ${worker.process.pid}) stopped while starting (${how})`);
      stop("SIGTERM", 1);
      return;
    }
    const decision = policy.afterDeath(Date.now() - entry.startedAt);
    if (decision.action === "give-up") {
      console.error(
        `podium: workers keep dying within ${QUICK_DEATH_MS / 1000} s of starting (${decision.quickDeaths} in a row, the last with ${how}); giving up`,
      );
      stop("SIGTERM", 1);
      return;
    }
    console.error(
      `podium: worker ${slot} (pid ${worker.process.pid}) died unexpectedly (${how}); starting a new one${
        decision.delayMs > 0 ? ` in ${decision.delayMs / 1000} s` : ""
      }`,
    );
    listened.delete(slot);
    entry.respawnTimer = setTimeout(() => {
      entry.respawnTimer = null;
      if (!stopping) fork(slot);
    }, decision.delayMs);
  });

  process.on("SIGTERM", () => stop("SIGTERM", 0));
  process.on("SIGINT", () => stop("SIGINT", 0));

  for (let slot = 1; slot <= workers; slot++) fork(slot);
}

function workerSlotOf(worker: Worker, slots: Map<number, Slot>): number | null {
  for (const [slot, entry] of slots) if (entry.worker === worker) return slot;
  return null;
}
