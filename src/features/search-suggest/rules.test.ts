import { describe, expect, it } from "vitest";
import {
  isCountableTerm,
  normaliseTerm,
  SUGGEST_MAX_QUERY_LENGTH,
  suggestQueryProblem,
  TRENDING_TERM_MAX_LENGTH,
  termMatches,
} from "./rules";

describe("issue 15 items 4, 5: suggestion and trending rules", () => {
  it("item 5: a term is counted normalised: NFKC, lower case, single spaces, at most 60 characters", () => {
    expect(normaliseTerm("  Sourdough \t BASICS ")).toBe("sourdough basics");
    expect(normaliseTerm("ＡＢＣ")).toBe("abc");
    expect(normaliseTerm("Crème Brûlée")).toBe("crème brûlée");
    const long = normaliseTerm(`${"word ".repeat(30)}end`);
    expect(Array.from(long).length).toBeLessThanOrEqual(TRENDING_TERM_MAX_LENGTH);
    expect(long.endsWith(" ")).toBe(false);
    // Never half a surrogate pair.
    expect(normaliseTerm("😀".repeat(70))).toBe("😀".repeat(TRENDING_TERM_MAX_LENGTH));
  });

  it("item 5: only terms with a letter or digit count", () => {
    expect(isCountableTerm("mars")).toBe(true);
    expect(isCountableTerm("日本")).toBe(true);
    expect(isCountableTerm("2026")).toBe(true);
    expect(isCountableTerm("!!! ?")).toBe(false);
    expect(isCountableTerm("")).toBe(false);
  });

  it("item 4: a trending term fits when every typed word starts one of its words", () => {
    expect(termMatches("pitch deck", "")).toBe(true);
    expect(termMatches("pitch deck", "pit")).toBe(true);
    expect(termMatches("pitch deck", "pitch d")).toBe(true);
    expect(termMatches("pitch deck", "deck")).toBe(true);
    expect(termMatches("pitch deck", "itch")).toBe(false);
    expect(termMatches("pitch deck", "pitch x")).toBe(false);
  });

  it("item 4: q is required, text, bounded and free of control characters", () => {
    expect(suggestQueryProblem("")).toBeNull();
    expect(suggestQueryProblem("a".repeat(SUGGEST_MAX_QUERY_LENGTH))).toBeNull();
    expect(suggestQueryProblem(undefined)).toContain("Add q");
    expect(suggestQueryProblem(["a", "b"])).toContain("once");
    expect(suggestQueryProblem("a".repeat(SUGGEST_MAX_QUERY_LENGTH + 1))).toContain("too long");
    expect(suggestQueryProblem("a\u0000b")).toContain("control");
  });
});
