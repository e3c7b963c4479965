import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SLIDE_PALETTES } from "../../../../document/slide-layout";
import { contrastRatio as contrast } from "../../../../lib/contrast";

const CSS = readFileSync(new URL("./slide.css", import.meta.url), "utf8");

/** The custom properties a theme's rule sets. */
function themeColours(theme: string): Record<string, string> {
  const block = new RegExp(`\\.slide-theme--${theme}\\s*\\{([^}]*)\\}`).exec(CSS)?.[1] ?? "";
  const colours: Record<string, string> = {};
  for (const match of block.matchAll(/--([\w-]+):\s*(#[0-9a-fA-F]{6})\s*;/g)) colours[match[1] ?? ""] = match[2] ?? "";
  return colours;
}

/** [text colour, background] pairs that appear on slides, and the ratio each must reach. */
const PAIRS: [string, string, number][] = [
  ["slide-fg", "slide-bg", 4.5],
  ["slide-title", "slide-bg", 4.5],
  ["slide-subtitle", "slide-bg", 4.5],
  ["slide-muted", "slide-bg", 4.5],
  ["slide-link", "slide-bg", 4.5],
  // List numbers and bullets are drawn in the accent colour.
  ["slide-accent", "slide-bg", 4.5],
  ["slide-title", "slide-head-bg", 4.5],
  ["slide-fg", "slide-head-bg", 4.5],
  ["slide-code-fg", "slide-code-bg", 4.5],
  ["slide-link", "slide-code-bg", 4.5],
  ["slide-rule", "slide-bg", 3],
  ["slide-focus", "slide-bg", 3],
  ...["keyword", "string", "comment", "number", "title", "type", "attr", "meta", "deletion"].map(
    (token): [string, string, number] => [`tok-${token}`, "slide-code-bg", 4.5],
  ),
];

describe("issue 10: slide themes meet WCAG AA contrast", () => {
  for (const theme of ["light", "dark", "contrast"]) {
    it(`${theme}: every text colour reaches 4.5:1 on its background (marks 3:1)`, () => {
      const colours = themeColours(theme);
      const failures = PAIRS.flatMap(([fg, bg, min]) => {
        const a = colours[fg];
        const b = colours[bg];
        if (!a || !b) return [`${fg} or ${bg} missing`];
        const ratio = contrast(a, b);
        return ratio >= min ? [] : [`${fg} ${a} on ${bg} ${b}: ${ratio.toFixed(2)} < ${min}`];
      });
      expect(failures).toEqual([]);
    });
  }

  it("the high-contrast theme is black and white with yellow links (7:1 and more)", () => {
    const colours = themeColours("contrast");
    expect(colours["slide-bg"]).toBe("#000000");
    expect(colours["slide-fg"]).toBe("#ffffff");
    expect(contrast(colours["slide-link"] ?? "", "#000000")).toBeGreaterThanOrEqual(7);
  });
});

describe("slide.css and the thumbnail's palettes agree", () => {
  for (const theme of ["light", "dark", "contrast"] as const) {
    it(`${theme}: every palette colour is the CSS custom property's value`, () => {
      const colours = themeColours(theme);
      for (const [name, value] of Object.entries(SLIDE_PALETTES[theme]))
        expect([name, colours[name]]).toEqual([name, value]);
    });
  }
});
