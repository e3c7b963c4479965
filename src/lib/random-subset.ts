/** Spec §8, exact. */
export const SUBSET_TOO_LARGE_MESSAGE =
  "Invalid number of elements provided. Subarray cannot have more elements than original array.";

/**
 * Spec §5: a random subset of `count` elements, in random order; asking for more elements than
 * the source has is an error. Uses crypto randomness (spec §8 names the error without it).
 */
export function randomSubset<T>(source: readonly T[], count: number): T[] {
  if (count > source.length) throw new Error(SUBSET_TOO_LARGE_MESSAGE);
  const cryptoApi = globalThis.crypto;
  if (!cryptoApi?.getRandomValues) throw new Error("crypto.getRandomValues() not supported");
  const pool = [...source];
  const random = cryptoApi.getRandomValues(new Uint32Array(Math.max(count, 1)));
  for (let i = 0; i < count; i += 1) {
    const j = i + ((random[i] ?? 0) % (pool.length - i));
    [pool[i], pool[j]] = [pool[j] as T, pool[i] as T];
  }
  return pool.slice(0, count);
}
