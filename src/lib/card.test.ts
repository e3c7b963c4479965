import { describe, expect, it } from "vitest";
import { MARK_END, MARK_START, markedRuns } from "./card";

/** The runs as the first version found them, one character at a time: the reference. */
function runsOneByOne(text: string): { text: string; marked: boolean }[] {
  const runs: { text: string; marked: boolean }[] = [];
  let current = "";
  let marked = false;
  for (const char of text) {
    if (char === MARK_START || char === MARK_END) {
      if (current) runs.push({ text: current, marked });
      current = "";
      marked = char === MARK_START;
    } else current += char;
  }
  if (current) runs.push({ text: current, marked });
  return runs;
}

describe("markedRuns (issue 15 item 3: a search hit's highlighted words)", () => {
  it("splits at the markers into plain and highlighted runs", () => {
    expect(markedRuns(`a ${MARK_START}bread${MARK_END} loaf`)).toEqual([
      { text: "a ", marked: false },
      { text: "bread", marked: true },
      { text: " loaf", marked: false },
    ]);
    expect(markedRuns("")).toEqual([]);
    expect(markedRuns(`${MARK_START}${MARK_END}`)).toEqual([]);
  });

  it("agrees with a character-by-character reading on random texts, astral characters and stray markers included", () => {
    const alphabet = ["a", "é", " ", "😀", MARK_START, MARK_END, "<", "&"];
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed;
    };
    for (let round = 0; round < 2_000; round += 1) {
      let text = "";
      const length = next() % 24;
      for (let i = 0; i < length; i += 1) text += alphabet[next() % alphabet.length];
      expect(markedRuns(text)).toEqual(runsOneByOne(text));
    }
  });
});
