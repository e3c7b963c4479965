import type { ContentChanges } from "../../features/content-changes";

/** In-process fan-out of change tags to the page cache and the small caches. */
export class ChangeFeed implements ContentChanges {
  readonly #listeners = new Set<(tags: readonly string[]) => void>();

  subscribe(listener: (tags: readonly string[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Tells every listener; one listener's failure doesn't stop the others. */
  publish(tags: readonly string[]): void {
    for (const listener of this.#listeners) {
      try {
        listener(tags);
      } catch {
        // A cache that can't drop an entry must not break the others.
      }
    }
  }
}
