import {
  DOCUMENT_LIMITS,
  type Image,
  type Paragraph,
  type PresentationDocument,
  parseDocument,
  type StyleClass,
  type Text,
  type Topic,
} from "./schema";

/**
 * Markdown import (product brief, "Getting presentations in"): a Markdown file is a deck.
 * `---` alone on a line separates slides; `#` title, `##` subtitle, `###` second subtitle,
 * `-`/`*` bullets, `![alt](/assets/…)` images, any other line a body paragraph.
 * Markdown is text, never markup: HTML in it stays literal characters. A backslash before
 * ASCII punctuation (`\*`, `\#`, `\\`) keeps that character literal, as in CommonMark.
 */

/** Largest Markdown source accepted, in UTF-16 code units (about 1 MB of text). */
export const MARKDOWN_MAX_LENGTH = 1_000_000;

/** Canvas layout of imported slides, in canvas units (16:9 slides on a grid). */
export const SLIDE_LAYOUT = { width: 1600, height: 900, gap: 200, overviewMargin: 300 } as const;

/** Font sizes per style class, in canvas units, recorded as biggestFontSize. */
const FONT_SIZE: Record<StyleClass, number> = { title: 96, subtitle: 56, subtitle_2: 44, body: 36, body_2: 30 };

/** Why a Markdown source was refused: a code for the person's language, and the values it needs. */
export type MarkdownProblem =
  | { code: "tooLarge"; values: { length: number; limit: number } }
  | { code: "noSlides"; values: Record<string, never> }
  | { code: "tooManySlides"; values: { count: number; limit: number } };

export class MarkdownImportError extends Error {
  override readonly name = "MarkdownImportError";
  constructor(
    message: string,
    readonly problem: MarkdownProblem,
  ) {
    super(message);
  }
}

interface SlideDraft {
  texts: Text[];
  images: Image[];
}

export function importMarkdown(source: string, schemaVersion: "0" | "2"): PresentationDocument {
  if (source.length > MARKDOWN_MAX_LENGTH) {
    throw new MarkdownImportError(
      `This Markdown file is too large (${source.length.toLocaleString("en")} characters; the limit is ${MARKDOWN_MAX_LENGTH.toLocaleString("en")}).`,
      { code: "tooLarge", values: { length: source.length, limit: MARKDOWN_MAX_LENGTH } },
    );
  }
  const slides = splitSlides(source)
    .map(parseSlide)
    .filter((s) => s.texts.length > 0 || s.images.length > 0);
  if (slides.length === 0) {
    throw new MarkdownImportError("This Markdown file has no slides: it holds no text.", {
      code: "noSlides",
      values: {},
    });
  }
  if (slides.length + 1 > DOCUMENT_LIMITS.maxTopics) {
    throw new MarkdownImportError(
      `This deck has ${slides.length} slides; Podium takes at most ${DOCUMENT_LIMITS.maxTopics - 1}.`,
      { code: "tooManySlides", values: { count: slides.length, limit: DOCUMENT_LIMITS.maxTopics - 1 } },
    );
  }
  return parseDocument(layOut(slides, schemaVersion));
}

/** A line alone made of dashes separates slides. */
export const SLIDE_SEPARATOR = /^\s*---+\s*$/m;

function splitSlides(source: string): string[] {
  return source.replace(/\r\n?/g, "\n").split(SLIDE_SEPARATOR);
}

/** What one line of a slide is (the importer's reading, shared with the Markdown export). */
export type MarkdownLine =
  | { kind: "blank" }
  | { kind: "separator" }
  | { kind: "heading"; style: StyleClass; text: string }
  | { kind: "image"; alt: string; src: string }
  | { kind: "paragraph"; listType: Paragraph["listType"]; text: string };

export function readMarkdownLine(rawLine: string): MarkdownLine {
  const line = rawLine.trim();
  if (line === "") return { kind: "blank" };
  if (new RegExp(SLIDE_SEPARATOR.source).test(line)) return { kind: "separator" };
  const heading = /^(#{1,6})\s+(.*)$/.exec(line);
  if (heading) {
    const level = heading[1]?.length ?? 1;
    const style: StyleClass = level === 1 ? "title" : level === 2 ? "subtitle" : "subtitle_2";
    return { kind: "heading", style, text: stripInlineMarks(heading[2] ?? "") };
  }
  const image = /^!\[([^\]]*)\]\((\/assets\/[A-Za-z0-9._/-]+)\)$/.exec(line);
  if (image) return { kind: "image", alt: image[1] ?? "", src: image[2] ?? "" };
  const bullet = /^(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
  if (bullet) return { kind: "paragraph", listType: "BULLET", text: stripInlineMarks(bullet[1] ?? "") };
  return { kind: "paragraph", listType: "NONE", text: stripInlineMarks(line) };
}

function parseSlide(block: string, slideIndex: number): SlideDraft {
  const texts: Text[] = [];
  const images: Image[] = [];
  let body: Paragraph[] | null = null;
  const endBody = () => {
    if (body && body.length > 0) addText("body", body);
    body = null;
  };
  const addText = (style: StyleClass, paragraphs: Paragraph[]) => {
    if (texts.length >= DOCUMENT_LIMITS.maxTextsPerTopic) return;
    texts.push({ id: `s${slideIndex + 1}-t${texts.length + 1}`, styleClasses: [style], paragraphs });
  };
  for (const rawLine of block.split("\n")) {
    const line = readMarkdownLine(rawLine);
    if (line.kind === "blank" || line.kind === "separator") {
      endBody();
      continue;
    }
    if (line.kind === "heading") {
      endBody();
      addText(line.style, [paragraph(line.text, "NONE", line.style)]);
      continue;
    }
    if (line.kind === "image") {
      endBody();
      images.push(imageAt(slideIndex, images.length, line.alt, line.src));
      continue;
    }
    body ??= [];
    const paragraphs: Paragraph[] = body;
    if (paragraphs.length < DOCUMENT_LIMITS.maxParagraphsPerText) {
      paragraphs.push(paragraph(line.text, line.listType, "body"));
    }
  }
  endBody();
  return { texts, images };
}

function paragraph(text: string, listType: Paragraph["listType"], style: StyleClass): Paragraph {
  return {
    text: text.slice(0, DOCUMENT_LIMITS.maxParagraphLength),
    listType,
    biggestFontSize: FONT_SIZE[style],
  };
}

/** ASCII punctuation: a backslash before one of these keeps it literal (CommonMark's escapes). */
const ESCAPABLE = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

/**
 * `**bold**`, `_em_`, `` `code` `` and `[label](url)` read as their plain words; `\*` is a
 * literal `*`. Escaped characters stand in for themselves as private-use characters that the
 * text doesn't hold, so no mark sees them.
 */
export function stripInlineMarks(text: string): string {
  if (!/\\[!-/:-@[-`{-~]/.test(text)) return stripMarks(text);
  const escapes = /\\([!-/:-@[-`{-~])/g;
  const used = new Set(text);
  const stand = new Map<string, string>();
  let next = 0xe000;
  for (const mark of ESCAPABLE) {
    while (used.has(String.fromCharCode(next))) next += 1;
    stand.set(mark, String.fromCharCode(next));
    next += 1;
  }
  const back = new Map([...stand].map(([mark, standIn]) => [standIn, mark]));
  const protectedText = text.replace(escapes, (_match, mark: string) => stand.get(mark) ?? mark);
  return [...stripMarks(protectedText)].map((char) => back.get(char) ?? char).join("");
}

function stripMarks(text: string): string {
  return text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/(\*\*|__)(.+?)\1/g, "$2")
    .replace(/(?<![\w*])([*_])(\S(?:.*?\S)?)\1(?![\w*])/g, "$2")
    .replace(/`([^`]*)`/g, "$1");
}

function imageAt(slideIndex: number, index: number, alt: string, src: string): Image {
  // Images sit in the lower right half of their slide, stacked if there are several.
  const { width, height } = SLIDE_LAYOUT;
  return {
    id: `s${slideIndex + 1}-i${index + 1}`,
    src,
    alt: alt.slice(0, 1000),
    x: width * 0.55,
    y: height * 0.25 + index * 40,
    width: width * 0.4,
    height: height * 0.6,
  };
}

/** Puts slides on a grid inside an overview topic, so playing can zoom from whole to part. */
function layOut(slides: SlideDraft[], schemaVersion: "0" | "2"): PresentationDocument {
  const { width, height, gap, overviewMargin } = SLIDE_LAYOUT;
  const columns = Math.ceil(Math.sqrt(slides.length));
  const rows = Math.ceil(slides.length / columns);
  const slideTopics: Topic[] = slides.map((slide, index) => ({
    id: `slide-${index + 1}`,
    x: overviewMargin + (index % columns) * (width + gap),
    y: overviewMargin + Math.floor(index / columns) * (height + gap),
    width,
    height,
    rotation: 0,
    background: null,
    texts: slide.texts,
    images: slide.images,
    topics: [],
  }));
  const overview: Topic = {
    id: "overview",
    x: 0,
    y: 0,
    width: overviewMargin * 2 + columns * width + (columns - 1) * gap,
    height: overviewMargin * 2 + rows * height + (rows - 1) * gap,
    rotation: 0,
    background: null,
    texts: [],
    images: [],
    topics: slideTopics,
  };
  const slidePath = slideTopics.map((topic) => topic.id);
  return {
    format: "podium.presentation",
    version: 1,
    schemaVersion,
    topics: [overview],
    // Classic decks open on the whole canvas and zoom in; pitch decks go slide to slide.
    path: schemaVersion === "0" ? ["overview", ...slidePath] : slidePath,
  };
}
