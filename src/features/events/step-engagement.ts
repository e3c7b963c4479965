/**
 * Issue 33 item 1: per-step engagement. The player reports, through the usage-event pipeline, each
 * stay on a step (which step, how long, whether it was reached for the first time in this visit,
 * whether the viewer came back to it), batched: at most one request per STEP_FLUSH_INTERVAL_MS per
 * viewer, and whatever is pending when the page is hidden. The server adds them to per-day
 * aggregates (migration 0024) in the statement that stores the batch (store-batch.ts).
 */

/** The event's name (family Analytics/Webgl, like the player's other events). */
export const STEP_ENGAGEMENT_EVENT = "step_engagement";

/** Issue 33 item 1: "at most one request every few seconds per viewer". */
export const STEP_FLUSH_INTERVAL_MS = 5_000;

/** Stays one event carries at most (a batch of 5 s holds a handful; the rest wait for the next). */
export const MAX_STAYS_PER_EVENT = 100;
/** Highest step index accepted (documents have far fewer). */
export const MAX_STEP_INDEX = 9_999;
/** A stay longer than this (a tab left open) counts as this long. */
export const MAX_STAY_MS = 60 * 60 * 1000;

/**
 * Issue 33 (forged step events): a player's step events carry the visitor id its page load was
 * signed (visitor-id.ts) for the whole visit; past this age they add nothing (a tab left open
 * for half a day). Without a valid one, a step event is stored but adds nothing.
 */
export const STEP_VISITOR_ID_MAX_AGE_MS = 12 * 60 * 60 * 1000;
/**
 * "At most a step's worth of time per wall-clock time": the stays one visitor's events claim add
 * up to no more than the time since its visitor id was issued, plus this (clocks, a flush's delay).
 */
export const STEP_TIME_SLACK_MS = 15_000;
/**
 * Each stay claims at least this much of that time, so that a script can't add many stays of
 * 0 ms (each a viewer who reached a step) for free: four steps a second is faster than anyone reads.
 */
export const MIN_STAY_CHARGE_MS = 250;

/** The time a batch of stays claims of its visitor's budget (ms). */
export function claimedMs(stays: readonly { ms: number }[]): number {
  let total = 0;
  for (const stay of stays) total += Math.max(stay.ms, MIN_STAY_CHARGE_MS);
  return total;
}

/**
 * Lower bounds of the histogram's buckets for times (ms), for medians exact enough: 1 s wide up
 * to a minute (a median within a second), 2 s up to 2 minutes, 15 s up to 10 minutes, a
 * minute up to an hour. Bucket i holds times in [bounds[i-1], bounds[i]) (PostgreSQL's
 * width_bucket with these thresholds); the last holds an hour. Coarser buckets would blur the
 * medians; finer ones multiply the rows the analytics sums (bench:analytics).
 */
export const STAY_TIME_BUCKETS_MS: readonly number[] = (() => {
  const bounds: number[] = [];
  for (let t = 0; t <= 60_000; t += 1_000) bounds.push(t);
  for (let t = 62_000; t <= 120_000; t += 2_000) bounds.push(t);
  for (let t = 135_000; t <= 600_000; t += 15_000) bounds.push(t);
  for (let t = 660_000; t <= MAX_STAY_MS; t += 60_000) bounds.push(t);
  return bounds;
})();

/** One stay on a step: `s` the step (0-based), `ms` its length; `f` first reached in this visit, `b` came back to it. */
export interface StepStay {
  s: number;
  ms: number;
  f?: 1;
  b?: 1;
}

/** What one step_engagement event carries besides `oid`. */
export interface StepBatch {
  /** The view link it was watched through, if any. */
  link?: string;
  /** The visitor id the server signed for this page load (visitor-id.ts): without it the batch adds nothing. */
  visitor_id?: string;
  stays: StepStay[];
  /** The visit's whole viewing time so far, sent with the batch sent as the page is hidden. */
  visit_ms?: number;
}

/** Records the player's steps and hands batches to `send`, at most one per interval. */
export function createStepRecorder(options: {
  send: (batch: StepBatch) => void;
  now: () => number;
  link: string | null;
  schedule: (run: () => void, ms: number) => () => void;
}) {
  let current: number | null = null;
  /** The step that showed when the page was hidden, to go on with when it shows again. */
  let hiddenAt: number | null = null;
  let since = 0;
  let back = false;
  let first = false;
  let visitMs = 0;
  const reached = new Set<number>();
  let pending: StepStay[] = [];
  let lastSent = Number.NEGATIVE_INFINITY;
  let cancel: (() => void) | null = null;

  const close = () => {
    if (current === null) return;
    const ms = Math.max(0, Math.min(MAX_STAY_MS, Math.round(options.now() - since)));
    visitMs += ms;
    const stay: StepStay = { s: current, ms };
    if (first) stay.f = 1;
    if (back) stay.b = 1;
    pending.push(stay);
    current = null;
  };
  const flush = (final: boolean) => {
    cancel?.();
    cancel = null;
    if (pending.length === 0 && !final) return;
    const stays = pending.slice(0, MAX_STAYS_PER_EVENT);
    pending = pending.slice(stays.length);
    const batch: StepBatch = { stays };
    if (options.link) batch.link = options.link;
    if (final) batch.visit_ms = visitMs;
    lastSent = options.now();
    options.send(batch);
    if (pending.length > 0) later();
  };
  const later = () => {
    if (cancel) return;
    const wait = Math.max(0, lastSent + STEP_FLUSH_INTERVAL_MS - options.now());
    cancel = options.schedule(() => {
      cancel = null;
      flush(false);
    }, wait);
  };

  return {
    /** The viewer shows `step` now (null: nothing shows: an overlay, or the page is hidden). */
    at(step: number | null) {
      hiddenAt = null;
      if (step === current) return;
      const from = current;
      close();
      if (step !== null) {
        current = step;
        since = options.now();
        first = !reached.has(step);
        back = from !== null && step < from;
        reached.add(step);
      }
      if (pending.length > 0) later();
    },
    /** The page is being hidden: what is pending goes now, with the visit's viewing time. */
    hide() {
      if (current !== null) hiddenAt = current;
      close();
      if (pending.length > 0 || visitMs > 0) flush(true);
      visitMs = 0;
    },
    /** The page shows again: the stay on the step it left goes on, as a new stay. */
    show() {
      if (hiddenAt === null || current !== null) return;
      current = hiddenAt;
      hiddenAt = null;
      since = options.now();
      first = false;
      back = false;
    },
  };
}

/** The median of the times a histogram holds (STAY_TIME_BUCKETS_MS), in ms, or null when empty. */
export function medianOfBuckets(counts: ReadonlyMap<number, number>): number | null {
  let total = 0;
  for (const n of counts.values()) total += n;
  if (total === 0) return null;
  const half = total / 2;
  let seen = 0;
  for (const bucket of [...counts.keys()].sort((a, b) => a - b)) {
    const n = counts.get(bucket) ?? 0;
    if (seen + n >= half) {
      // Linear within the bucket: the times are spread evenly across it.
      const low = STAY_TIME_BUCKETS_MS[bucket - 1] ?? 0;
      const high = STAY_TIME_BUCKETS_MS[bucket] ?? low;
      return low + ((high - low) * (half - seen)) / n;
    }
    seen += n;
  }
  return null;
}
