import type { Options, StateBlock, Token } from "markdown-it";
import MarkdownIt from "markdown-it";
import {
  DOCUMENT_LIMITS,
  DOCUMENT_VERSION,
  type Image,
  imageSchema,
  type Paragraph,
  type PresentationDocument,
  parseDocument,
  type StyleClass,
  type Text,
  type Topic,
} from "./schema";

/**
 * Markdown import (product brief, "Getting presentations in"): a Markdown file is a deck.
 * `---` alone on a line separates slides; inside a slide the Markdown is CommonMark (with GFM
 * tables and strikethrough), read by markdown-it, whose parser takes time linear in the source.
 * `#` is a title, `##` a subtitle, `###`–`######` a second subtitle; list items are bullets;
 * `![alt](/assets/…)` alone on a line is an image; every other line of text is a body
 * paragraph. Marks (`**bold**`, `_em_`, `` `code` ``, `[label](url)`) read as their plain words
 * for now. Markdown is text, never markup: HTML in it stays literal characters.
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

/** What one slide of Markdown says, before it is laid out on the canvas. */
export interface SlideContent {
  texts: { style: StyleClass; paragraphs: { text: string; listType: Paragraph["listType"] }[] }[];
  images: { alt: string; src: string }[];
}

export function importMarkdown(source: string, schemaVersion: "0" | "2"): PresentationDocument {
  if (source.length > MARKDOWN_MAX_LENGTH) {
    throw new MarkdownImportError(
      `This Markdown file is too large (${source.length.toLocaleString("en")} characters; the limit is ${MARKDOWN_MAX_LENGTH.toLocaleString("en")}).`,
      { code: "tooLarge", values: { length: source.length, limit: MARKDOWN_MAX_LENGTH } },
    );
  }
  // Ids count the slides as written, empty ones included (as they always have).
  const slides = readSlides(source)
    .map((content, index) => ({ content, index }))
    .filter(({ content }) => content.texts.length > 0 || content.images.length > 0);
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

/**
 * Every slide of a Markdown source, in order, empty ones included: what the importer reads
 * (the Markdown export checks its output with it).
 */
export function readSlides(source: string): SlideContent[] {
  const reading: Reading = { rereadLeft: REREAD_BUDGET };
  return splitSlides(source).map((slide) =>
    slide.trim() === "" ? { texts: [], images: [] } : readSlide(slide, reading),
  );
}

/** A line that is only dashes (three or more, spaces around allowed) separates slides. */
const SLIDE_SEPARATOR = /^\s*-{3,}\s*$/;

function splitSlides(source: string): string[] {
  const slides: string[] = [];
  let lines: string[] = [];
  for (const line of source.replace(/\r\n?/g, "\n").split("\n")) {
    if (SLIDE_SEPARATOR.test(line)) {
      slides.push(lines.join("\n"));
      lines = [];
    } else {
      lines.push(line);
    }
  }
  slides.push(lines.join("\n"));
  return slides;
}

// ---------------------------------------------------------------------------------------------
// The parser

/**
 * How deep blocks (lists, block quotes) and inline marks may nest before markdown-it stops
 * reading them as Markdown. Inline, deeper marks stay literal characters. Blocks deeper than
 * this markdown-it would drop: Podium keeps them as a deferred token and reads them again as
 * Markdown of their own (lists are flattened anyway), within REREAD_BUDGET.
 */
const MAX_NESTING = 20;

/**
 * How much deeply nested Markdown one import reads again, in characters plus MAX_NESTING per
 * line (markdown-it may visit each line once per level). Each reading goes MAX_NESTING levels
 * deeper, so a hostile file could ask for many; past this budget, what lies deeper becomes
 * body paragraphs of its literal lines. It keeps the work linear in the source.
 */
const REREAD_BUDGET = MARKDOWN_MAX_LENGTH;

/** The token that stands for blocks nested deeper than MAX_NESTING (its content is their source). */
const DEEPER = "podium_deeper";

/** markdown-it takes maxNesting (its presets set it) though its type definitions leave it out. */
const OPTIONS: Options & { maxNesting: number } = {
  html: false,
  linkify: false,
  typographer: false,
  maxNesting: MAX_NESTING,
};

const markdown = new MarkdownIt("commonmark", OPTIONS)
  .enable(["strikethrough", "table"])
  // Escapes and entities stay tokens of their own, so line edges they write are never trimmed.
  .disable("text_join");

const tokenizeBlocks = markdown.block.tokenize.bind(markdown.block);
markdown.block.tokenize = (state: StateBlock, startLine: number, endLine: number): void => {
  if (state.level < MAX_NESTING) {
    tokenizeBlocks(state, startLine, endLine);
    return;
  }
  // markdown-it's own tokenize would skip these lines; the same checks, keeping them instead.
  const line = state.skipEmptyLines(startLine);
  state.line = line;
  if (line >= endLine || (state.sCount[line] ?? 0) < state.blkIndent) return;
  const token = state.push(DEEPER, "", 0);
  token.content = state.getLines(line, endLine, state.blkIndent, false);
  token.map = [line, endLine];
  state.line = endLine;
};

interface Reading {
  /** How much deeper Markdown may still be read again (REREAD_BUDGET). */
  rereadLeft: number;
}

/** A token list being walked; lineOffset turns its line numbers into the slide's. */
interface Frame {
  tokens: Token[];
  next: number;
  lineOffset: number;
}

const HEADING_STYLE: Record<string, StyleClass> = { h1: "title", h2: "subtitle" };

/** Walks one slide's token stream (iteratively: deferred deeper blocks stack up frames). */
function readSlide(source: string, reading: Reading): SlideContent {
  const slide = new SlideBuilder();
  const env = {};
  const frames: Frame[] = [{ tokens: markdown.parse(source, env), next: 0, lineOffset: 0 }];
  let heading: StyleClass | null = null;
  let row: string[] | null = null;
  while (frames.length > 0) {
    const frame = frames[frames.length - 1] as Frame;
    const token = frame.tokens[frame.next];
    if (!token) {
      frames.pop();
      continue;
    }
    frame.next += 1;
    const start = (token.map?.[0] ?? 0) + frame.lineOffset;
    const end = (token.map?.[1] ?? 0) + frame.lineOffset;
    switch (token.type) {
      case "heading_open":
        heading = HEADING_STYLE[token.tag] ?? "subtitle_2";
        break;
      case "heading_close":
        heading = null;
        break;
      case "inline": {
        const lines = inlineLines(token.children ?? []);
        if (heading) slide.heading(heading, lines.map(lineText).join(" "));
        else if (row) row.push(lines.map(lineText).join(" "));
        else {
          slide.block(start, end);
          for (const line of lines) slide.inlineLine(line);
        }
        break;
      }
      case "list_item_open":
        slide.itemOpen(start);
        break;
      case "list_item_close":
        slide.itemClose();
        break;
      case "table_open":
        slide.block(start, end);
        break;
      case "tr_open":
        row = [];
        break;
      case "tr_close":
        if (row) slide.bodyLine(row.join(" | "));
        row = null;
        break;
      case "hr":
        slide.endBody();
        break;
      case "fence":
      case "code_block":
      case "html_block":
        slide.block(start, end);
        slide.literalLines(token.content);
        break;
      case DEEPER: {
        const cost = token.content.length + MAX_NESTING * (end - start);
        if (cost <= reading.rereadLeft) {
          reading.rereadLeft -= cost;
          frames.push({ tokens: markdown.parse(token.content, env), next: 0, lineOffset: start });
        } else {
          slide.block(start, end);
          slide.literalLines(token.content);
        }
        break;
      }
      default:
        // Containers (lists, block quotes, tables' sections) and paragraph boundaries: their
        // content comes as tokens of its own.
        break;
    }
  }
  slide.endBody();
  return slide.content;
}

/**
 * Builds a slide from what the walk meets. Body paragraphs gather into one body text until a
 * blank line, a heading, an image or a thematic break ends it; the first line of a list item
 * is a bullet, other lines (continuations included) plain paragraphs, as one line read before.
 */
class SlideBuilder {
  readonly content: SlideContent = { texts: [], images: [] };
  private body: SlideContent["texts"][number]["paragraphs"] | null = null;
  /** The line after the current body's last block: a block starting later follows a blank line. */
  private bodyEnd = 0;
  /** A list item has opened and its first line is still to come, at this line. */
  private itemLine: number | null = null;

  block(start: number, end: number): void {
    if (start > this.bodyEnd) this.endBody();
    this.bodyEnd = end;
  }

  endBody(): void {
    if (this.body && this.body.length > 0) this.addText("body", this.body);
    this.body = null;
  }

  heading(style: StyleClass, text: string): void {
    this.endBody();
    this.itemLine = null;
    this.addText(style, [{ text: clip(text), listType: "NONE" }]);
  }

  /** One line of a paragraph: an image line (images alone, Podium's own) or a body paragraph. */
  inlineLine(runs: InlineRun[]): void {
    const images = imagesOf(runs);
    if (!images) {
      this.bodyLine(lineText(runs));
      return;
    }
    this.endBody();
    this.itemLine = null;
    this.content.images.push(...images);
  }

  bodyLine(text: string): void {
    const listType = this.itemLine === null ? "NONE" : "BULLET";
    this.itemLine = null;
    this.body ??= [];
    if (this.body.length < DOCUMENT_LIMITS.maxParagraphsPerText) this.body.push({ text: clip(text), listType });
  }

  /** Lines shown as they are written (code, and what lies too deep): one paragraph each. */
  literalLines(source: string): void {
    const lines = source.endsWith("\n") ? source.slice(0, -1).split("\n") : source.split("\n");
    for (const line of lines) {
      if (line.trim() === "") this.endBody();
      else this.bodyLine(line.trim());
    }
  }

  itemOpen(line: number): void {
    this.itemLine = line;
  }

  /** An item that held no line still shows as an empty bullet. */
  itemClose(): void {
    if (this.itemLine === null) return;
    this.block(this.itemLine, this.itemLine + 1);
    this.bodyLine("");
  }

  private addText(style: StyleClass, paragraphs: SlideContent["texts"][number]["paragraphs"]): void {
    if (this.content.texts.length < DOCUMENT_LIMITS.maxTextsPerTopic) this.content.texts.push({ style, paragraphs });
  }
}

function clip(text: string): string {
  return text.slice(0, DOCUMENT_LIMITS.maxParagraphLength);
}

// ---------------------------------------------------------------------------------------------
// Inline content

/**
 * The marks a run of text carries. The document model keeps plain words for now; the walk
 * already knows the marks, so rich text can take them from here.
 */
type InlineMark = "strong" | "em" | "strike" | "link" | "code";

const MARK_OF: Partial<Record<string, InlineMark>> = {
  strong_open: "strong",
  em_open: "em",
  s_open: "strike",
  link_open: "link",
};

type InlineRun =
  /** `literal`: written by an escape, an entity or a code span, so never trimmed at a line's edge. */
  | { kind: "text"; text: string; marks: readonly InlineMark[]; literal: boolean }
  | { kind: "image"; src: string; alt: string };

/** Inline tokens split into lines at soft and hard breaks (each source line is a paragraph). */
function inlineLines(children: readonly Token[]): InlineRun[][] {
  const lines: InlineRun[][] = [];
  let line: InlineRun[] = [];
  const open: (InlineMark | undefined)[] = [];
  const marks = () => open.filter((mark): mark is InlineMark => mark !== undefined);
  for (const token of children) {
    if (token.type === "softbreak" || token.type === "hardbreak") {
      lines.push(line);
      line = [];
    } else if (token.nesting === 1) {
      open.push(MARK_OF[token.type]);
    } else if (token.nesting === -1) {
      open.pop();
    } else if (token.type === "image") {
      const alt = inlineLines(token.children ?? [])
        .map(lineText)
        .join(" ");
      line.push({ kind: "image", src: token.attrGet("src") ?? "", alt });
    } else if (token.type === "code_inline") {
      line.push({ kind: "text", text: token.content, marks: [...marks(), "code"], literal: true });
    } else if (token.content !== "") {
      // text, and text_special (escapes, entities)
      line.push({ kind: "text", text: token.content, marks: marks(), literal: token.type !== "text" });
    }
  }
  lines.push(line);
  return lines;
}

/** A line's plain text: its words, images by their alt text; source spaces at the edges trimmed. */
function lineText(runs: readonly InlineRun[]): string {
  const parts = runs.map((run) => (run.kind === "text" ? run.text : run.alt));
  for (let i = 0; i < runs.length; i += 1) {
    const run = runs[i];
    if (run?.kind !== "text" || run.literal) break;
    parts[i] = (parts[i] ?? "").trimStart();
    if (parts[i] !== "") break;
  }
  for (let i = runs.length - 1; i >= 0; i -= 1) {
    const run = runs[i];
    if (run?.kind !== "text" || run.literal) break;
    parts[i] = (parts[i] ?? "").trimEnd();
    if (parts[i] !== "") break;
  }
  return parts.join("");
}

/** The images of a line made only of Podium images (and spaces), else null. */
function imagesOf(runs: readonly InlineRun[]): SlideContent["images"] | null {
  const images: SlideContent["images"] = [];
  for (const run of runs) {
    if (run.kind === "image") {
      if (!imageSchema.shape.src.safeParse(run.src).success) return null;
      images.push({ alt: run.alt.slice(0, 1000), src: run.src });
    } else if (run.literal || run.marks.length > 0 || run.text.trim() !== "") {
      return null;
    }
  }
  return images.length > 0 ? images : null;
}

// ---------------------------------------------------------------------------------------------
// Layout

function imageAt(slideIndex: number, index: number, alt: string, src: string): Image {
  // Images sit in the lower right half of their slide, stacked if there are several.
  const { width, height } = SLIDE_LAYOUT;
  return {
    id: `s${slideIndex + 1}-i${index + 1}`,
    src,
    alt,
    x: width * 0.55,
    y: height * 0.25 + index * 40,
    width: width * 0.4,
    height: height * 0.6,
  };
}

function textsOf(content: SlideContent, slideIndex: number): Text[] {
  return content.texts.map((text, index) => ({
    id: `s${slideIndex + 1}-t${index + 1}`,
    styleClasses: [text.style],
    paragraphs: text.paragraphs.map(({ text: words, listType }) => ({
      text: words,
      listType,
      biggestFontSize: FONT_SIZE[text.style],
    })),
  }));
}

/** Puts slides on a grid inside an overview topic, so playing can zoom from whole to part. */
function layOut(slides: { content: SlideContent; index: number }[], schemaVersion: "0" | "2"): PresentationDocument {
  const { width, height, gap, overviewMargin } = SLIDE_LAYOUT;
  const columns = Math.ceil(Math.sqrt(slides.length));
  const rows = Math.ceil(slides.length / columns);
  const slideTopics: Topic[] = slides.map(({ content, index: sourceIndex }, index) => ({
    id: `slide-${index + 1}`,
    x: overviewMargin + (index % columns) * (width + gap),
    y: overviewMargin + Math.floor(index / columns) * (height + gap),
    width,
    height,
    rotation: 0,
    background: null,
    texts: textsOf(content, sourceIndex),
    images: content.images.map((image, n) => imageAt(sourceIndex, n, image.alt, image.src)),
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
    version: DOCUMENT_VERSION,
    schemaVersion,
    topics: [overview],
    // Classic decks open on the whole canvas and zoom in; pitch decks go slide to slide.
    path: schemaVersion === "0" ? ["overview", ...slidePath] : slidePath,
  };
}
