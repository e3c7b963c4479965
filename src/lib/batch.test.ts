import { describe, expect, it } from "vitest";
import { createBatcher } from "./batch";

/** A runner whose batches finish only when the test says so, recording what it was given. */
function controlledRunner() {
  const batches: number[][] = [];
  const finishers: (() => void)[] = [];
  const run = (items: number[]) => {
    batches.push(items);
    return new Promise<number[]>((resolve, reject) => {
      finishers.push(() => (items.includes(-1) ? reject(new Error("bad item")) : resolve(items.map((n) => n * 10))));
    });
  };
  /** Finishes the oldest running batch, then lets the batcher start the next. */
  const finishNext = async () => {
    finishers.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { run, batches, finishNext };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe("createBatcher (group commit for likes and session lookups)", () => {
  it("runs a lone call at once, as a batch of one", async () => {
    const runner = controlledRunner();
    const load = createBatcher(runner.run, { maxBatch: 10, maxInFlight: 1 });
    const answer = load(4);
    await settled();
    expect(runner.batches).toEqual([[4]]);
    await runner.finishNext();
    await expect(answer).resolves.toBe(40);
  });

  it("puts calls that arrive together, or while a batch runs, into one batch, each answered in order", async () => {
    const runner = controlledRunner();
    const load = createBatcher(runner.run, { maxBatch: 10, maxInFlight: 1 });
    const first = [load(1), load(2)];
    await settled();
    const waiting = [load(3), load(4), load(5)];
    await settled();
    expect(runner.batches).toEqual([[1, 2]]);
    await runner.finishNext();
    expect(runner.batches).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
    await runner.finishNext();
    expect(await Promise.all([...first, ...waiting])).toEqual([10, 20, 30, 40, 50]);
  });

  it("keeps to maxBatch items per batch and maxInFlight batches at once", async () => {
    const runner = controlledRunner();
    const load = createBatcher(runner.run, { maxBatch: 2, maxInFlight: 2 });
    const answers = [1, 2, 3, 4, 5, 6, 7].map((n) => load(n));
    await settled();
    expect(runner.batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
    await runner.finishNext();
    expect(runner.batches.at(-1)).toEqual([5, 6]);
    await runner.finishNext();
    await runner.finishNext();
    await runner.finishNext();
    expect(runner.batches.map((batch) => batch.length)).toEqual([2, 2, 2, 1]);
    expect(await Promise.all(answers)).toEqual([10, 20, 30, 40, 50, 60, 70]);
  });

  it("when a batch fails, runs its items alone: only the bad one is rejected", async () => {
    const runner = controlledRunner();
    const load = createBatcher(runner.run, { maxBatch: 10, maxInFlight: 1 });
    const answers = [load(1), load(-1), load(3)].map((promise) =>
      promise.then(
        (value) => ({ value }),
        (error: Error) => ({ error: error.message }),
      ),
    );
    await settled();
    await runner.finishNext(); // the batch of three fails
    expect(runner.batches.slice(1)).toEqual([[1], [-1], [3]]);
    await runner.finishNext();
    await runner.finishNext();
    await runner.finishNext();
    expect(await Promise.all(answers)).toEqual([{ value: 10 }, { error: "bad item" }, { value: 30 }]);
  });

  it("rejects every caller of a batch answered with the wrong number of results, without running it again", async () => {
    let runs = 0;
    const load = createBatcher(
      async () => {
        runs += 1;
        return [1];
      },
      { maxBatch: 10, maxInFlight: 1 },
    );
    const answers = await Promise.allSettled([load(1), load(2)]);
    expect(answers.map((answer) => answer.status)).toEqual(["rejected", "rejected"]);
    expect(runs).toBe(1);
  });
});
