import type { Options, StateBlock, Token } from "markdown-it";
import MarkdownIt from "markdown-it";
import type { CodeHighlighter } from "./highlight";
import {
  DOCUMENT_LIMITS,
  DOCUMENT_VERSION,
  type Image,
  imageSchema,
  isSafeLink,
  type Mark,
  NOTES_MAX_LENGTH,
  type Paragraph,
  type PresentationDocument,
  parseDocument,
  type Run,
  type StyleClass,
  type Text,
  type TextKind,
  type Topic,
} from "./schema";

/**
 * Markdown import (product brief, "Getting presentations in"): a Markdown file is a deck.
 * `---` alone on a line separates slides; inside a slide the Markdown is CommonMark (with GFM
 * tables, strikethrough and task items), read by markdown-it, whose parser takes time linear in
 * the source. Document version 2 keeps what the Markdown says:
 * - `#` is a title, `##` a subtitle, `###`–`######` a second subtitle;
 * - every line of a paragraph is a paragraph of its own (slides are written line by line);
 * - bold, italic, strikethrough, inline code and links (http(s) and mailto only) are marks;
 * - bullet and numbered lists (with their numbers) keep their nesting as `level`; `- [ ]` and
 *   `- [x]` items are tasks;
 * - block quotes, tables and fenced code (with its language, highlighted when a highlighter is
 *   given) are texts of their own kind;
 * - `![alt](/assets/…)` alone on a line is an image;
 * - speaker notes follow a `Note:` line (reveal.js) or sit in an HTML comment at the end of the
 *   slide (Slidev).
 * What Podium can't show (raw HTML, images from elsewhere, other links) stays as text and is
 * reported as a warning, never lost in silence. Markdown is text, never markup.
 */

/** Largest Markdown source accepted, in UTF-16 code units (about 1 MB of text). */
export const MARKDOWN_MAX_LENGTH = 1_000_000;

/** Canvas layout of imported slides, in canvas units (16:9 slides on a grid). */
export const SLIDE_LAYOUT = { width: 1600, height: 900, gap: 200, overviewMargin: 300 } as const;

/**
 * A slide of SLIDE_LAYOUT's size at (x, y), unrotated, with its texts and nothing else: what decks
 * built in code (seed, fixtures, tests) are made of.
 */
export function slideTopic<T>(id: string, x: number, y: number, texts: T[]) {
  const { width, height } = SLIDE_LAYOUT;
  return { id, x, y, width, height, rotation: 0, background: null, texts, images: [], topics: [] };
}

/** Font sizes per style class, in canvas units, recorded as biggestFontSize. */
const FONT_SIZE: Record<StyleClass, number> = { title: 96, subtitle: 56, subtitle_2: 44, body: 36, body_2: 30 };
/** Code and tables are set smaller than body text, so a slide of code still fits. */
const CODE_FONT_SIZE = 28;

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

/**
 * What an import kept but couldn't show as written: the person is told after the import.
 * - html: raw HTML, shown as its text;
 * - remoteImage: an image from another site (Podium shows only its own), shown as a link;
 * - localImage: an image file beside the Markdown (`tide-chart.png`), not in Podium yet: shown as
 *   its description, and offered for upload where the warning is shown (MarkdownDeck.localImages);
 * - inlineImage: an image inside a line of text, shown as its description;
 * - link: a link that goes neither to the web nor to an email address, shown as its words;
 * - cut: more than a slide can hold (paragraphs, texts or characters), cut at the limit.
 */
export type MarkdownWarningCode = "html" | "remoteImage" | "localImage" | "inlineImage" | "link" | "cut";
export interface MarkdownWarning {
  code: MarkdownWarningCode;
  /** The slide, counted from 1 as written. */
  slide: number;
}

/** Warnings reported per import, at most (the first ones say enough). */
export const MAX_WARNINGS = 20;

/** An image file the Markdown names by a relative path (issue 28 item 7): `src` as the importer read it. */
export interface LocalImage {
  src: string;
  /** The first slide that shows it, counted from 1. */
  slide: number;
}

/** Local image files offered for upload per deck, at most. */
export const MAX_LOCAL_IMAGES = 20;

/** One paragraph of a slide as the Markdown says it (a document paragraph without its font size). */
export interface SlideParagraph {
  text: string;
  listType: Paragraph["listType"];
  runs?: Run[];
  level?: number;
  number?: number;
  checked?: boolean;
  cells?: Run[][];
}

export interface SlideText {
  style: StyleClass;
  paragraphs: SlideParagraph[];
  kind?: TextKind;
  language?: string;
  align?: Text["align"];
}

/** What one slide of Markdown says, before it is laid out on the canvas. */
export interface SlideContent {
  texts: SlideText[];
  images: { alt: string; src: string }[];
  notes?: string;
}

export interface MarkdownOptions {
  /** Highlights fenced code (server side: ./highlight.ts); without it, code is plain text. */
  highlight?: CodeHighlighter;
}

export interface MarkdownDeck {
  document: PresentationDocument;
  warnings: MarkdownWarning[];
  /** Image files named by a relative path, each once, in the order written. */
  localImages: LocalImage[];
}

export function importMarkdown(
  source: string,
  schemaVersion: "0" | "2",
  options: MarkdownOptions = {},
): PresentationDocument {
  return readMarkdownDeck(source, schemaVersion, options).document;
}

/** The document a Markdown source makes, and what it couldn't show as written. */
export function readMarkdownDeck(
  source: string,
  schemaVersion: "0" | "2",
  options: MarkdownOptions = {},
): MarkdownDeck {
  if (source.length > MARKDOWN_MAX_LENGTH) {
    throw new MarkdownImportError(
      `This Markdown file is too large (${source.length.toLocaleString("en")} characters; the limit is ${MARKDOWN_MAX_LENGTH.toLocaleString("en")}).`,
      { code: "tooLarge", values: { length: source.length, limit: MARKDOWN_MAX_LENGTH } },
    );
  }
  const reading = newReading(options);
  // Ids count the slides as written, empty ones included (as they always have).
  const slides = readAll(source, reading)
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
  return {
    document: parseDocument(layOut(slides, schemaVersion)),
    warnings: reading.warnings,
    localImages: reading.localImages,
  };
}

/**
 * Every slide of a Markdown source, in order, empty ones included: what the importer reads
 * (the Markdown export checks its output with it).
 */
export function readSlides(source: string, options: MarkdownOptions = {}): SlideContent[] {
  return readAll(source, newReading(options));
}

function readAll(source: string, reading: Reading): SlideContent[] {
  return splitSlides(source).map((slide, index) => {
    reading.slide = index + 1;
    return slide.trim() === "" ? { texts: [], images: [] } : readSlide(slide, reading);
  });
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
 * Markdown of their own, within REREAD_BUDGET.
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

/**
 * markdown-it takes maxNesting (its presets set it) though its type definitions leave it out.
 * HTML is recognised only to be kept as text and reported (and to find Slidev's notes).
 */
const OPTIONS: Options & { maxNesting: number } = {
  html: true,
  linkify: false,
  typographer: false,
  maxNesting: MAX_NESTING,
};

const markdown = new MarkdownIt("commonmark", OPTIONS)
  .enable(["strikethrough", "table"])
  // Escapes and entities stay tokens of their own, so line edges they write are never trimmed.
  .disable("text_join");

// Links are judged by Podium (http(s) and mailto become links, the rest stays words).
markdown.validateLink = () => true;

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
  warnings: MarkdownWarning[];
  localImages: LocalImage[];
  /** The slide being read, from 1. */
  slide: number;
  highlight: CodeHighlighter | undefined;
}

function newReading(options: MarkdownOptions): Reading {
  return { rereadLeft: REREAD_BUDGET, warnings: [], localImages: [], slide: 0, highlight: options.highlight };
}

/** Each kind of warning is reported once per slide. */
function warn(reading: Reading, code: MarkdownWarningCode): void {
  const { warnings, slide } = reading;
  if (warnings.length >= MAX_WARNINGS || warnings.some((w) => w.code === code && w.slide === slide)) return;
  warnings.push({ code, slide });
}

/** A token list being walked; lineOffset turns its line numbers into the slide's. */
interface Frame {
  tokens: Token[];
  next: number;
  lineOffset: number;
}

const HEADING_STYLE: Record<string, StyleClass> = { h1: "title", h2: "subtitle" };

/** reveal.js: a paragraph that starts `Note:` (or `Notes:`) starts the slide's notes. */
const NOTE_START = /^notes?:/i;

/** The speaker notes of a slide and the tokens of what remains. */
function splitNotes(source: string, reading: Reading): { tokens: Token[]; notes: string | undefined } {
  const env = {};
  const tokens = markdown.parse(source, env);
  const noteAt = tokens.findIndex(
    (token, index) =>
      token.type === "paragraph_open" && token.level === 0 && NOTE_START.test(tokens[index + 1]?.content ?? ""),
  );
  let notes: string | undefined;
  let rest = tokens;
  const firstLine = tokens[noteAt]?.map?.[0];
  if (firstLine !== undefined) {
    const lines = source.split("\n");
    notes = lines.slice(firstLine).join("\n").trim().replace(NOTE_START, "");
    rest = markdown.parse(lines.slice(0, firstLine).join("\n"), env);
  } else {
    // Slidev: an HTML comment that ends the slide.
    const last = tokens[tokens.length - 1];
    const comment = last?.type === "html_block" ? last.content.trim() : "";
    if (comment.startsWith("<!--") && comment.endsWith("-->") && comment.length >= 7) {
      notes = comment.slice(4, -3);
      rest = tokens.slice(0, -1);
    }
  }
  if (notes === undefined) return { tokens, notes };
  notes = notes.trim();
  if (notes.length > NOTES_MAX_LENGTH) {
    notes = notes.slice(0, NOTES_MAX_LENGTH);
    warn(reading, "cut");
  }
  return { tokens: rest, notes: notes === "" ? undefined : notes };
}

/** What a table cell's style attribute says of its alignment (markdown-it writes `text-align:…`). */
function alignOf(token: Token): NonNullable<Text["align"]>[number] {
  const style = token.attrGet("style") ?? "";
  if (style.includes("left")) return "left";
  if (style.includes("center")) return "center";
  if (style.includes("right")) return "right";
  return "none";
}

interface TableBeingRead {
  align: NonNullable<Text["align"]>;
  rows: SlideParagraph[];
  row: Run[][] | null;
}

/** Walks one slide's token stream (iteratively: deferred deeper blocks stack up frames). */
function readSlide(source: string, reading: Reading): SlideContent {
  const slide = new SlideBuilder(reading);
  const { tokens, notes } = splitNotes(source, reading);
  const env = {};
  const frames: Frame[] = [{ tokens, next: 0, lineOffset: 0 }];
  let heading: StyleClass | null = null;
  let table: TableBeingRead | null = null;
  const lists: { ordered: boolean; next: number }[] = [];
  let quoteDepth = 0;
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
        if (heading) slide.heading(heading, joinLines(lines));
        else if (table?.row) table.row.push(slide.runsOf(joinLines(lines)));
        else {
          slide.block(start, end);
          for (const line of lines) slide.inlineLine(line);
        }
        break;
      }
      case "bullet_list_open":
        lists.push({ ordered: false, next: 0 });
        break;
      case "ordered_list_open":
        lists.push({ ordered: true, next: Number(token.attrGet("start") ?? 1) });
        break;
      case "bullet_list_close":
      case "ordered_list_close":
        lists.pop();
        break;
      case "list_item_open": {
        const list = lists[lists.length - 1];
        const ordered = list?.ordered === true;
        slide.itemOpen(start, {
          listType: ordered ? "NUMBER" : "BULLET",
          level: Math.min(Math.max(lists.length - 1, 0), 8),
          number: ordered && list ? list.next++ : undefined,
        });
        break;
      }
      case "list_item_close":
        slide.itemClose();
        break;
      case "blockquote_open":
        quoteDepth += 1;
        slide.setKind("quote");
        break;
      case "blockquote_close":
        quoteDepth -= 1;
        if (quoteDepth === 0) slide.setKind(undefined);
        break;
      case "table_open":
        slide.block(start, end);
        slide.endBody();
        table = { align: [], rows: [], row: null };
        break;
      case "tr_open":
        if (table) table.row = [];
        break;
      case "th_open":
      case "td_open":
        if (table && table.rows.length === 0) table.align.push(alignOf(token));
        break;
      case "tr_close":
        if (table?.row) table.rows.push(slide.tableRow(table.row));
        if (table) table.row = null;
        break;
      case "table_close":
        if (table) slide.table(table.align, table.rows);
        table = null;
        break;
      case "hr":
        slide.endBody();
        break;
      case "fence":
      case "code_block":
        slide.code(token.content, token.type === "fence" ? (token.info.trim().split(/\s+/)[0] ?? "") : "");
        break;
      case "html_block":
        warn(reading, "html");
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
        // Paragraph boundaries and tables' sections: their content comes as tokens of its own.
        break;
    }
  }
  slide.endBody();
  if (notes !== undefined) slide.content.notes = notes;
  return slide.content;
}

/** Several lines as one (headings and table cells are one line): joined by a space. */
function joinLines(lines: InlineRun[][]): InlineRun[] {
  return lines.flatMap((line, index) => (index === 0 ? trimEdges(line) : [SPACE, ...trimEdges(line)]));
}

const SPACE: InlineRun = { kind: "text", text: " ", marks: [], href: null, literal: true };

interface ListItem {
  listType: "BULLET" | "NUMBER";
  level: number;
  number: number | undefined;
}

/**
 * Builds a slide from what the walk meets. Body paragraphs gather into one body text until a
 * blank line, a heading, an image, a thematic break or a change of kind (into or out of a
 * quote) ends it; the first line of a list item is the item, other lines (continuations
 * included) plain paragraphs.
 */
class SlideBuilder {
  readonly content: SlideContent = { texts: [], images: [] };
  private body: SlideParagraph[] | null = null;
  private kind: TextKind | undefined = undefined;
  /** The line after the current body's last block: a block starting later follows a blank line. */
  private bodyEnd = 0;
  /** A list item has opened and its first line is still to come, at this line. */
  private item: (ListItem & { line: number }) | null = null;

  constructor(private readonly reading: Reading) {}

  block(start: number, end: number): void {
    if (start > this.bodyEnd) this.endBody();
    this.bodyEnd = end;
  }

  setKind(kind: TextKind | undefined): void {
    if (kind !== this.kind) this.endBody();
    this.kind = kind;
  }

  endBody(): void {
    if (this.body && this.body.length > 0) {
      this.addText(
        this.kind
          ? { style: "body", paragraphs: this.body, kind: this.kind }
          : { style: "body", paragraphs: this.body },
      );
    }
    this.body = null;
  }

  heading(style: StyleClass, line: InlineRun[]): void {
    this.endBody();
    this.item = null;
    this.addText({ style, paragraphs: [this.paragraph(this.runsOf(line), "NONE")] });
  }

  /** One line of a paragraph: an image line (images alone, Podium's own) or a body paragraph. */
  inlineLine(line: InlineRun[]): void {
    const images = line.filter((run) => run.kind === "image");
    const onlyImages =
      images.length > 0 && line.every((run) => run.kind === "image" || (!run.literal && run.text.trim() === ""));
    if (!onlyImages) {
      this.bodyLine(this.runsOf(trimEdges(line)));
      return;
    }
    const own = images.filter((image) => isAssetPath(image.src));
    const others = images.filter((image) => !isAssetPath(image.src));
    if (own.length > 0) {
      this.endBody();
      this.item = null;
      for (const image of own) this.content.images.push({ alt: image.alt.slice(0, 1000), src: image.src });
    }
    if (others.length > 0) {
      const runs = others.flatMap((image, index) => (index === 0 ? [image] : [SPACE, image]));
      this.bodyLine(this.runsOf(runs));
    }
  }

  bodyLine(runs: Run[]): void {
    const item = this.item;
    this.item = null;
    let paragraph: SlideParagraph;
    if (item) {
      const task = taskOf(runs);
      paragraph = this.paragraph(task ? task.runs : runs, item.listType);
      if (item.level > 0) paragraph.level = item.level;
      if (item.number !== undefined) paragraph.number = item.number;
      if (task) paragraph.checked = task.checked;
    } else {
      paragraph = this.paragraph(runs, "NONE");
    }
    this.body ??= [];
    if (this.body.length < DOCUMENT_LIMITS.maxParagraphsPerText) this.body.push(paragraph);
    else warn(this.reading, "cut");
  }

  /** Lines shown as they are written (raw HTML, and what lies too deep): one paragraph each. */
  literalLines(source: string): void {
    const lines = source.endsWith("\n") ? source.slice(0, -1).split("\n") : source.split("\n");
    for (const line of lines) {
      if (line.trim() === "") this.endBody();
      else this.bodyLine([{ text: line.trim() }]);
    }
  }

  /** A code block: one paragraph per line, spaces kept, tokens when highlighted. */
  code(source: string, info: string): void {
    this.endBody();
    this.item = null;
    const code = source.endsWith("\n") ? source.slice(0, -1) : source;
    const language = /^[A-Za-z0-9_+#.-]{1,32}$/.test(info) ? info : undefined;
    const highlighted = language ? this.reading.highlight?.(code, language.toLowerCase()) : null;
    const lines = code === "" ? [] : code.split("\n");
    if (lines.length > DOCUMENT_LIMITS.maxParagraphsPerText) warn(this.reading, "cut");
    const paragraphs = lines.slice(0, DOCUMENT_LIMITS.maxParagraphsPerText).map((line, index) => {
      const text = this.clip(line);
      const runs = highlighted?.[index];
      const paragraph: SlideParagraph = { text, listType: "NONE" };
      if (runs?.some((run) => run.token) && text === line && runs.length <= 2_000) paragraph.runs = runs;
      return paragraph;
    });
    this.addText(
      language ? { style: "body", paragraphs, kind: "code", language } : { style: "body", paragraphs, kind: "code" },
    );
  }

  tableRow(cells: Run[][]): SlideParagraph {
    if (cells.length > 64) warn(this.reading, "cut");
    const kept = cells.slice(0, 64).map((runs) => (runs.length > 500 ? [{ text: plain(runs) }] : runs));
    return { text: this.clip(kept.map(plain).join(" | ")), listType: "NONE", cells: kept };
  }

  table(align: NonNullable<Text["align"]>, rows: SlideParagraph[]): void {
    if (rows.length > DOCUMENT_LIMITS.maxParagraphsPerText) warn(this.reading, "cut");
    this.addText({
      style: "body",
      paragraphs: rows.slice(0, DOCUMENT_LIMITS.maxParagraphsPerText),
      kind: "table",
      align: align.slice(0, 64),
    });
  }

  itemOpen(line: number, item: ListItem): void {
    this.item = { ...item, line };
  }

  /** An item that held no line still shows as an empty item. */
  itemClose(): void {
    if (this.item === null) return;
    this.block(this.item.line, this.item.line + 1);
    this.bodyLine([]);
  }

  /** Inline runs as document runs: marks, safe links, images as their words (reported). */
  runsOf(line: readonly InlineRun[]): Run[] {
    const runs: Run[] = [];
    for (const run of line) {
      let next: Run;
      if (run.kind === "image") {
        const own = isAssetPath(run.src);
        const local = !own && isLocalPath(run.src);
        warn(this.reading, own ? "inlineImage" : local ? "localImage" : "remoteImage");
        if (local) noteLocalImage(this.reading, run.src);
        next = !own && !local && isSafeLink(run.src) ? { text: run.alt || run.src, href: run.src } : { text: run.alt };
      } else {
        next = { text: run.text };
        const marks = MARK_ORDER.filter((mark) => run.marks.includes(mark));
        if (marks.length > 0) next.marks = marks;
        if (run.href !== null) {
          if (isSafeLink(run.href)) next.href = run.href;
          else warn(this.reading, "link");
        }
        if (run.html) warn(this.reading, "html");
      }
      if (next.text === "") continue;
      const last = runs[runs.length - 1];
      if (last && sameMarks(last, next)) last.text += next.text;
      else runs.push(next);
    }
    return runs;
  }

  private paragraph(runs: Run[], listType: SlideParagraph["listType"]): SlideParagraph {
    const text = plain(runs);
    const clipped = this.clip(text);
    const rich = runs.some((run) => run.marks || run.href);
    if (!rich || clipped !== text || runs.length > 2_000) return { text: clipped, listType };
    return { text, listType, runs };
  }

  private clip(text: string): string {
    if (text.length <= DOCUMENT_LIMITS.maxParagraphLength) return text;
    warn(this.reading, "cut");
    return text.slice(0, DOCUMENT_LIMITS.maxParagraphLength);
  }

  private addText(text: SlideText): void {
    if (this.content.texts.length < DOCUMENT_LIMITS.maxTextsPerTopic) this.content.texts.push(text);
    else warn(this.reading, "cut");
  }
}

function plain(runs: readonly Run[]): string {
  return runs.map((run) => run.text).join("");
}

function sameMarks(a: Run, b: Run): boolean {
  return a.href === b.href && a.token === b.token && (a.marks ?? []).join() === (b.marks ?? []).join();
}

function isAssetPath(src: string): boolean {
  return imageSchema.shape.src.safeParse(src).success;
}

/** A path beside the Markdown file (`img/chart.png`, `../chart.png`, `/chart.png`): no scheme, no host. */
function isLocalPath(src: string): boolean {
  return src.trim() !== "" && !/^[a-z][a-z0-9+.-]*:/i.test(src) && !src.startsWith("//");
}

function noteLocalImage(reading: Reading, src: string): void {
  const { localImages, slide } = reading;
  if (localImages.length >= MAX_LOCAL_IMAGES || localImages.some((image) => image.src === src)) return;
  localImages.push({ src, slide });
}

/**
 * Issue 28 item 7: the Markdown with every image written with `src` (as the importer reads it,
 * see LocalImage) pointing at `url` instead: inline images (`![alt](src "title")`) and reference
 * definitions (`[id]: src`), outside fenced and indented code. Everything else stays as written.
 */
export function replaceImageSource(source: string, src: string, url: string): { markdown: string; replaced: number } {
  let replaced = 0;
  let fence: string | null = null;
  const sameSource = (raw: string) => {
    const written = raw.startsWith("<") && raw.endsWith(">") ? raw.slice(1, -1) : raw;
    return markdown.normalizeLink(markdown.utils.unescapeAll(written)) === src;
  };
  const lines = source.split("\n").map((line) => {
    const fenceMark = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== null) {
      if (fenceMark && fenceMark[0] === fence[0] && fenceMark.length >= fence.length && line.trim() === fenceMark) {
        fence = null;
      }
      return line;
    }
    if (fenceMark) {
      fence = fenceMark;
      return line;
    }
    if (/^(?: {4}|\t)/.test(line)) return line;
    const definition = /^( {0,3}\[(?:[^\]\\]|\\.)+\]:[ \t]*)(<[^>\n]*>|\S+)(.*)$/.exec(line);
    if (definition && sameSource(definition[2] as string)) {
      replaced += 1;
      return `${definition[1]}${url}${definition[3]}`;
    }
    return line.replace(/(!\[(?:[^\]\\]|\\.)*\]\([ \t]*)(<[^>\n]*>|[^\s)]+)/g, (whole, before: string, raw: string) => {
      if (!sameSource(raw)) return whole;
      replaced += 1;
      return `${before}${url}`;
    });
  });
  return { markdown: lines.join("\n"), replaced };
}

/** GFM task items: an item whose text starts `[ ] ` or `[x] ` (unmarked); the export reads them back the same way. */
export function taskOf(runs: Run[]): { checked: boolean; runs: Run[] } | null {
  const first = runs[0];
  if (!first || first.marks || first.href) return null;
  const box = first.text.slice(0, 4);
  if (box !== "[ ] " && box.toLowerCase() !== "[x] ") return null;
  const rest = first.text.slice(4);
  return { checked: box !== "[ ] ", runs: rest === "" ? runs.slice(1) : [{ ...first, text: rest }, ...runs.slice(1)] };
}

// ---------------------------------------------------------------------------------------------
// Inline content

/** The marks Podium keeps, in the order a run lists them. */
const MARK_ORDER: readonly Mark[] = ["strong", "em", "strike", "code"];

const MARK_OF: Partial<Record<string, Mark>> = {
  strong_open: "strong",
  em_open: "em",
  s_open: "strike",
};

type InlineRun =
  /** `literal`: written by an escape, an entity or a code span, so never trimmed at a line's edge. */
  | { kind: "text"; text: string; marks: readonly Mark[]; href: string | null; literal: boolean; html?: boolean }
  | { kind: "image"; src: string; alt: string };

/** Inline tokens split into lines at soft and hard breaks (each source line is a paragraph). */
function inlineLines(children: readonly Token[]): InlineRun[][] {
  const lines: InlineRun[][] = [];
  let line: InlineRun[] = [];
  /** Open marks and links, innermost last (a link is its href). */
  const open: ({ mark: Mark } | { href: string } | null)[] = [];
  const marks = (): Mark[] => open.flatMap((entry) => (entry && "mark" in entry ? [entry.mark] : []));
  const href = (): string | null => {
    for (let i = open.length - 1; i >= 0; i -= 1) {
      const entry = open[i];
      if (entry && "href" in entry) return entry.href;
    }
    return null;
  };
  for (const token of children) {
    if (token.type === "softbreak" || token.type === "hardbreak") {
      lines.push(line);
      line = [];
    } else if (token.type === "link_open") {
      open.push({ href: token.attrGet("href") ?? "" });
    } else if (token.nesting === 1) {
      const mark = MARK_OF[token.type];
      open.push(mark ? { mark } : null);
    } else if (token.nesting === -1) {
      open.pop();
    } else if (token.type === "image") {
      const alt = inlineLines(token.children ?? [])
        .map((part) => plainText(trimEdges(part)))
        .join(" ");
      line.push({ kind: "image", src: token.attrGet("src") ?? "", alt });
    } else if (token.type === "code_inline") {
      line.push({ kind: "text", text: token.content, marks: [...marks(), "code"], href: href(), literal: true });
    } else if (token.type === "html_inline") {
      // Inline HTML may run over lines (`<a\nb>`): each source line stays a paragraph of its own.
      token.content.split("\n").forEach((part, index) => {
        if (index > 0) {
          lines.push(line);
          line = [];
        }
        if (part !== "")
          line.push({ kind: "text", text: part, marks: marks(), href: href(), literal: true, html: true });
      });
    } else if (token.content !== "") {
      // text, and text_special (escapes, entities)
      line.push({ kind: "text", text: token.content, marks: marks(), href: href(), literal: token.type !== "text" });
    }
  }
  lines.push(line);
  return lines;
}

function plainText(runs: readonly InlineRun[]): string {
  return runs.map((run) => (run.kind === "text" ? run.text : run.alt)).join("");
}

/** A line with the source's spaces at its edges trimmed (not what escapes or code wrote). */
function trimEdges(runs: readonly InlineRun[]): InlineRun[] {
  const out = runs.map((run) => ({ ...run }));
  for (let i = 0; i < out.length; i += 1) {
    const run = out[i];
    if (run?.kind !== "text" || run.literal) break;
    run.text = run.text.trimStart();
    if (run.text !== "") break;
  }
  for (let i = out.length - 1; i >= 0; i -= 1) {
    const run = out[i];
    if (run?.kind !== "text" || run.literal) break;
    run.text = run.text.trimEnd();
    if (run.text !== "") break;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Layout

/**
 * Where a slide's images go: beside its texts (a column on the right, sharing its height), or,
 * on a slide of images alone, side by side across the slide.
 */
function imagesOf(content: SlideContent, slideIndex: number): Image[] {
  const { width, height } = SLIDE_LAYOUT;
  const count = content.images.length;
  const besideText = content.texts.length > 0;
  return content.images.map(({ alt, src }, index) => {
    const box = besideText
      ? {
          x: width * 0.56,
          y: height * 0.12 + ((height * 0.76) / count) * index,
          width: width * 0.38,
          height: (height * 0.76) / count - (count > 1 ? 20 : 0),
        }
      : {
          x: width * 0.06 + ((width * 0.88) / count) * index,
          y: height * 0.1,
          width: (width * 0.88) / count - (count > 1 ? 30 : 0),
          height: height * 0.8,
        };
    const round = (n: number) => Math.round(n);
    return {
      id: `s${slideIndex + 1}-i${index + 1}`,
      src,
      alt,
      x: round(box.x),
      y: round(box.y),
      width: round(box.width),
      height: round(box.height),
    };
  });
}

function fontSizeOf(text: SlideText): number {
  if (text.kind === "code") return CODE_FONT_SIZE;
  if (text.kind === "table") return FONT_SIZE.body_2;
  return FONT_SIZE[text.style];
}

function textsOf(content: SlideContent, slideIndex: number): Text[] {
  return content.texts.map((text, index) => {
    const biggestFontSize = fontSizeOf(text);
    const out: Text = {
      id: `s${slideIndex + 1}-t${index + 1}`,
      styleClasses: [text.style],
      paragraphs: text.paragraphs.map(({ text: words, listType, ...rich }) => ({
        text: words,
        listType,
        biggestFontSize,
        ...rich,
      })),
    };
    if (text.kind) out.kind = text.kind;
    if (text.language) out.language = text.language;
    if (text.align) out.align = text.align;
    return out;
  });
}

/** Puts slides on a grid inside an overview topic, so playing can zoom from whole to part. */
function layOut(slides: { content: SlideContent; index: number }[], schemaVersion: "0" | "2"): PresentationDocument {
  const { width, height, gap, overviewMargin } = SLIDE_LAYOUT;
  const columns = Math.ceil(Math.sqrt(slides.length));
  const rows = Math.ceil(slides.length / columns);
  const slideTopics: Topic[] = slides.map(({ content, index: sourceIndex }, index) => {
    const topic: Topic = {
      id: `slide-${index + 1}`,
      x: overviewMargin + (index % columns) * (width + gap),
      y: overviewMargin + Math.floor(index / columns) * (height + gap),
      width,
      height,
      rotation: 0,
      background: null,
      texts: textsOf(content, sourceIndex),
      images: imagesOf(content, sourceIndex),
      topics: [],
    };
    if (content.notes) topic.notes = content.notes;
    return topic;
  });
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
