/**
 * Issue 15 item 3, typo tolerance: the known word closest to a misspelt one ("sourdoguh" →
 * "sourdough"), from the words of the listed titles (the suggestion index's, title-index.ts), by
 * trigram similarity as pg_trgm computes it (shared trigrams over all trigrams, each word padded
 * with two spaces before and one after). The search then runs again with the corrected words.
 * Asking PostgreSQL for titles that look like the text (word_similarity over the title trigram
 * index) cost 58–209 ms at 100,000 decks and 29–49 ms on PGlite at 10,000, and found "Sourdough
 * Basics: Making a starter" for "teachng"; this takes microseconds.
 */

/** How alike (0–1) a known word must be to stand for the typed one: "sourdoguh" is 0.43 like "sourdough". */
export const SPELLING_MIN_SIMILARITY = 0.4;
/** Shorter words are left alone: two letters are alike to too many. */
export const SPELLING_MIN_LENGTH = 3;

/** pg_trgm's trigrams of one word: lower case, "  word " cut in threes, each once. */
export function trigramsOf(word: string): string[] {
  const chars = Array.from(`  ${word.toLowerCase()} `);
  const found = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i += 1) found.add(`${chars[i]}${chars[i + 1]}${chars[i + 2]}`);
  return [...found];
}

export interface Spelling {
  /** The word itself when known; else the most alike known word (ties: the more common); null when none is alike enough. */
  closest(word: string): string | null;
}

/** Builds from the known words and how many titles hold each. */
export function buildSpelling(counts: ReadonlyMap<string, number>): Spelling {
  const words = [...counts.keys()];
  const sizes = new Int32Array(words.length);
  const byTrigram = new Map<string, number[]>();
  words.forEach((word, n) => {
    const trigrams = trigramsOf(word);
    sizes[n] = trigrams.length;
    for (const trigram of trigrams) {
      const list = byTrigram.get(trigram);
      if (list) list.push(n);
      else byTrigram.set(trigram, [n]);
    }
  });
  return {
    closest(typed) {
      const word = typed.toLowerCase();
      if (counts.has(word)) return word;
      if (Array.from(word).length < SPELLING_MIN_LENGTH) return null;
      const trigrams = trigramsOf(word);
      const shared = new Map<number, number>();
      for (const trigram of trigrams) {
        for (const n of byTrigram.get(trigram) ?? []) shared.set(n, (shared.get(n) ?? 0) + 1);
      }
      let best: { n: number; similarity: number; count: number } | null = null;
      for (const [n, common] of shared) {
        const similarity = common / (trigrams.length + (sizes[n] ?? 0) - common);
        if (similarity < SPELLING_MIN_SIMILARITY) continue;
        const count = counts.get(words[n] as string) ?? 0;
        if (!best || similarity > best.similarity || (similarity === best.similarity && count > best.count)) {
          best = { n, similarity, count };
        }
      }
      return best ? (words[best.n] as string) : null;
    },
  };
}
