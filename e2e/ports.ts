/**
 * Issue 29: the e2e ports. Playwright runs several workers; each has a Podium server of its own
 * and a block of ports for the specs that start processes of their own, so no two workers ever
 * ask for one port. E2E_PORT is the base (3310 unless set):
 *
 * - E2E_PORT + 10 + n: worker n's server (n is Playwright's parallel index, 0 … workers − 1);
 * - E2E_PORT + 20 + 10·n … + 9: worker n's block for specs that start their own servers:
 *   offsets 0–6 e2e/many-processes.spec.ts (0–1 also e2e/live-nats.spec.ts: a worker runs one
 *   test at a time, and each stops its processes), 7–8 e2e/server-process.spec.ts, 9 the worker's
 *   pre-production server (the `promoServer` fixture in e2e/support.ts).
 */
export const E2E_BASE_PORT = Number(process.env.E2E_PORT ?? 3310);

/** This worker's parallel index (Playwright sets TEST_PARALLEL_INDEX in each worker process). */
export function parallelIndex(): number {
  return Number(process.env.TEST_PARALLEL_INDEX ?? 0);
}

/** The port of the Podium server of the worker with this parallel index. */
export function workerServerPort(index = parallelIndex()): number {
  return E2E_BASE_PORT + 10 + index;
}

/** How many ports each worker's block holds. */
export const PORTS_PER_WORKER = 10;

/** Port `offset` (0 … 9) of this worker's block, for a spec's own processes and proxies. */
export function workerPort(offset: number): number {
  if (offset < 0 || offset >= PORTS_PER_WORKER) throw new Error(`port offset ${offset} is outside the block`);
  return E2E_BASE_PORT + 20 + PORTS_PER_WORKER * parallelIndex() + offset;
}
