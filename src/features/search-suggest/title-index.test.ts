import { describe, expect, it } from "vitest";
import { seededRandom } from "../../lib/seeded-random";
import { typedWordsOf } from "./rules";
import { buildTitleIndex, buildTitleIndexInTurns, type IndexedTitle } from "./title-index";

/** The answer by definition: every match, starts-with first, each group in the given (most watched first) order. */
function reference(titles: readonly IndexedTitle[], typed: string, limit: number): string[] {
  const words = typedWordsOf(typed);
  if (words.length === 0) return [];
  const fits = titles.filter((t) => words.every((w) => t.words.some((word) => word.startsWith(w))));
  const starts = fits.filter((t) => t.title.toLowerCase().startsWith(typed));
  const others = fits.filter((t) => !t.title.toLowerCase().startsWith(typed));
  return [...starts, ...others].slice(0, limit).map((t) => t.oid);
}

const VOCABULARY = [
  "pitch",
  "deck",
  "pizza",
  "piano",
  "the",
  "theory",
  "sourdough",
  "sour",
  "über",
  "a",
  "ab",
  "data",
  "db",
  "é",
];

describe("issue 15 item 4: the suggestion title index", () => {
  it("answers what scanning every title would, for any typed text, with a walk that stops early", () => {
    const r = seededRandom(15);
    const titles: IndexedTitle[] = Array.from({ length: 3_000 }, (_, n) => {
      const words = Array.from(
        { length: 1 + Math.floor(r() * 4) },
        () => VOCABULARY[Math.floor(r() * VOCABULARY.length)] ?? "x",
      );
      return { oid: `oid${n}`, title: words.join(" "), words: [...new Set(words)] };
    });
    const index = buildTitleIndex(titles);
    expect(index.size).toBe(3_000);
    const typedTexts = [
      "p",
      "pi",
      "pit",
      "pitch",
      "pitch d",
      "the",
      "th",
      "theo",
      "sour",
      "sourdough pi",
      "über",
      "é",
      "a",
      "ab",
      "zz",
      "pitch zz",
      "d b",
      "data db",
    ];
    for (const typed of typedTexts) {
      for (const limit of [1, 8, 50]) {
        expect(
          index.suggest(typed, typedWordsOf(typed), limit).map((t) => t.oid),
          `${typed} / ${limit}`,
        ).toEqual(reference(titles, typed, limit));
      }
    }
  });

  it("puts titles that start with the typed text first, then the most watched", () => {
    const index = buildTitleIndex([
      { oid: "a", title: "The perfect pitch", words: ["the", "perfect", "pitch"] },
      { oid: "b", title: "Pitch deck 2", words: ["pitch", "deck", "2"] },
      { oid: "c", title: "Pitch deck 1", words: ["pitch", "deck", "1"] },
    ]);
    expect(index.suggest("pitch", ["pitch"], 8).map((t) => t.oid)).toEqual(["b", "c", "a"]);
    expect(index.suggest("perfect pit", ["perfect", "pit"], 8).map((t) => t.oid)).toEqual(["a"]);
    expect(index.suggest("itch", ["itch"], 8)).toEqual([]);
    expect(index.suggest("", [], 8)).toEqual([]);
  });
});

describe("issue 15: the title index built in the server's background loads", () => {
  const next = seededRandom(7);
  const titles: IndexedTitle[] = Array.from({ length: 20_000 }, (_, n) => {
    const words = Array.from({ length: 1 + Math.floor(next() * 5) }, () => {
      return VOCABULARY[Math.floor(next() * VOCABULARY.length)] as string;
    });
    return { oid: `t${n}`, title: words.join(" "), words };
  });

  it("gives the event loop turns while it builds, and answers as the index built in one go", async () => {
    let done = false;
    const building = buildTitleIndexInTurns(titles).then((index) => {
      done = true;
      return index;
    });
    // What a request would be: handled on the loop's next turn, while the build goes on.
    const servedMeanwhile = await new Promise<boolean>((resolve) => setImmediate(() => resolve(!done)));
    expect(servedMeanwhile).toBe(true);
    const inTurns = await building;
    const inOneGo = buildTitleIndex(titles);
    for (const typed of ["pi", "sour", "the d", "über", "data db"]) {
      const words = typedWordsOf(typed);
      expect(inTurns.suggest(typed, words, 8)).toEqual(inOneGo.suggest(typed, words, 8));
    }
    expect(inTurns.closestWord("sourdoguh")).toBe("sourdough");
    expect(inTurns.closestWord("theroy")).toBe(inOneGo.closestWord("theroy"));
  });
});
