import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  importMarkdown,
  MarkdownImportError,
  readSlides,
  type SlideContent,
  type SlideParagraph,
  type SlideText,
  slideTopic,
} from "./markdown";
import { documentToMarkdown } from "./markdown-export";
import {
  MARKS,
  type Paragraph,
  type PresentationDocument,
  type Run,
  type StyleClass,
  type Topic,
  walkTopics,
} from "./schema";

/** Text and image ids are generated from positions in the source; compare documents without them. */
function withoutGeneratedIds(document: PresentationDocument): unknown {
  const strip = (topic: Topic): unknown => ({
    ...topic,
    texts: topic.texts.map(({ id: _id, ...text }) => text),
    images: topic.images.map(({ id: _id, ...image }) => image),
    topics: topic.topics.map(strip),
  });
  return { ...document, topics: document.topics.map(strip) };
}

/** Characters that mean something to CommonMark (or to the importer), mixed with plain ones. */
const CHARACTERS = [
  ..."ab Z9 *_`[]()\\#-+!.)é\u00a0\t<>&;=|~:1{}\"'",
  "\u2028",
  "😀",
  "&amp;",
  "&#32;",
  "&#x0;",
  "&nbsp;",
  "<b>",
  "~~",
  "](/x)",
];
/** Inline Markdown: marks, code spans and links of every kind (http(s), mailto, unsafe), around words. */
const INLINE = [
  "**",
  "__",
  "*",
  "_",
  "~~",
  "`",
  "``",
  "[",
  "](https://x.test)",
  "](https://x.test/a_(b)?q=1&amp;r)",
  "](mailto:ann@x.test)",
  "](javascript:alert(1))",
  "](</with space>)",
  "<https://auto.test/x>",
  "&#x20;",
  "![remote](https://x.test/r.png)",
  "![own](/assets/o.png)",
  "\\",
  "  ",
];
const words = fc.array(fc.constantFrom(...CHARACTERS), { maxLength: 24 }).map((chars) => chars.join(""));
const richWords = fc
  .array(fc.oneof(fc.constantFrom(...CHARACTERS), fc.constantFrom(...INLINE), fc.constantFrom("word", "two words")), {
    maxLength: 16,
  })
  .map((parts) => parts.join(""));
const text = fc.oneof(words, richWords, richWords);
const BLOCK_MARKERS = [
  "-",
  "*",
  "+",
  "1.",
  "2)",
  "3.",
  "10)",
  "0.",
  ">",
  "> -",
  "> 1.",
  "- [ ]",
  "- [x]",
  "1. [X]",
  "- -",
  "1. -",
  "> >",
  "- - - -",
  "1. 2) -",
  "> > 3.",
  "-  [ ]",
];
/**
 * Lines of a deck: text with marks and links, headings, list items (bullets, ordered with start
 * numbers and both delimiters, nested by indent or by markers on one line, tasks), block quotes
 * (with lists inside), fences (with languages, in lists and quotes) and indented code, lines of
 * dashes (which split slides, even in a fence), tables with alignment, raw HTML, remote and own
 * images, link reference definitions, and notes (reveal.js `Note:` and Slidev's closing comment).
 */
const line = fc.oneof(
  text,
  fc.tuple(fc.integer({ min: 1, max: 7 }), text).map(([level, words]) => `${"#".repeat(level)} ${words}`),
  fc
    .tuple(fc.integer({ min: 0, max: 8 }), fc.constantFrom(...BLOCK_MARKERS), text)
    .map(([indent, marker, words]) => `${" ".repeat(indent)}${marker} ${words}`),
  fc.tuple(words, fc.constantFrom("/assets/a.png", "/assets/x/y-1.svg")).map(([alt, src]) => `![${alt}](${src})`),
  fc.tuple(fc.constantFrom("", "  ", "> ", "- "), words).map(([indent, words]) => `${indent}${words}`),
  fc
    .tuple(fc.constantFrom("| ", "|", ""), fc.array(text, { minLength: 1, maxLength: 3 }))
    .map(([edge, cells]) => `${edge}${cells.join(" | ")} |`),
  fc.constantFrom(
    "",
    "",
    "   ",
    "---",
    " ----- ",
    "`` ``",
    "**bold** and _em_",
    "[label](https://x.test)",
    "===",
    "--",
    "***",
    "- - -",
    "```",
    "```js",
    "````ts",
    "~~~ js",
    "~~~",
    "> ```",
    "> ---",
    ">     code",
    "- ```",
    "  ```",
    "  ---",
    "    indented code",
    "      ---",
    "\t tabbed",
    "| a | b |",
    "|---|:-:|",
    "|:--|--:|",
    "| :-- | --: | :-: |",
    "[ref]: /url",
    "[ref]: https://x.test/ref",
    "[ref]",
    "ends with a backslash\\",
    "two trailing spaces  ",
    "<div>",
    "</div>",
    "<!-- c -->",
    "<!--",
    "-->",
    "<b>x</b>",
    "-",
    "1.",
    "7.",
    "![remote](https://x.test/a.png)",
    "Note:",
    "Notes: said aloud",
    "note: lower",
    "<!-- notes at the end -->",
  ),
);
const markdownSource = fc.array(line, { minLength: 1, maxLength: 30 }).map((lines) => lines.join("\n"));

/**
 * Every paragraph is one line (raw HTML that spans lines, `<a\nb>`, is split at its line breaks
 * like any other text): what the round trip relies on, checked on every generated deck.
 */
function hasLineBreakInParagraph(document: PresentationDocument): boolean {
  return [...walkTopics(document.topics)].some(({ topic }) =>
    topic.texts.some((text) => text.kind !== "code" && text.paragraphs.some((p) => p.text.includes("\n"))),
  );
}

function importOrNull(source: string, schemaVersion: "0" | "2"): PresentationDocument | null {
  try {
    return importMarkdown(source, schemaVersion);
  } catch (error) {
    if (error instanceof MarkdownImportError) return null;
    throw error;
  }
}

/**
 * Any text Markdown can hold: ASCII punctuation, Unicode spaces at the edges, emoji. (Not NUL,
 * which CommonMark reads as U+FFFD, nor a vertical tab at an edge, which no reference can write;
 * line breaks become spaces, a paragraph being one line.)
 */
const ANY_CHARACTER = fc.constantFrom(
  ...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)),
  ..."\t\u00a0\u2028\u3000\ufeffé😀",
);
const anyText = fc.string({ unit: ANY_CHARACTER, maxLength: 30 });

/**
 * Runs as the importer makes them: not empty, marks in order, neighbours of one style merged.
 * (A code span can't hold a line separator beside a backtick at its edge: markdown-it strips no
 * padding then; the importer never makes one, so code runs here have spaces instead.)
 */
const anyRuns = fc
  .array(
    fc.record({
      text: fc.string({ unit: ANY_CHARACTER, minLength: 1, maxLength: 12 }),
      marks: fc.subarray([...MARKS]),
      href: fc.option(fc.constantFrom("https://x.test/a", "https://x.test/a_(b)?q=1&r", "mailto:ann@x.test"), {
        nil: undefined,
      }),
    }),
    { maxLength: 5 },
  )
  .map((runs) => {
    const out: Run[] = [];
    for (const { text, marks, href } of runs) {
      const run: Run = { text: marks.includes("code") ? text.replace(/\u2028/g, " ") : text };
      if (marks.length > 0) run.marks = marks;
      if (href) run.href = href;
      const last = out[out.length - 1];
      if (last && last.href === run.href && (last.marks ?? []).join() === (run.marks ?? []).join())
        last.text += run.text;
      else out.push(run);
    }
    return out;
  });

/** A paragraph of runs, as the importer writes it: runs only when some run is marked or linked. */
function paragraphOf(runs: Run[], listType: Paragraph["listType"]): SlideParagraph {
  const text = runs.map((run) => run.text).join("");
  return runs.some((run) => run.marks || run.href) ? { text, listType, runs } : { text, listType };
}

/** A slide's texts in the shapes Markdown writes: one-paragraph headings, bodies of bullets and lines. */
const slideContent = fc.record({
  texts: fc.array(
    fc.oneof(
      fc
        .record({
          style: fc.constantFrom<StyleClass>("title", "subtitle", "subtitle_2"),
          runs: fc.oneof(
            anyText.map((text) => (text === "" ? [] : [{ text }])),
            anyRuns,
          ),
        })
        .map(({ style, runs }): SlideText => ({ style, paragraphs: [paragraphOf(runs, "NONE")] })),
      fc
        .array(
          fc.record({
            runs: fc.oneof(
              anyText.map((text) => (text === "" ? [] : [{ text }])),
              anyRuns,
            ),
            listType: fc.constantFrom("BULLET" as const, "NONE" as const),
          }),
          { minLength: 1, maxLength: 5 },
        )
        .map(
          (paragraphs): SlideText => ({
            style: "body",
            paragraphs: paragraphs.map(({ runs, listType }) => paragraphOf(runs, listType)),
          }),
        ),
    ),
    { maxLength: 6 },
  ),
  images: fc.array(fc.record({ alt: anyText, src: fc.constantFrom("/assets/a.png", "/assets/x/y-1.svg") }), {
    maxLength: 2,
  }),
});

/** A one-slide document whose one body text has these lines, as plain paragraphs. */
function bodyLinesDocument(lines: string[]): PresentationDocument {
  const paragraphs = lines.map((text) => ({ text, listType: "NONE" as const, biggestFontSize: 36 }));
  return documentOf([{ texts: [{ id: "t1", styleClasses: ["body"], paragraphs }], images: [] }]);
}

function documentOf(slides: { texts: Topic["texts"]; images: Topic["images"] }[]): PresentationDocument {
  // (With no slides: a document whose topics the caller sets.)
  const topics: Topic[] = slides.map((slide, index) => ({
    ...slideTopic(`slide-${index + 1}`, 0, 0, slide.texts),
    images: slide.images,
  }));
  return { format: "podium.presentation", version: 1, schemaVersion: "2", topics, path: topics.map((t) => t.id) };
}

describe("documentToMarkdown", () => {
  it("round-trips Markdown-made decks: importing its output gives the same document (up to generated ids)", () => {
    fc.assert(
      fc.property(markdownSource, fc.constantFrom("0" as const, "2" as const), (source, schemaVersion) => {
        const document = importOrNull(source, schemaVersion);
        fc.pre(document !== null);
        if (!document) return;
        expect(hasLineBreakInParagraph(document)).toBe(false);
        const again = importMarkdown(documentToMarkdown(document), schemaVersion);
        expect(withoutGeneratedIds(again)).toEqual(withoutGeneratedIds(document));
      }),
      { numRuns: 1500 },
    );
  });

  it("writes any text so that it reads back as itself: headings, bullets, lines, marks, links and image alt texts", () => {
    fc.assert(
      fc.property(fc.array(slideContent, { minLength: 1, maxLength: 3 }), (slides) => {
        const document = documentOf(
          slides.map((slide, s) => ({
            texts: slide.texts.map((text, t) => ({
              id: `s${s}-t${t}`,
              styleClasses: [text.style],
              paragraphs: text.paragraphs.map((p) => ({ ...p, biggestFontSize: 36 })),
            })),
            images: slide.images.map((image, i) => ({ id: `s${s}-i${i}`, ...image, x: 0, y: 0, width: 1, height: 1 })),
          })),
        );
        const markdown = documentToMarkdown(document);
        const hasContent = (slide: SlideContent) => slide.texts.length > 0 || slide.images.length > 0;
        expect(readSlides(markdown).filter(hasContent)).toEqual(slides.filter(hasContent));
      }),
      { numRuns: 1000 },
    );
  });

  it("writes ordinary decks as the Markdown people write", () => {
    const source =
      "# Tide pools\n## Life between the waves\n---\n# Who lives there\n- Anemones\n- Hermit crabs\n\nLook, don't lift.\n---\n![A crab](/assets/crab.png)\n";
    const document = importMarkdown(source, "2");
    expect(documentToMarkdown(document)).toBe(source);
  });

  it("issue 10: writes rich decks as the Markdown people write: marks, links, lists, tasks, quotes, code, tables, notes", () => {
    const source = [
      "# Release notes",
      "## What changed",
      "- **Faster** imports",
      "- _Safer_ links: [docs](https://podium.test/docs) and ~~old~~ new",
      "  - nested `code`",
      "1. First",
      "2. Second",
      "- [ ] open task",
      "- [x] done task",
      "",
      "> A quote",
      "> - with a list",
      "",
      "```ts",
      "const x = 1;",
      "",
      "  indented();",
      "```",
      "",
      "| Name | Count |",
      "|:--|--:|",
      "| a | **1** |",
      "",
      "![A crab](/assets/crab.png)",
      "",
      "Note: Say hello.",
      "Then go on.",
      "---",
      "3. Three",
      "4. Four",
      "",
    ].join("\n");
    expect(documentToMarkdown(importMarkdown(source, "2"))).toBe(source);
  });

  it("issue 10: writes a code block holding a line of dashes inside a block quote, so it can't split the slide", () => {
    const document = documentOf([
      {
        texts: [
          {
            id: "t1",
            styleClasses: ["body"],
            kind: "code",
            language: "yaml",
            paragraphs: ["title: x", "---", "  - item"].map((text) => ({
              text,
              listType: "NONE" as const,
              biggestFontSize: 28,
            })),
          },
        ],
        images: [],
      },
    ]);
    const markdown = documentToMarkdown(document);
    expect(markdown).toBe("> ```yaml\n> title: x\n> ---\n>   - item\n> ```\n");
    expect(readSlides(markdown)).toEqual([
      {
        texts: [
          {
            style: "body",
            kind: "code",
            language: "yaml",
            paragraphs: ["title: x", "---", "  - item"].map((text) => ({ text, listType: "NONE" })),
          },
        ],
        images: [],
      },
    ]);
  });

  it("issue 10: writes lines followed by an ordered item past 1 inside the list item or heading before them", () => {
    // CommonMark lets `3.` interrupt a paragraph only inside a list item: the importer makes
    // these texts from lines in an item that a block before them used.
    for (const source of [
      "- a\n![](/assets/a.png)\nb\n3. c",
      "- # Heading\n  b\n3. c",
      "- ```\n  code\n  ```\n  b\n5) c",
      "> - a\n>   ***\n>   b\n> 7. c",
      "> a\n> > 3. b\n> > - c",
      "<!-- c -->\n0. a\n\\~~b\nc~~",
    ]) {
      const document = importMarkdown(source, "2");
      const paragraphs = document.topics[0]?.topics[0]?.texts.flatMap((text) => text.paragraphs);
      expect(paragraphs?.filter((p) => p.listType === "NUMBER")).toHaveLength(1);
      expect(withoutGeneratedIds(importMarkdown(documentToMarkdown(document), "2"))).toEqual(
        withoutGeneratedIds(document),
      );
    }
  });

  it("issue 10: writes marks whose edge is whitespace, or that touch words, with character references", () => {
    const runs: Run[] = [
      { text: "a" },
      { text: " b", marks: ["strong"] },
      { text: "(c)", marks: ["em"] },
      { text: "d" },
    ];
    const document = documentOf([
      {
        texts: [
          {
            id: "t1",
            styleClasses: ["body"],
            paragraphs: [{ text: "a b(c)d", listType: "NONE", biggestFontSize: 36, runs }],
          },
        ],
        images: [],
      },
    ]);
    const markdown = documentToMarkdown(document);
    expect(markdown).toContain("&#x20;");
    expect(readSlides(markdown)[0]?.texts[0]?.paragraphs).toEqual([{ text: "a b(c)d", listType: "NONE", runs }]);
  });

  it("issue 10: writes speaker notes after a closing Note: paragraph, on its line when they read back so", () => {
    const notes = ["Say hello.", "Title-like\n===\nis still notes", "[ref]: https://x.test and <b>html</b>"];
    for (const note of notes) {
      const topic: Topic = {
        id: "s",
        x: 0,
        y: 0,
        width: 1,
        height: 1,
        rotation: 0,
        background: null,
        texts: [
          { id: "t", styleClasses: ["title"], paragraphs: [{ text: "Hi", listType: "NONE", biggestFontSize: 96 }] },
        ],
        images: [],
        topics: [],
        notes: note,
      };
      const markdown = documentToMarkdown({ ...documentOf([]), topics: [topic], path: ["s"] });
      expect(readSlides(markdown)[0]?.notes).toBe(note);
    }
    const [single] = notes;
    const topic = importMarkdown(`# Hi\n\nNote: ${single}`, "2").topics[0]?.topics[0];
    expect(topic?.notes).toBe(single);
  });

  it("issue 10: writes a page topic (an imported PDF page) as its page image, then its text layer as lines", () => {
    const page: Topic = {
      id: "p1",
      x: 0,
      y: 0,
      width: 1600,
      height: 900,
      rotation: 0,
      background: null,
      layout: "page",
      texts: [
        {
          id: "t",
          styleClasses: ["body"],
          paragraphs: ["Quarterly report", "Revenue * 2"].map((text) => ({
            text,
            listType: "NONE" as const,
            biggestFontSize: 36,
          })),
        },
      ],
      images: [{ id: "i", src: "/assets/pages/p1.png", alt: "Page 1", x: 0, y: 0, width: 1600, height: 900 }],
      topics: [],
    };
    const markdown = documentToMarkdown({ ...documentOf([]), topics: [page], path: ["p1"] });
    expect(markdown).toBe("![Page 1](/assets/pages/p1.png)\n\nQuarterly report\nRevenue * 2\n");
  });

  it("brings other documents to what Markdown can say: one line per paragraph, numbers filled in, no highlight tokens", () => {
    const document = documentOf([
      {
        texts: [
          {
            id: "t1",
            styleClasses: ["body_2"],
            paragraphs: [
              { text: "two\nlines", listType: "NONE", biggestFontSize: 30 },
              { text: "first", listType: "NUMBER", biggestFontSize: 30 },
              { text: "second", listType: "NUMBER", biggestFontSize: 30 },
              { text: "loose", listType: "NONE", biggestFontSize: 30, level: 3, number: 4, checked: true },
            ],
          },
          {
            id: "t2",
            styleClasses: ["body"],
            kind: "code",
            language: "js",
            paragraphs: [
              {
                text: "let a",
                listType: "NONE",
                biggestFontSize: 28,
                runs: [{ text: "let", token: "keyword" }, { text: " a" }],
              },
            ],
          },
        ],
        images: [],
      },
    ]);
    expect(readSlides(documentToMarkdown(document))).toEqual([
      {
        texts: [
          {
            style: "body",
            paragraphs: [
              { text: "two lines", listType: "NONE" },
              { text: "first", listType: "NUMBER", number: 1 },
              { text: "second", listType: "NUMBER", number: 2 },
              { text: "loose", listType: "NONE" },
            ],
          },
          { style: "body", kind: "code", language: "js", paragraphs: [{ text: "let a", listType: "NONE" }] },
        ],
        images: [],
      },
    ]);
  });

  it("escapes what would otherwise read as Markdown", () => {
    const document = importMarkdown("# Title\n\\# not a heading\n\\- not a bullet\n2 \\* 3 \\* 4 = 24\n", "2");
    const paragraphs = document.topics[0]?.topics[0]?.texts[1]?.paragraphs.map((p) => p.text);
    expect(paragraphs).toEqual(["# not a heading", "- not a bullet", "2 * 3 * 4 = 24"]);
    const markdown = documentToMarkdown(document);
    expect(withoutGeneratedIds(importMarkdown(markdown, "2"))).toEqual(withoutGeneratedIds(document));
  });

  it("escapes marks that would pair across lines, which each line alone doesn't show", () => {
    const lines = ["a `b", "c` d", "*e", "f*", "[g", "h](/x)"];
    const document = bodyLinesDocument(lines);
    const markdown = documentToMarkdown(document);
    expect(readSlides(markdown)[0]?.texts[0]?.paragraphs.map((p) => p.text)).toEqual(lines);
    expect(markdown).toBe("a \\`b\nc\\` d\n\\*e\nf\\*\n\\[g\nh\\](/x)\n");
  });

  it("escapes only what needs it, and keeps edge spaces with character references", () => {
    const lines = [
      "*not em* and C# and a_b_c",
      "1. not a list",
      "> not a quote",
      "===",
      "",
      " indented ",
      "<b>not html</b> &amp; no entity",
    ];
    const document = bodyLinesDocument(lines);
    const markdown = documentToMarkdown(document);
    expect(markdown.split("\n")).toEqual([
      "\\*not em\\* and C\\# and a\\_b\\_c",
      "1\\. not a list",
      "\\> not a quote",
      "\\===",
      "[]()",
      "&#x20;indented&#x20;",
      "\\<b>not html\\</b> \\&amp; no entity",
      "",
    ]);
    expect(readSlides(markdown)[0]?.texts[0]?.paragraphs.map((p) => p.text)).toEqual(lines);
  });
});
