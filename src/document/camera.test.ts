import { describe, expect, it } from "vitest";
import { firstStepNumbers, isCrowdedOverview, OVERVIEW_READABLE_SLIDES, topicsById } from "./camera";
import { parseDocument, type Topic } from "./schema";
import { classicOverviewDeck, richDeck } from "./testing/rich-fixture";

/** A classic deck: an overview around `slides` slides, visited first. */
function classicDeck(slides: number) {
  const inner = (richDeck("light").topics as Topic[]).slice(0, 1);
  const children = Array.from({ length: slides }, (_, n) => ({ ...inner[0], id: `slide-${n + 1}` }) as Topic);
  return parseDocument(classicOverviewDeck(children, { width: 20000, height: 20000 }));
}

describe("issue 10: a classic deck's overview of many slides stays readable", () => {
  it(`an overview of more than ${OVERVIEW_READABLE_SLIDES} slides is crowded; of ${OVERVIEW_READABLE_SLIDES} or fewer it is not`, () => {
    const many = classicDeck(50);
    expect(isCrowdedOverview(topicsById(many).get("overview"))).toBe(true);
    const few = classicDeck(OVERVIEW_READABLE_SLIDES);
    expect(isCrowdedOverview(topicsById(few).get("overview"))).toBe(false);
  });

  it("a slide (a topic with text) is never an overview", () => {
    const many = classicDeck(50);
    expect(isCrowdedOverview(topicsById(many).get("slide-3"))).toBe(false);
    expect(isCrowdedOverview(undefined)).toBe(false);
  });

  it("step numbers are each topic's first step, 1-based like the counter", () => {
    const numbers = firstStepNumbers(classicDeck(12));
    expect(numbers.get("overview")).toBe(1);
    expect(numbers.get("slide-1")).toBe(2);
    expect(numbers.get("slide-12")).toBe(13);
  });
});
