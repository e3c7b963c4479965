import { readSlides, type SlideContent } from "./markdown";
import { DOCUMENT_LIMITS, type PresentationDocument, type StyleClass, type Topic, walkTopics } from "./schema";

/**
 * The Markdown source of a document (the editor's starting point): one slide per topic on the
 * path that holds texts or images, in path order, in the importer's own dialect. For decks made
 * from Markdown, importing the result gives the same document again (up to generated ids);
 * other documents lose what Markdown can't say (positions, nesting, extra style classes).
 */
export function documentToMarkdown(document: PresentationDocument): string {
  return slidesOf(document).map(slideToMarkdown).join("\n---\n").concat("\n");
}

function hasContent(topic: Topic): boolean {
  return topic.texts.length > 0 || topic.images.length > 0;
}

/** Topics on the path first (in its order), then any other topic with content, depth first. */
function slidesOf(document: PresentationDocument): Topic[] {
  const byId = new Map<string, Topic>();
  for (const { topic } of walkTopics(document.topics)) byId.set(topic.id, topic);
  const slides: Topic[] = [];
  const seen = new Set<string>();
  const add = (topic: Topic | undefined) => {
    if (!topic || seen.has(topic.id) || !hasContent(topic)) return;
    seen.add(topic.id);
    slides.push(topic);
  };
  for (const step of document.path) add(byId.get(step));
  for (const topic of byId.values()) add(topic);
  return slides;
}

const HEADING_PREFIX: Partial<Record<StyleClass, string>> = { title: "# ", subtitle: "## ", subtitle_2: "### " };

/** What the slide's Markdown should read as: Markdown's share of the topic. */
function intendedContent(topic: Topic): SlideContent {
  const texts: SlideContent["texts"] = [];
  for (const text of topic.texts) {
    const style = text.styleClasses[0] ?? "body";
    if (HEADING_PREFIX[style]) {
      // A heading is one line: each paragraph of a heading text becomes a heading of its own.
      for (const paragraph of text.paragraphs) {
        texts.push({ style, paragraphs: [{ text: oneLine(paragraph.text), listType: "NONE" }] });
      }
    } else if (text.paragraphs.length > 0) {
      const paragraphs = text.paragraphs.map((p) => ({ text: oneLine(p.text), listType: p.listType }));
      texts.push({ style: "body", paragraphs });
    }
  }
  return {
    texts: texts.slice(0, DOCUMENT_LIMITS.maxTextsPerTopic),
    images: topic.images.map((image) => ({ alt: oneLine(image.alt), src: image.src })),
  };
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, " ");
}

/**
 * How much a slide's lines escape: each line takes the first form from here on that reads back
 * as itself (alone and between two lines of text). Lines can still pair marks across each
 * other (a backtick on one, another on the next), so the slide as a whole is read back, and
 * written again escaping more if it doesn't read as intended.
 */
const ESCAPING = ["asWritten", "marks", "allPunctuation"] as const;
type Escaping = (typeof ESCAPING)[number];

function slideToMarkdown(topic: Topic): string {
  const intended = intendedContent(topic);
  let markdown = "";
  for (const least of ESCAPING) {
    markdown = writeSlide(intended, least);
    if (sameReading(readSlides(markdown), [intended])) break;
  }
  return markdown;
}

function writeSlide(content: SlideContent, least: Escaping): string {
  const lines: string[] = [];
  let previousWasBody = false;
  for (const text of content.texts) {
    const prefix = HEADING_PREFIX[text.style];
    if (prefix) {
      for (const paragraph of text.paragraphs) lines.push(headingLine(prefix, text.style, paragraph.text, least));
      previousWasBody = false;
      continue;
    }
    // Two body texts in a row are told apart by a blank line.
    if (previousWasBody) lines.push("");
    for (const paragraph of text.paragraphs) lines.push(bodyLine(paragraph, least));
    previousWasBody = true;
  }
  for (const image of content.images) {
    const alt = keepEdges(least === "allPunctuation" ? escapeAll(image.alt) : escapeMarks(image.alt));
    lines.push(`![${alt}](${image.src})`);
  }
  return lines.join("\n");
}

function headingLine(prefix: string, style: StyleClass, text: string, least: Escaping): string {
  const wanted: SlideContent[] = [{ texts: [{ style, paragraphs: [{ text, listType: "NONE" }] }], images: [] }];
  return firstReading(prefix, text, least, (line) => sameReading(readSlides(line), wanted));
}

/**
 * A body line reads back as itself alone (first, then a blank line) and between two lines of
 * plain text: one reading checks both.
 */
function bodyLine(paragraph: SlideContent["texts"][number]["paragraphs"][number], least: Escaping): string {
  const around = { text: "x", listType: "NONE" } as const;
  const wanted: SlideContent[] = [
    {
      texts: [
        { style: "body", paragraphs: [paragraph] },
        { style: "body", paragraphs: [around, paragraph, around] },
      ],
      images: [],
    },
  ];
  const prefix = paragraph.listType === "BULLET" ? "- " : "";
  return firstReading(prefix, paragraph.text, least, (line) =>
    sameReading(readSlides(`${line}\n\nx\n${line}\nx`), wanted),
  );
}

function firstReading(prefix: string, text: string, least: Escaping, readsBack: (line: string) => boolean): string {
  // Text with nothing escapeMarks would escape means nothing to Markdown, whatever the lines
  // around it: no reading needed (most lines of most decks).
  const escaped = least === "allPunctuation" ? escapeAll : escapeMarks;
  if (text !== "" && !/^\s|\s$/.test(text) && escaped(text) === text) return prefix + text;
  const forms =
    text === ""
      ? // An empty link reads as nothing, and keeps a line that isn't blank.
        ["", "[]()"]
      : [keepEdges(text), keepEdges(escapeMarks(text)), keepEdges(escapeAll(text))];
  const candidates = forms.slice(Math.min(ESCAPING.indexOf(least), forms.length - 1));
  const lines = candidates.map((form) => (prefix + form).trimEnd());
  return lines.find(readsBack) ?? (lines[lines.length - 1] as string);
}

/**
 * Whitespace at either edge of a line would be trimmed: the edge characters are written as
 * numeric character references (`&#x20;`), which CommonMark reads as the character itself.
 */
function keepEdges(text: string): string {
  const chars = [...text];
  const reference = (char: string) => `&#x${(char.codePointAt(0) ?? 32).toString(16)};`;
  const first = chars[0];
  if (first !== undefined && /\s/.test(first)) chars[0] = reference(first);
  const last = chars.length - 1;
  if (last > 0 && /\s/.test(chars[last] as string)) chars[last] = reference(chars[last] as string);
  return chars.join("");
}

/**
 * Escapes what can start Markdown syntax: inline marks, brackets, entities, raw HTML and table
 * pipes anywhere; `#` anywhere (headings and their closing sequence); and at the start of the
 * line, what opens a block (list markers, block quotes, setext underlines, ordered lists).
 */
function escapeMarks(text: string): string {
  const inline = text.replace(/[\\`*_[\]<&~|#]/g, "\\$&");
  const ordered = /^(\d+)([.)])/.exec(inline);
  if (ordered) return `${ordered[1]}\\${inline.slice((ordered[1] ?? "").length)}`;
  return /^[-+=>]/.test(inline) ? `\\${inline}` : inline;
}

/** Every ASCII punctuation mark backslash-escaped (CommonMark reads each as itself). */
function escapeAll(text: string): string {
  return text.replace(/[!-/:-@[-`{-~]/g, "\\$&");
}

function sameReading(actual: SlideContent[], expected: SlideContent[]): boolean {
  return JSON.stringify(actual) === JSON.stringify(expected);
}
