import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { currentThreadId, threadCpuMs, WALL_LIMIT_FACTOR, WorkBusyError, WorkerPool, WorkTimeoutError } from "./pool";

/** A worker speaking the pool's protocol, with tasks that misbehave on purpose. */
const WORKER_SOURCE = `
import { parentPort } from "node:worker_threads";
const tasks = {
  echo: (payload) => payload,
  spin: () => { for (;;) {} },
  fail: () => { const error = new Error("refused"); error.name = "RefusalError"; error.statusCode = 418; throw error; },
  crash: () => { setTimeout(() => { throw new Error("crash"); }); return new Promise(() => {}); },
  slow: (ms) => new Promise((resolve) => setTimeout(() => resolve(ms), ms)),
  // Ends "together" once all the parties sharing its counter have started, "alone" if they never do.
  meet: ({ shared, parties }) => {
    const count = new Int32Array(shared);
    Atomics.add(count, 0, 1);
    Atomics.notify(count, 0);
    const deadline = Date.now() + 20_000;
    for (let seen = Atomics.load(count, 0); seen < parties; seen = Atomics.load(count, 0)) {
      if (Atomics.wait(count, 0, seen, deadline - Date.now()) === "timed-out") return "alone";
    }
    return "together";
  },
};
parentPort.on("message", async ({ id, task, payload }) => {
  try {
    parentPort.postMessage({ id, ok: true, result: await tasks[task](payload) });
  } catch (error) {
    const { name, message, stack, ...fields } = error;
    parentPort.postMessage({ id, ok: false, error: { name: error.name, message: error.message, fields } });
  }
});
parentPort.postMessage({ ready: true });
`;

function workerScript(source: string): URL {
  const dir = mkdtempSync(join(tmpdir(), "podium-pool-"));
  const file = join(dir, "worker.mjs");
  writeFileSync(file, source);
  return pathToFileURL(file);
}
const script = workerScript(WORKER_SOURCE);
/**
 * The same worker saying which thread it is, as serveTasks does: its tasks' time limit is then
 * their CPU time. `nap` waits without using the CPU (what a task does on a busy machine while
 * other processes have the cores).
 */
const cpuCountedScript = workerScript(
  WORKER_SOURCE.replace(
    "parentPort.postMessage({ ready: true });",
    `import { readlinkSync } from "node:fs";
tasks.nap = (ms) => { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms); return ms; };
parentPort.postMessage({ ready: true, thread: Number(readlinkSync("/proc/thread-self").split("/").pop()) });`,
  ),
);
const hasThreadTimes = currentThreadId() !== null;

describe("the worker pool (CPU-heavy work off the request loop)", () => {
  let pool: WorkerPool;
  afterEach(async () => {
    await pool.close();
  });

  it("hardening 1: a task past its time limit is stopped, the caller hears so, and the pool goes on", async () => {
    pool = new WorkerPool(script, { size: 1, timeoutMs: 200 });
    // The request loop stays free while the worker spins: timers keep firing.
    let ticks = 0;
    const ticker = setInterval(() => {
      ticks += 1;
    }, 10);
    await expect(pool.run("spin", null)).rejects.toBeInstanceOf(WorkTimeoutError);
    clearInterval(ticker);
    expect(ticks).toBeGreaterThan(3);
    // The replacement worker's start counts against a task's 200 ms (issue 29: on a busy machine it
    // took longer): asked again until it answers, as a caller would.
    await expect
      .poll(() => pool.run("echo", { hello: "again" }).catch((error: unknown) => error), { timeout: 50_000 })
      .toEqual({ hello: "again" });
  }, 60_000);

  it("hands the task's own error back with its fields, and survives a crashing worker", async () => {
    pool = new WorkerPool(script, { size: 1, timeoutMs: 5_000 });
    await expect(pool.run("fail", null)).rejects.toMatchObject({
      name: "RefusalError",
      message: "refused",
      statusCode: 418,
    });
    await expect(pool.run("crash", null)).rejects.toThrow(/crash|stopped unexpectedly/);
    await expect(pool.run("echo", 7)).resolves.toBe(7);
  });

  it("hardening 1: the time limit counts from the request, so a task queued behind a slow one is refused in time", async () => {
    pool = new WorkerPool(script, { size: 1, timeoutMs: 300 });
    await pool.run("echo", "warm");
    // Issue 29: the pool's deadlines on a clock the test moves (the worker keeps its own, real one).
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const settled: Array<{ task: string; error: unknown }> = [];
      const watch = (task: string, work: Promise<unknown>) =>
        work.then(
          () => settled.push({ task, error: null }),
          (error: unknown) => settled.push({ task, error }),
        );
      const both = Promise.all([watch("spin", pool.run("spin", null)), watch("slow", pool.run("slow", 10))]);
      await vi.advanceTimersByTimeAsync(299);
      expect(settled).toEqual([]);
      // Both answered at the same deadline, 300 ms after they were asked, not one time limit after the other.
      await vi.advanceTimersByTimeAsync(1);
      await both;
      expect(settled.map((entry) => entry.task)).toEqual(["spin", "slow"]);
      for (const entry of settled) expect(entry.error).toBeInstanceOf(WorkTimeoutError);
    } finally {
      vi.useRealTimers();
    }
  });

  it("runs tasks side by side up to its size, queues the rest, and refuses past the queue's bound", async () => {
    pool = new WorkerPool(script, { size: 2, timeoutMs: 60_000, maxQueue: 2 });
    // Issue 29: no timing. Two tasks that can only end when both have started: both workers are
    // up and ready once they end "together" ...
    const meeting = () => ({ shared: new SharedArrayBuffer(4), parties: 2 });
    const warm = meeting();
    expect(await Promise.all([pool.run("meet", warm), pool.run("meet", warm)])).toEqual(["together", "together"]);
    // ... and two at once, not one after the other: each waits for the other (one at a time, the first would end "alone").
    const both = meeting();
    const running = [pool.run("meet", both), pool.run("meet", both)];
    const queued = [pool.run("slow", 10), pool.run("slow", 10)];
    await expect(pool.run("slow", 10)).rejects.toBeInstanceOf(WorkBusyError);
    expect(await Promise.all([...running, ...queued])).toEqual(["together", "together", 10, 10]);
  }, 60_000);

  describe.skipIf(!hasThreadTimes)(
    "issue 29: the time limit is the task's CPU time, where the worker says which thread it is",
    () => {
      it("reads a thread's CPU time, and it grows with work", () => {
        const thread = currentThreadId() as number;
        const before = threadCpuMs(thread) as number;
        expect(before).toBeGreaterThanOrEqual(0);
        let after = before;
        for (let spins = 0; after === before && spins < 1e4; spins++) {
          for (let i = 0; i < 1e5; i++) Math.sqrt(i);
          after = threadCpuMs(thread) as number;
        }
        expect(after).toBeGreaterThan(before);
      });

      it("a task that waits (a busy machine) past its time limit in wall time, but not in CPU time, ends", async () => {
        pool = new WorkerPool(cpuCountedScript, { size: 1, timeoutMs: 300, warm: true });
        await expect(pool.run("nap", 900)).resolves.toBe(900);
      });

      it("a task that works past its time limit is still stopped", async () => {
        pool = new WorkerPool(cpuCountedScript, { size: 1, timeoutMs: 200 });
        await expect(pool.run("spin", null)).rejects.toBeInstanceOf(WorkTimeoutError);
        await expect(pool.run("echo", "after")).resolves.toBe("after");
      });

      it(`and one that only waits is stopped at ${WALL_LIMIT_FACTOR} times its time limit`, async () => {
        pool = new WorkerPool(cpuCountedScript, { size: 1, timeoutMs: 100 });
        await expect(pool.run("nap", 60_000)).rejects.toBeInstanceOf(WorkTimeoutError);
      });
    },
  );
});
