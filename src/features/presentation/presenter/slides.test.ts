import { describe, expect, it } from "vitest";
import { cameraTransform } from "../../../document/camera";
import { importMarkdown } from "../../../document/markdown";
import { fitSlide, slideHeadline, topicsById } from "./slides";

describe("issue 10: slides in the presenter view", () => {
  it("issue 10: a slide is fitted into its box, centred, in a frame of its own shape", () => {
    const rect = { x: 1800, y: 0, width: 1600, height: 900, rotation: 0 };
    const fit = fitSlide(rect, { width: 1000, height: 800 }, 0);
    expect(fit).toEqual({
      left: 0,
      top: 118.75,
      width: 1000,
      height: 562.5,
      transform: cameraTransform(rect, { width: 1000, height: 562.5 }, 0),
    });
    const margin = fitSlide(rect, { width: 1600, height: 900 }, 0.05);
    expect(margin).toMatchObject({ left: 80, top: 45, width: 1440, height: 810 });
    expect(fitSlide(rect, { width: 0, height: 300 })).toBeNull();
  });

  it("issue 10: a slide's headline for screen readers is its title, else its first words", () => {
    const document = importMarkdown("Just body text here\n---\n# A title\n## and a subtitle", "2");
    const byId = topicsById(document);
    const [first, second] = document.path;
    expect(slideHeadline(byId.get(first ?? ""))).toBe("Just body text here");
    expect(slideHeadline(byId.get(second ?? ""))).toBe("A title");
    expect(slideHeadline(undefined)).toBe("");
    const long = importMarkdown(`# ${"word ".repeat(60)}`, "2");
    expect(slideHeadline(topicsById(long).get(long.path[0] ?? ""), 20)).toBe("word word word word…");
  });
});
