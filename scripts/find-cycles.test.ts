import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script (check-layers.mjs runs it under Node); it carries no types.
import { describeCycle, featureOf, findCycles } from "./find-cycles.mjs";

const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges));

describe("issue 11: the import circle finder", () => {
  it("finds no circle in a graph whose imports point one way", () => {
    expect(findCycles(graph({ "view-page": ["presentation", "explore"], explore: ["presentation"] }))).toEqual([]);
  });

  it("names the circle between two features, starting and ending at the same one", () => {
    const cycles = findCycles(graph({ presentation: ["explore"], explore: ["presentation"], home: ["presentation"] }));
    expect(cycles.map(describeCycle)).toEqual(["explore → presentation → explore"]);
  });

  it("gives the shortest circle of a knot, in the order of the imports", () => {
    // a → b → c → a is a circle too, but b → a closes a shorter one.
    const cycles = findCycles(graph({ a: ["b"], b: ["c", "a"], c: ["a"] }));
    expect(cycles).toEqual([["a", "b", "a"]]);
    expect(findCycles(graph({ a: ["b"], b: ["c"], c: ["a"] }))).toEqual([["a", "b", "c", "a"]]);
  });

  it("reports each separate knot once, and a file that imports itself", () => {
    const cycles = findCycles(graph({ a: ["b"], b: ["a"], c: ["d"], d: ["c", "e"], e: [], f: ["f"] }));
    expect(cycles.map(describeCycle)).toEqual(["a → b → a", "c → d → c", "f → f"]);
  });

  it("follows chains deeper than the call stack (no recursion)", () => {
    const long = new Map(Array.from({ length: 20_000 }, (_, i) => [`n${i}`, [`n${i + 1}`]]));
    expect(findCycles(long)).toEqual([]);
    long.set("n20000", ["n0"]);
    expect(findCycles(long)[0]?.length).toBe(20_002);
  });

  it("tells the feature of a file under src/, and none for the contracts beside the features", () => {
    expect(featureOf("features/explore/service")).toBe("explore");
    expect(featureOf("features/presentation/components/PresentationPage.tsx")).toBe("presentation");
    expect(featureOf("features/http")).toBeNull();
    expect(featureOf("server/app")).toBeNull();
  });
});
