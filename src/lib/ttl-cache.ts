/**
 * Remembers fn's answer per key object (a database) for ttlMs: for figures that may be a little
 * stale (counts in a placeholder, fixed sidebar cards) and would otherwise be read on every page.
 */
export function cachedPerKey<Key extends object, Value>(
  ttlMs: number,
  fn: (key: Key) => Promise<Value>,
): (key: Key) => Promise<Value> {
  const cache = new WeakMap<Key, { value: Value; at: number }>();
  return async (key) => {
    const hit = cache.get(key);
    if (hit && Date.now() - hit.at < ttlMs) return hit.value;
    const value = await fn(key);
    cache.set(key, { value, at: Date.now() });
    return value;
  };
}
