import { type MarkdownLine, readMarkdownLine } from "./markdown";
import { type PresentationDocument, type Text, type Topic, walkTopics } from "./schema";

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

const HEADING_PREFIX = { title: "# ", subtitle: "## ", subtitle_2: "### " } as const;

function slideToMarkdown(topic: Topic): string {
  const lines: string[] = [];
  let previousWasBody = false;
  for (const text of topic.texts) {
    const style = text.styleClasses[0] ?? "body";
    if (style === "title" || style === "subtitle" || style === "subtitle_2") {
      for (const paragraph of text.paragraphs) {
        lines.push(encodeLine(paragraph.text, { kind: "heading", style, text: paragraph.text }));
      }
      previousWasBody = false;
      continue;
    }
    // Two body texts in a row are told apart by a blank line.
    if (previousWasBody) lines.push("");
    lines.push(...bodyLines(text));
    previousWasBody = text.paragraphs.length > 0;
  }
  for (const image of topic.images) {
    lines.push(`![${image.alt.replace(/[\]\r\n]/g, " ")}](${image.src})`);
  }
  return lines.join("\n");
}

function bodyLines(text: Text): string[] {
  return text.paragraphs.map((paragraph) =>
    encodeLine(paragraph.text, { kind: "paragraph", listType: paragraph.listType, text: paragraph.text }),
  );
}

/**
 * The line that reads back as `expected`: the text as it is where it reads back unchanged,
 * else with every punctuation mark escaped. Leading or trailing spaces, and empty texts, are
 * kept by an empty code span (``` `` ```), which reads as nothing.
 */
function encodeLine(rawText: string, expected: MarkdownLine): string {
  const text = rawText.replace(/[\r\n]+/g, " ");
  const prefix =
    expected.kind === "heading"
      ? HEADING_PREFIX[expected.style as keyof typeof HEADING_PREFIX]
      : expected.kind === "paragraph" && expected.listType === "BULLET"
        ? "- "
        : "";
  const candidates = [keepEdges(text), keepEdges(escapeAll(text))].map((candidate) => prefix + candidate);
  const wanted = { ...expected, text };
  return candidates.find((line) => sameLine(readMarkdownLine(line), wanted)) ?? (candidates[1] as string);
}

function keepEdges(text: string): string {
  if (text === "") return "``";
  const start = /^\s/.test(text) ? "``" : "";
  const end = /\s$/.test(text) ? "``" : "";
  return `${start}${text}${end}`;
}

function escapeAll(text: string): string {
  return text.replace(/[!-/:-@[-`{-~]/g, "\\$&");
}

function sameLine(actual: MarkdownLine, expected: MarkdownLine): boolean {
  return JSON.stringify(actual) === JSON.stringify(expected);
}
