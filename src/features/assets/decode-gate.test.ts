import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { createDecodeGate, DecodeQueueFullError, decodeCost, headerPixels } from "./decode-gate";

/** A job the test finishes by hand, so what runs at once is counted, never timed. */
function deferred() {
  let finish = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return { done, finish };
}

/** Lets every pending promise callback run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("issue 27 memory: the decode gate", () => {
  it("issue 27 memory: more decodes than the limit at once: never more than the limit run, and all finish in order", async () => {
    const gate = createDecodeGate({ concurrency: 2, budgetBytes: 1000, maxWaiting: 16 });
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const jobs = Array.from({ length: 6 }, () => deferred());
    const results = jobs.map((job, i) =>
      gate.run(10, async () => {
        running += 1;
        most = Math.max(most, running);
        started.push(i);
        await job.done;
        running -= 1;
        return i;
      }),
    );
    await settle();
    expect(started).toEqual([0, 1]);
    expect(gate.stats()).toMatchObject({ running: 2, waiting: 4 });
    for (const job of jobs) {
      job.finish();
      await settle();
    }
    expect(await Promise.all(results)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(most).toBe(2);
    expect(gate.stats()).toMatchObject({ running: 0, peak: 2, waiting: 0, reservedBytes: 0 });
  });

  it("issue 27 memory: decodes that together would pass the memory budget take turns; one bigger than the budget runs alone", async () => {
    const gate = createDecodeGate({ concurrency: 2, budgetBytes: 100, maxWaiting: 16 });
    let running = 0;
    let most = 0;
    const jobs = Array.from({ length: 4 }, () => deferred());
    const costs = [60, 60, 500, 10];
    const results = jobs.map((job, i) =>
      gate.run(costs[i] ?? 0, async () => {
        running += 1;
        most = Math.max(most, running);
        await job.done;
        running -= 1;
      }),
    );
    await settle();
    // 60 + 60 > 100: the second waits for the first.
    expect(gate.stats()).toMatchObject({ running: 1, waiting: 3, reservedBytes: 60 });
    jobs[0]?.finish();
    await settle();
    expect(gate.stats()).toMatchObject({ running: 1, waiting: 2, reservedBytes: 60 });
    jobs[1]?.finish();
    await settle();
    // The big one runs alone, holding the whole budget; the small one behind it waits its turn.
    expect(gate.stats()).toMatchObject({ running: 1, waiting: 1, reservedBytes: 100 });
    jobs[2]?.finish();
    await settle();
    expect(gate.stats()).toMatchObject({ running: 1, waiting: 0, reservedBytes: 10 });
    jobs[3]?.finish();
    await Promise.all(results);
    expect(most).toBe(1);
    expect(gate.stats().reservedBytes).toBe(0);
  });

  it("issue 27 memory: past the waiting limit a decode is refused at once, and a failed decode frees its place", async () => {
    const gate = createDecodeGate({ concurrency: 1, budgetBytes: 100, maxWaiting: 1 });
    const first = deferred();
    const running = gate.run(1, () => first.done);
    const waiting = gate.run(1, async () => {
      throw new Error("bad image");
    });
    await expect(gate.run(1, async () => "late")).rejects.toBeInstanceOf(DecodeQueueFullError);
    first.finish();
    await running;
    await expect(waiting).rejects.toThrow("bad image");
    expect(await gate.run(1, async () => "next")).toBe("next");
    expect(gate.stats()).toMatchObject({ running: 0, waiting: 0, reservedBytes: 0 });
  });

  it("issue 27 memory: an image's cost is its decoded size from the header, twice that when it is interlaced", async () => {
    const plain = sharp({ create: { width: 100, height: 50, channels: 4, background: "#0a0" } });
    const png = await sharp(await plain.clone().png().toBuffer()).metadata();
    const interlaced = await sharp(await plain.clone().png({ progressive: true }).toBuffer()).metadata();
    const deep = await sharp(await plain.clone().toColourspace("rgb16").png().toBuffer()).metadata();
    const jpeg = await sharp(await plain.clone().jpeg().toBuffer()).metadata();
    expect(headerPixels(png)).toBe(5000);
    expect(decodeCost(png)).toBe(5000 * 4);
    expect(decodeCost(interlaced)).toBe(5000 * 4 * 2);
    expect(decodeCost(deep)).toBe(5000 * 4 * 2);
    expect(decodeCost(jpeg)).toBe(5000 * 3);
    expect(headerPixels({ width: 40, height: 90, pageHeight: 30, pages: 3 })).toBe(3600);
  });
});
