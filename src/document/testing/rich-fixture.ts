import { slideTopic } from "../markdown";

/**
 * A hand-built version-2 document with one slide per rich construct (tests and the e2e spec
 * rich-slides.spec.ts): marks and links, nested bullets mixed with a paragraph, a numbered list
 * starting at 3, tasks, a quote, code with highlight.js tokens, a table with alignments, an image
 * beside text, a "page" topic, and a slide too long to fit. Not imported by the app.
 */
type Json = Record<string, unknown>;

const FONT = { title: 96, subtitle: 56, body: 36 } as const;

const p = (text: string, extra: Json = {}, size: number = FONT.body): Json => ({
  text,
  listType: "NONE",
  biggestFontSize: size,
  ...extra,
});
const runsP = (runs: Json[], extra: Json = {}, size: number = FONT.body): Json =>
  p(runs.map((run) => run.text as string).join(""), { runs, ...extra }, size);
const title = (id: string, text: string): Json => ({
  id,
  styleClasses: ["title"],
  paragraphs: [p(text, {}, FONT.title)],
});

export const RICH_SLIDE_TITLES = [
  "Rich slides",
  "Marks and links",
  "Nested bullets",
  "Numbered from three",
  "Tasks",
  "A quote",
  "Code",
  "A table",
  "An image beside text",
  "A scanned page",
  "A slide with too much to say",
] as const;

/** The rich deck in a theme; `imageSrc` is an uploaded asset's path (/assets/….webp). */
export function richDeck(theme: "light" | "dark" | "contrast", imageSrc = "/assets/example.webp"): Json {
  const slides: Json[][] = [
    [
      title("t1", "Rich slides"),
      { id: "t1b", styleClasses: ["subtitle"], paragraphs: [p(`Every construct, ${theme} theme`, {}, FONT.subtitle)] },
    ],
    [
      title("t2", "Marks and links"),
      {
        id: "t2b",
        styleClasses: ["body"],
        paragraphs: [
          runsP([
            { text: "Bold", marks: ["strong"] },
            { text: ", " },
            { text: "italic", marks: ["em"] },
            { text: ", " },
            { text: "struck", marks: ["strike"] },
            { text: " and " },
            { text: "inline code", marks: ["code"] },
            { text: "." },
          ]),
          runsP([
            { text: "Read " },
            { text: "the guide", href: "https://example.com/guide/intro" },
            { text: " or write to " },
            { text: "hello@example.com", href: "mailto:hello@example.com" },
            { text: "." },
          ]),
          runsP([
            { text: "More at " },
            { text: "https://example.org", href: "https://example.org" },
            { text: " any time." },
          ]),
        ],
      },
    ],
    [
      title("t3", "Nested bullets"),
      {
        id: "t3b",
        styleClasses: ["body"],
        paragraphs: [
          p("Bullets keep their markers beside a paragraph:"),
          p("Fruit", { listType: "BULLET", level: 0 }),
          p("Apples", { listType: "BULLET", level: 1 }),
          p("Cox", { listType: "BULLET", level: 2 }),
          p("Pears", { listType: "BULLET", level: 1 }),
          p("Vegetables", { listType: "BULLET", level: 0 }),
        ],
      },
    ],
    [
      title("t4", "Numbered from three"),
      {
        id: "t4b",
        styleClasses: ["body"],
        paragraphs: [
          p("Preheat the oven", { listType: "NUMBER", number: 3 }),
          p("Shape the loaf", { listType: "NUMBER", number: 4 }),
          p("Score it", { listType: "BULLET", level: 1 }),
          p("Bake for 40 minutes", { listType: "NUMBER", number: 5 }),
        ],
      },
    ],
    [
      title("t5", "Tasks"),
      {
        id: "t5b",
        styleClasses: ["body"],
        paragraphs: [
          p("Write the outline", { listType: "BULLET", checked: true }),
          p("Draw the diagrams", { listType: "BULLET", checked: false }),
          p("Rehearse twice", { listType: "BULLET", checked: false }),
        ],
      },
    ],
    [
      title("t6", "A quote"),
      {
        id: "t6b",
        styleClasses: ["body"],
        kind: "quote",
        paragraphs: [p("Simple things should be simple, complex things should be possible."), p("— Alan Kay")],
      },
    ],
    [
      title("t7", "Code"),
      {
        id: "t7b",
        styleClasses: ["body"],
        kind: "code",
        language: "ts",
        paragraphs: [
          runsP([{ text: "// greet someone", token: "comment" }]),
          runsP([
            { text: "export", token: "keyword" },
            { text: " " },
            { text: "function", token: "keyword" },
            { text: " " },
            { text: "greet", token: "title function_" },
            { text: "(" },
            { text: "name: string", token: "params" },
            { text: "): " },
            { text: "string", token: "built_in" },
            { text: " {" },
          ]),
          runsP([
            { text: "  " },
            { text: "const", token: "keyword" },
            { text: " times = " },
            { text: "3", token: "number" },
            { text: ";" },
          ]),
          runsP([
            { text: "  " },
            { text: "return", token: "keyword" },
            { text: " " },
            { text: '"Hello, "', token: "string" },
            { text: " + name + " },
            { text: '"!"', token: "string" },
            { text: ";" },
          ]),
          p("}"),
        ],
      },
    ],
    [
      title("t8", "A table"),
      {
        id: "t8b",
        styleClasses: ["body"],
        kind: "table",
        align: ["left", "center", "right"],
        paragraphs: [
          p("Planet | Moons | Day length", {
            cells: [[{ text: "Planet" }], [{ text: "Moons" }], [{ text: "Day length" }]],
          }),
          p("Earth | 1 | 24 h", { cells: [[{ text: "Earth" }], [{ text: "1" }], [{ text: "24 h" }]] }),
          p("Mars | 2 | 24.6 h", {
            cells: [[{ text: "Mars", marks: ["strong"] }], [{ text: "2" }], [{ text: "24.6 h" }]],
          }),
          p("Jupiter | 95 | 9.9 h", { cells: [[{ text: "Jupiter" }], [{ text: "95" }], [{ text: "9.9 h" }]] }),
        ],
      },
    ],
  ];
  const topics: Json[] = slides.map((texts, index) => topicAt(index, texts));
  topics.push({
    ...topicAt(slides.length, [
      title("t9", "An image beside text"),
      { id: "t9b", styleClasses: ["body"], paragraphs: [p("The image keeps its proportions in its box.")] },
    ]),
    images: [{ id: "i9", src: imageSrc, alt: "A test pattern", x: 880, y: 225, width: 640, height: 540 }],
  });
  topics.push({
    ...topicAt(slides.length + 1, [
      title("t10", "A scanned page"),
      {
        id: "t10b",
        styleClasses: ["body"],
        paragraphs: [p("This text layer is hidden but read aloud and found by search.")],
      },
    ]),
    layout: "page",
    images: [{ id: "i10", src: imageSrc, alt: "", x: 0, y: 0, width: 1600, height: 900 }],
  });
  topics.push(
    topicAt(slides.length + 2, [
      title("t11", "A slide with too much to say"),
      {
        id: "t11b",
        styleClasses: ["body"],
        paragraphs: Array.from({ length: 14 }, (_, n) =>
          p(
            `Point ${n + 1}: a sentence long enough to wrap onto a second line on a slide of this width, again and again.`,
            {
              listType: "BULLET",
            },
          ),
        ),
      },
    ]),
  );
  (topics[0] as Json).notes = "Welcome everyone.\n\nThis deck shows every construct.";
  (topics[6] as Json).notes = "Point at the keyword colours.";
  return {
    format: "podium.presentation",
    version: 2,
    schemaVersion: "2",
    theme,
    topics,
    path: topics.map((topic) => topic.id as string),
  };
}

function topicAt(index: number, texts: Json[]): Json {
  return slideTopic(`slide-${index + 1}`, (index % 4) * 1800, Math.floor(index / 4) * 1100, texts);
}

/**
 * A classic deck (schema version 0): an overview topic of `size` around `slides` (topics with ids),
 * visited first, then each slide in order.
 */
export function classicOverviewDeck<T extends { id: string }>(slides: T[], size: { width: number; height: number }) {
  return {
    format: "podium.presentation",
    version: 2,
    schemaVersion: "0",
    topics: [
      { id: "overview", x: 0, y: 0, ...size, rotation: 0, background: null, texts: [], images: [], topics: slides },
    ],
    path: ["overview", ...slides.map((slide) => slide.id)],
  };
}
