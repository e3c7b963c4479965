import { describe, expect, it } from "vitest";
import { buildSpelling, trigramsOf } from "./spelling";

const known = buildSpelling(
  new Map([
    ["sourdough", 12],
    ["teaching", 7],
    ["marathon", 5],
    ["finance", 9],
    ["fiance", 1],
    ["volcanoes", 3],
    ["around", 4],
    ["starter", 6],
  ]),
);

describe("issue 15 item 3: typo tolerance by the words of the listed titles", () => {
  it("cuts a word into pg_trgm's trigrams", () => {
    expect(trigramsOf("Cat")).toEqual(["  c", " ca", "cat", "at "]);
  });

  it("finds the known word a misspelt one stands for", () => {
    expect(known.closest("sourdoguh")).toBe("sourdough");
    expect(known.closest("teachng")).toBe("teaching");
    expect(known.closest("marathn")).toBe("marathon");
    expect(known.closest("volcanos")).toBe("volcanoes");
    expect(known.closest("SOURDOUGH")).toBe("sourdough");
  });

  it("prefers the more alike word, then the more common one", () => {
    expect(known.closest("finanse")).toBe("finance");
  });

  it("keeps a known word, and finds nothing for a word like none or too short to tell", () => {
    expect(known.closest("starter")).toBe("starter");
    expect(known.closest("crispr")).toBeNull();
    expect(known.closest("zz")).toBeNull();
  });
});
