import { describe, expect, it } from "vitest";
import {
  createStepRecorder,
  MAX_STAY_MS,
  medianOfBuckets,
  STAY_TIME_BUCKETS_MS,
  STEP_FLUSH_INTERVAL_MS,
  type StepBatch,
} from "./step-engagement";

/** A recorder on a clock the test moves, with its timers run when the clock passes them. */
function recorder(link: string | null = null) {
  let now = 0;
  const sent: { at: number; batch: StepBatch }[] = [];
  let timers: { at: number; run: () => void }[] = [];
  const made = createStepRecorder({
    link,
    now: () => now,
    send: (batch) => sent.push({ at: now, batch }),
    schedule: (run, ms) => {
      const timer = { at: now + ms, run };
      timers.push(timer);
      return () => {
        timers = timers.filter((other) => other !== timer);
      };
    },
  });
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      const next = timers.filter((timer) => timer.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      now = next.at;
      timers = timers.filter((timer) => timer !== next);
      next.run();
    }
    now = end;
  };
  return { made, sent, advance };
}

describe("I33.1 the player's step reports", () => {
  it("I33.1 records each stay with its time, first reach and going back; at most one request per interval", () => {
    const { made, sent, advance } = recorder();
    made.at(0);
    advance(2_000);
    made.at(1);
    advance(0);
    // The first stay is sent at once (nothing was sent before).
    expect(sent).toEqual([{ at: 2_000, batch: { stays: [{ s: 0, ms: 2_000, f: 1 }] } }]);
    advance(1_000);
    made.at(2);
    advance(500);
    made.at(1);
    advance(700);
    made.at(2);
    // Nothing more until the interval has passed since the last request.
    expect(sent).toHaveLength(1);
    advance(STEP_FLUSH_INTERVAL_MS);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual({
      at: 2_000 + STEP_FLUSH_INTERVAL_MS,
      batch: {
        stays: [
          { s: 1, ms: 1_000, f: 1 },
          { s: 2, ms: 500, f: 1 },
          { s: 1, ms: 700, b: 1 },
        ],
      },
    });
    for (let i = 1; i < sent.length; i++) {
      expect((sent[i]?.at ?? 0) - (sent[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(STEP_FLUSH_INTERVAL_MS);
    }
  });

  it("I33.1 hiding the page sends what is pending at once, with the visit's viewing time and the link", () => {
    const { made, sent, advance } = recorder("abcdefghijklmnop");
    made.at(0);
    advance(1_500);
    made.at(1);
    advance(3_000);
    made.hide();
    expect(sent.map((entry) => entry.batch)).toEqual([
      { link: "abcdefghijklmnop", stays: [{ s: 0, ms: 1_500, f: 1 }] },
      { link: "abcdefghijklmnop", stays: [{ s: 1, ms: 3_000, f: 1 }], visit_ms: 4_500 },
    ]);
    // Hidden, nothing is counted; pagehide after visibilitychange sends nothing twice.
    advance(60_000);
    made.hide();
    expect(sent).toHaveLength(2);
    // Back on the page, the stay goes on (neither first nor back).
    made.show();
    advance(1_000);
    made.at(null);
    advance(STEP_FLUSH_INTERVAL_MS);
    expect(sent[2]?.batch.stays).toEqual([{ s: 1, ms: 1_000 }]);
  });

  it("I33.1 a stay is capped at an hour (a tab left open)", () => {
    const { made, sent, advance } = recorder();
    made.at(3);
    advance(5 * MAX_STAY_MS);
    made.at(null);
    advance(0);
    expect(sent[0]?.batch.stays).toEqual([{ s: 3, ms: MAX_STAY_MS, f: 1 }]);
  });

  it("I33.1 medians from the histogram are within a bucket's width: a second up to a minute", () => {
    const bucketOf = (ms: number) => STAY_TIME_BUCKETS_MS.filter((bound) => bound <= ms).length;
    const histogram = (times: number[]) => {
      const counts = new Map<number, number>();
      for (const ms of times) counts.set(bucketOf(ms), (counts.get(bucketOf(ms)) ?? 0) + 1);
      return counts;
    };
    expect(medianOfBuckets(new Map())).toBeNull();
    for (const times of [[2_100], [4_000, 4_200, 9_000], [1_000, 2_000, 3_000, 4_000, 25_000], [12_345, 12_400]]) {
      const sorted = [...times].sort((a, b) => a - b);
      const exact = sorted[Math.ceil(sorted.length / 2) - 1] ?? 0;
      expect(Math.abs((medianOfBuckets(histogram(times)) ?? 0) - exact)).toBeLessThanOrEqual(1_000);
    }
    expect(STAY_TIME_BUCKETS_MS.at(-1)).toBe(MAX_STAY_MS);
  });
});
