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
 * Markdown is text, never markup: HTML in it stays literal characters.
 */

/** Largest Markdown source accepted, in UTF-16 code units (about 1 MB of text). */
export const MARKDOWN_MAX_LENGTH = 1_000_000;

/** Canvas layout of imported slides, in canvas units (16:9 slides on a grid). */
export const SLIDE_LAYOUT = { width: 1600, height: 900, gap: 200, overviewMargin: 300 } as const;

/** Font sizes per style class, in canvas units, recorded as biggestFontSize. */
const FONT_SIZE: Record<StyleClass, number> = { title: 96, subtitle: 56, subtitle_2: 44, body: 36, body_2: 30 };

export class MarkdownImportError extends Error {
  override readonly name = "MarkdownImportError";
}

interface SlideDraft {
  texts: Text[];
  images: Image[];
}

export function importMarkdown(source: string, schemaVersion: "0" | "2"): PresentationDocument {
  if (source.length > MARKDOWN_MAX_LENGTH) {
    throw new MarkdownImportError(
      `This Markdown file is too large (${source.length.toLocaleString("en")} characters; the limit is ${MARKDOWN_MAX_LENGTH.toLocaleString("en")}).`,
    );
  }
  const slides = splitSlides(source)
    .map(parseSlide)
    .filter((s) => s.texts.length > 0 || s.images.length > 0);
  if (slides.length === 0) throw new MarkdownImportError("This Markdown file has no slides: it holds no text.");
  if (slides.length + 1 > DOCUMENT_LIMITS.maxTopics) {
    throw new MarkdownImportError(
      `This deck has ${slides.length} slides; Podium takes at most ${DOCUMENT_LIMITS.maxTopics - 1}.`,
    );
  }
  return parseDocument(layOut(slides, schemaVersion));
}

function splitSlides(source: string): string[] {
  return source.replace(/\r\n?/g, "\n").split(/^\s*---+\s*$/m);
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
    const line = rawLine.trim();
    if (line === "") {
      endBody();
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      endBody();
      const level = heading[1]?.length ?? 1;
      const style: StyleClass = level === 1 ? "title" : level === 2 ? "subtitle" : "subtitle_2";
      addText(style, [paragraph(heading[2] ?? "", "NONE", style)]);
      continue;
    }
    const image = /^!\[([^\]]*)\]\((\/assets\/[A-Za-z0-9._/-]+)\)$/.exec(line);
    if (image) {
      endBody();
      images.push(imageAt(slideIndex, images.length, image[1] ?? "", image[2] ?? ""));
      continue;
    }
    const bullet = /^(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
    body ??= [];
    const paragraphs: Paragraph[] = body;
    if (paragraphs.length < DOCUMENT_LIMITS.maxParagraphsPerText) {
      paragraphs.push(bullet ? paragraph(bullet[1] ?? "", "BULLET", "body") : paragraph(line, "NONE", "body"));
    }
  }
  endBody();
  return { texts, images };
}

function paragraph(text: string, listType: Paragraph["listType"], style: StyleClass): Paragraph {
  return {
    text: stripInlineMarks(text).slice(0, DOCUMENT_LIMITS.maxParagraphLength),
    listType,
    biggestFontSize: FONT_SIZE[style],
  };
}

/** `**bold**`, `_em_`, `` `code` `` and `[label](url)` read as their plain words. */
function stripInlineMarks(text: string): string {
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
