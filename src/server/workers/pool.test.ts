import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { WorkBusyError, WorkerPool, WorkTimeoutError } from "./pool";

/** A worker speaking the pool's protocol, with tasks that misbehave on purpose. */
const WORKER_SOURCE = `
import { parentPort } from "node:worker_threads";
const tasks = {
  echo: (payload) => payload,
  spin: () => { for (;;) {} },
  fail: () => { const error = new Error("refused"); error.name = "RefusalError"; error.statusCode = 418; throw error; },
  crash: () => { setTimeout(() => { throw new Error("crash"); }); return new Promise(() => {}); },
  slow: (ms) => new Promise((resolve) => setTimeout(() => resolve(ms), ms)),
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

const script = (() => {
  const dir = mkdtempSync(join(tmpdir(), "podium-pool-"));
  const file = join(dir, "worker.mjs");
  writeFileSync(file, WORKER_SOURCE);
  return pathToFileURL(file);
})();

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
    await expect(pool.run("echo", { hello: "again" })).resolves.toEqual({ hello: "again" });
  });

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
    const settledAt = (work: Promise<unknown>) =>
      work.then(
        () => ({ error: null, at: performance.now() }),
        (error: unknown) => ({ error, at: performance.now() }),
      );
    const [first, second] = await Promise.all([settledAt(pool.run("spin", null)), settledAt(pool.run("slow", 10))]);
    expect(first.error).toBeInstanceOf(WorkTimeoutError);
    expect(second.error).toBeInstanceOf(WorkTimeoutError);
    // Both answered at the same deadline, not one time limit after the other (300 ms apart).
    expect(Math.abs(second.at - first.at)).toBeLessThan(150);
  });

  it("runs tasks side by side up to its size, queues the rest, and refuses past the queue's bound", async () => {
    pool = new WorkerPool(script, { size: 2, timeoutMs: 5_000, maxQueue: 2 });
    // Both workers started and ready.
    await Promise.all([pool.run("slow", 50), pool.run("slow", 50)]);
    const started = performance.now();
    const running = [pool.run("slow", 300), pool.run("slow", 300)];
    const queued = [pool.run("slow", 10), pool.run("slow", 10)];
    await expect(pool.run("slow", 10)).rejects.toBeInstanceOf(WorkBusyError);
    expect(await Promise.all([...running, ...queued])).toEqual([300, 300, 10, 10]);
    // Two at once, not one after the other.
    expect(performance.now() - started).toBeLessThan(900);
  });
});
