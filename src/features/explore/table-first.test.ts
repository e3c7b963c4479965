import { describe, expect, it } from "vitest";
import { readsTableFirst, SEARCH_COUNT_CAP } from "./repository";
import { searchQueriesOf } from "./search";

const textOf = (term: string) => searchQueriesOf(term)?.text ?? "";

describe("issue 32 item 3: which searches read the table for their candidates", () => {
  // The shares of the 100,000 skewed bulk decks' statistics: "the" on 99 %, "over" on 14 %.
  const frequencies = {
    shares: new Map([
      ["the", 0.99],
      ["over", 0.14],
      ["first", 0.44],
    ]),
    decks: 100_000,
  };

  it("a word on nearly every deck reads the table; a middling or unknown one, the index", () => {
    expect(readsTableFirst(textOf("the"), frequencies)).toBe(true);
    expect(readsTableFirst(textOf("over"), frequencies)).toBe(false);
    expect(readsTableFirst(textOf("first"), frequencies)).toBe(false);
    expect(readsTableFirst(textOf("sourdough"), frequencies)).toBe(false);
  });

  it("only one plain word: phrases, several words, exclusions and ORs read the index", () => {
    for (const term of ['"the the"', "the over", "the -over", "the OR over"])
      expect(readsTableFirst(textOf(term), frequencies), term).toBe(false);
  });

  it("a small catalogue reads the index even for its commonest word (its posting list is short)", () => {
    expect(readsTableFirst(textOf("the"), { ...frequencies, decks: 20 * SEARCH_COUNT_CAP })).toBe(false);
    expect(readsTableFirst(textOf("the"), { shares: new Map(), decks: 100_000 })).toBe(false);
  });
});
