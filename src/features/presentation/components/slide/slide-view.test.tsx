// @vitest-environment jsdom
import { cleanup, render } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import { isSafeHref, labelShowsTarget, linkTargetLabel } from "../../../../document/safe-link";
import { isSafeLink, parseDocument, type Topic } from "../../../../document/schema";
import { estimateFit, MIN_FIT } from "../../../../document/slide-layout";
import { RICH_SLIDE_TITLES, richDeck } from "../../../../document/testing/rich-fixture";
import { blocksOf } from "./rich-text";
import { slideThemeClass, TopicView } from "./SlideView";

afterEach(cleanup);

const deck = parseDocument(richDeck("light", "/assets/abc.webp"));
const slide = (n: number) => deck.topics[n - 1] as Topic;
const draw = (topic: Topic, theme?: "light" | "dark" | "contrast") =>
  render(<TopicView topic={topic} theme={theme} />).container;

describe("issue 10: slides draw the rich document", () => {
  it("the fixture is a valid version-2 document with one slide per construct", () => {
    expect(deck.topics).toHaveLength(RICH_SLIDE_TITLES.length);
    expect(deck.theme).toBe("light");
  });

  it("marks: strong, em, strike and inline code", () => {
    const html = draw(slide(2)).innerHTML;
    expect(html).toContain("<strong>Bold</strong>");
    expect(html).toContain("<em>italic</em>");
    expect(html).toContain("<s>struck</s>");
    expect(html).toMatch(/<code class="rt-code-inline">inline code<\/code>/);
  });

  it("links open in a new tab with rel noopener noreferrer nofollow, titled with their target, no address drawn after them", () => {
    const container = draw(slide(2));
    const links = [...container.querySelectorAll("a")];
    expect(links.map((a) => a.getAttribute("href"))).toEqual([
      "https://example.com/guide/intro",
      "mailto:hello@example.com",
      "https://example.org",
    ]);
    for (const a of links) {
      expect(a.getAttribute("rel")).toBe("noopener noreferrer nofollow");
      expect(a.getAttribute("target")).toBe("_blank");
    }
    // Issue 28: nothing drawn after a link; the target is its title unless the label says it.
    expect(links.map((a) => a.getAttribute("title"))).toEqual(["example.com/guide/intro", null, null]);
    expect(container.textContent).not.toContain("(example.com");
  });

  it("an unsafe href is never linked: its text is drawn plain", () => {
    const topic = {
      ...slide(2),
      texts: [
        {
          id: "x",
          styleClasses: ["body"],
          paragraphs: [
            {
              text: "click me",
              listType: "NONE",
              biggestFontSize: 36,
              runs: [{ text: "click me", href: "javascript:alert(1)" }],
            },
          ],
        },
      ],
    } as Topic;
    const container = draw(topic);
    expect(container.querySelector("a")).toBeNull();
    expect(container.textContent).toContain("click me");
    expect(container.innerHTML).not.toContain("javascript:");
  });

  it("R3.7 nested bullets by level, and a paragraph beside them keeps the bullets", () => {
    const container = draw(slide(3));
    const text = container.querySelector(".slide__text--body") as HTMLElement;
    expect(text.querySelector(":scope > p")?.textContent).toBe("Bullets keep their markers beside a paragraph:");
    const outer = text.querySelector(":scope > ul") as HTMLElement;
    expect([...outer.querySelectorAll(":scope > li")].map((li) => li.firstChild?.textContent)).toEqual([
      "Fruit",
      "Vegetables",
    ]);
    const apples = outer.querySelector(":scope > li > ul > li") as HTMLElement;
    expect(apples.firstChild?.textContent).toBe("Apples");
    expect(apples.querySelector(":scope > ul > li")?.textContent).toBe("Cox");
  });

  it("an ordered list keeps its start number, with a nested bullet list inside", () => {
    const container = draw(slide(4));
    const ol = container.querySelector("ol") as HTMLOListElement;
    expect(ol.getAttribute("start")).toBe("3");
    expect(ol.querySelectorAll(":scope > li")).toHaveLength(3);
    expect(ol.querySelector(":scope > li > ul > li")?.textContent).toBe("Score it");
  });

  it("task items are disabled checkboxes named by their text, checked or not", () => {
    const container = draw(slide(5));
    const boxes = [...container.querySelectorAll<HTMLInputElement>("input[type=checkbox]")];
    expect(boxes.map((box) => [box.checked, box.disabled])).toEqual([
      [true, true],
      [false, true],
      [false, true],
    ]);
    expect(boxes[0]?.closest("label")?.textContent?.trim()).toBe("Write the outline");
  });

  it("a quote is a blockquote", () => {
    expect(draw(slide(6)).querySelector("blockquote")?.textContent).toContain("Simple things should be simple");
  });

  it("code is pre > code with one span per token and a language label", () => {
    const container = draw(slide(7));
    const code = container.querySelector("pre > code") as HTMLElement;
    expect(code.className).toBe("language-ts");
    expect(container.querySelector(".rt-code__lang")?.textContent).toBe("ts");
    expect([...code.querySelectorAll(".tok")].map((span) => span.className).slice(0, 4)).toEqual([
      "tok tok-comment",
      "tok tok-keyword",
      "tok tok-keyword",
      "tok tok-title tok-function_",
    ]);
    expect(code.textContent).toContain("export function greet(name: string): string {\n  const times = 3;");
  });

  it("a table has a header row of th scope=col and column alignment", () => {
    const container = draw(slide(8));
    const heads = [...container.querySelectorAll("thead th")];
    expect(heads.map((th) => [th.textContent, th.getAttribute("scope")])).toEqual([
      ["Planet", "col"],
      ["Moons", "col"],
      ["Day length", "col"],
    ]);
    const row = [...container.querySelectorAll<HTMLElement>("tbody tr:first-child td")];
    expect(row.map((td) => td.style.textAlign)).toEqual(["left", "center", "right"]);
    expect(container.querySelector("tbody strong")?.textContent).toBe("Mars");
  });

  it("images fit their box; a page topic draws its image and hides its text layer visually", () => {
    const beside = draw(slide(9));
    const img = beside.querySelector("img") as HTMLImageElement;
    expect(img.className).toBe("topic__image");
    expect(img.alt).toBe("A test pattern");
    cleanup();
    const page = draw(slide(10));
    expect(page.querySelector(".topic--page")).not.toBeNull();
    expect(page.querySelector(".topic__texts")).toBeNull();
    const layer = page.querySelector(".topic__text-layer") as HTMLElement;
    expect(layer.className).toContain("visually-hidden");
    expect(layer.textContent).toContain("This text layer is hidden but read aloud");
    expect((page.querySelector("img") as HTMLImageElement).style.width).toBe("1600px");
  });

  it("themes are classes on the topic (or any ancestor)", () => {
    expect(slideThemeClass(undefined)).toBe("slide-theme slide-theme--light");
    for (const theme of ["light", "dark", "contrast"] as const) {
      const topic = draw(slide(1), theme).querySelector(".topic") as HTMLElement;
      expect(topic.classList.contains(`slide-theme--${theme}`)).toBe(true);
      cleanup();
    }
  });

  it("the server render sizes text from biggestFontSize and estimates a fit for long slides", () => {
    const html = renderToString(<TopicView topic={slide(1)} />);
    expect(html).toContain("--size:96");
    expect(html).toContain("--fit:1");
    const long = estimateFit(slide(11));
    expect(long).toBeLessThan(0.9);
    expect(long).toBeGreaterThanOrEqual(MIN_FIT);
    expect(estimateFit(slide(1))).toBe(1);
  });

  it("with step numbers, a slide carries its number and title for a crowded overview, hidden from assistive technology", () => {
    const container = render(<TopicView topic={slide(4)} stepNumbers={new Map([["slide-4", 5]])} />).container;
    const label = container.querySelector(".topic__step-label") as HTMLElement;
    expect(label.getAttribute("aria-hidden")).toBe("true");
    expect(label.textContent).toBe("5Numbered from three");
  });

  it("blocksOf: a change of list type at one level starts a new list", () => {
    const blocks = blocksOf([
      { text: "a", listType: "BULLET", biggestFontSize: 36 },
      { text: "b", listType: "NUMBER", biggestFontSize: 36, number: 1 },
    ]);
    expect(blocks.map((b) => (b.kind === "list" ? b.list.ordered : null))).toEqual([false, true]);
  });
});

describe("safe links outside the schema", () => {
  it("isSafeHref agrees with the schema's isSafeLink", () => {
    for (const href of [
      "https://example.com",
      "http://a.b/c?d#e",
      "mailto:x@y.z",
      "javascript:alert(1)",
      "JAVASCRIPT:alert(1)",
      "data:text/html,x",
      "//evil.example",
      "/relative",
      "https://",
      "ftp://x.y",
      " https://x.y",
    ]) {
      expect(isSafeHref(href), href).toBe(isSafeLink(href));
    }
  });

  it("shows a link's target without scheme or www, cut when long", () => {
    expect(linkTargetLabel("https://www.example.com/")).toBe("example.com");
    expect(linkTargetLabel("mailto:a@b.c")).toBe("a@b.c");
    expect(linkTargetLabel(`https://example.com/${"x".repeat(100)}`)).toHaveLength(48);
    expect(labelShowsTarget("www.example.com", "https://example.com/")).toBe(true);
    expect(labelShowsTarget("the site", "https://example.com/")).toBe(false);
  });
});
