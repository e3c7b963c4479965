/**
 * Group commit for calls that are cheaper together than apart: each `load(item)` is queued,
 * and the queue is handed to `run` as one batch. Nothing waits for a timer: the first call
 * starts a batch at once (after the current tick, so calls made together go together), and
 * calls that arrive while `maxInFlight` batches are running wait for the next one. So a lone
 * call costs what it cost before, and under load the batches grow by themselves.
 *
 * `run` answers the batch's items in order, all or nothing (one statement, or a transaction).
 * When it throws, every item of the batch is run again on its own, so one item that can't be
 * done (or a batch the database gave up on, such as a deadlock victim) fails only its caller.
 */
export interface BatchOptions {
  /** Items per batch at most. */
  maxBatch: number;
  /** Batches running at once at most. */
  maxInFlight: number;
}

export type BatchRunner<Item, Result> = (items: Item[]) => Promise<Result[]>;

interface Pending<Item, Result> {
  item: Item;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}

export function createBatcher<Item, Result>(
  run: BatchRunner<Item, Result>,
  options: BatchOptions,
): (item: Item) => Promise<Result> {
  const maxBatch = Math.max(1, Math.floor(options.maxBatch));
  const maxInFlight = Math.max(1, Math.floor(options.maxInFlight));
  const queue: Pending<Item, Result>[] = [];
  let inFlight = 0;
  let scheduled = false;

  const settle = async (batch: Pending<Item, Result>[]) => {
    let results: Result[];
    try {
      results = await run(batch.map((pending) => pending.item));
    } catch (error) {
      if (batch.length === 1) {
        batch[0]?.reject(error);
        return;
      }
      // Alone, each item succeeds or fails on its own merits.
      await Promise.all(batch.map((pending) => settle([pending])));
      return;
    }
    for (const [index, pending] of batch.entries()) {
      if (results.length === batch.length) pending.resolve(results[index] as Result);
      // The batch ran but its answers can't be matched to the callers: a defect, never retried.
      else pending.reject(new Error(`A batch of ${batch.length} was answered with ${results.length} results.`));
    }
  };

  const pump = () => {
    scheduled = false;
    while (inFlight < maxInFlight && queue.length > 0) {
      const batch = queue.splice(0, maxBatch);
      inFlight += 1;
      void settle(batch).finally(() => {
        inFlight -= 1;
        schedule();
      });
    }
  };

  const schedule = () => {
    if (scheduled || queue.length === 0) return;
    scheduled = true;
    setImmediate(pump);
  };

  return (item) =>
    new Promise<Result>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      schedule();
    });
}
