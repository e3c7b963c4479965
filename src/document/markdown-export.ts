import { readSlides, type SlideContent, type SlideParagraph, type SlideText, taskOf } from "./markdown";
import {
  DOCUMENT_LIMITS,
  type Mark,
  NOTES_MAX_LENGTH,
  type Paragraph,
  type PresentationDocument,
  type Run,
  type StyleClass,
  type Text,
  type Topic,
  walkTopics,
} from "./schema";

/**
 * The Markdown source of a document (the editor's starting point): one slide per topic on the
 * path that holds texts or images, in path order, in the importer's own dialect (markdown.ts):
 * headings, lines, bullet and numbered lists with their nesting, numbers and task boxes, bold,
 * italic, strikethrough, code spans and links, block quotes, fenced code with its language, GFM
 * tables with their alignment, Podium images and speaker notes (a closing `Note:` paragraph).
 * For decks made from Markdown, importing the result gives the same document again (up to
 * generated ids): each slide is read back with the importer and written again, escaping more,
 * until it reads as intended. Other documents lose what Markdown can't say (positions, topic
 * nesting, extra style classes, highlight tokens, which the import makes again).
 */
export function documentToMarkdown(document: PresentationDocument): string {
  const slides = slidesOf(document)
    .map((topic) => ({ topic, content: intendedContent(topic) }))
    .filter(({ content }) => content.texts.length > 0 || content.images.length > 0);
  return slides
    .map(({ topic, content }) => slideToMarkdown(content, topic.layout === "page"))
    .join("\n---\n")
    .concat("\n");
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

// ---------------------------------------------------------------------------------------------
// What a slide should read as: Markdown's share of a topic

const HEADING_PREFIX: Partial<Record<StyleClass, string>> = { title: "# ", subtitle: "## ", subtitle_2: "### " };

/** The marks a run lists, in the importer's order. */
const MARK_ORDER: readonly Mark[] = ["strong", "em", "strike", "code"];

/** The importer's deepest list level and widest table. */
const MAX_LEVEL = 8;
const MAX_COLUMNS = 64;

/** A line that is only dashes separates slides (markdown.ts), wherever it stands. */
const SLIDE_SEPARATOR = /^\s*-{3,}\s*$/;

/**
 * What the slide's Markdown should read as, in the importer's terms. For a topic the importer
 * made, this is the topic itself; other topics are brought to what Markdown can say: one line
 * per paragraph, runs merged as the importer merges them (highlight tokens dropped), heading
 * texts one heading per paragraph, list fields only on list items, numbers filled in, tables
 * rectangular.
 */
function intendedContent(topic: Topic): SlideContent {
  const texts: SlideText[] = [];
  for (const text of topic.texts) {
    const style = text.styleClasses[0] ?? "body";
    if (HEADING_PREFIX[style]) {
      // A heading is one line: each paragraph of a heading text becomes a heading of its own.
      for (const paragraph of text.paragraphs) {
        texts.push({ style, paragraphs: [richParagraph(runsOf(paragraph), "NONE")] });
      }
    } else if (text.kind === "code") {
      texts.push(codeText(text));
    } else if (text.kind === "table") {
      const table = tableText(text);
      if (table) texts.push(table);
    } else if (text.paragraphs.length > 0) {
      const paragraphs = listParagraphs(text.paragraphs);
      texts.push(text.kind === "quote" ? { style: "body", paragraphs, kind: "quote" } : { style: "body", paragraphs });
    }
  }
  const content: SlideContent = {
    texts: texts.slice(0, DOCUMENT_LIMITS.maxTextsPerTopic),
    images: topic.images.map((image) => ({ alt: oneLine(image.alt), src: image.src })),
  };
  const notes = notesOf(topic.notes);
  if (notes !== undefined) content.notes = notes;
  return content;
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, " ");
}

function plain(runs: readonly Run[]): string {
  return runs.map((run) => run.text).join("");
}

/** Runs as the importer makes them: one line, no empty runs, marks in order, neighbours merged. */
function normalRuns(runs: readonly Run[]): Run[] {
  const out: Run[] = [];
  for (const run of runs) {
    const text = oneLine(run.text);
    if (text === "") continue;
    const next: Run = { text };
    const marks = MARK_ORDER.filter((mark) => run.marks?.includes(mark));
    if (marks.length > 0) next.marks = marks;
    if (run.href !== undefined) next.href = run.href;
    const last = out[out.length - 1];
    if (last && last.href === next.href && (last.marks ?? []).join() === (next.marks ?? []).join()) {
      last.text += text;
    } else {
      out.push(next);
    }
  }
  return out;
}

function runsOf(paragraph: Paragraph): Run[] {
  return normalRuns(paragraph.runs ?? [{ text: paragraph.text }]);
}

/** A paragraph as the importer writes it: runs only when some run is marked or linked. */
function richParagraph(runs: Run[], listType: Paragraph["listType"]): SlideParagraph {
  const text = plain(runs);
  return runs.some((run) => run.marks || run.href) ? { text, listType, runs } : { text, listType };
}

function listParagraphs(paragraphs: readonly Paragraph[]): SlideParagraph[] {
  /** The number an ordered item without one gets: the one after its list's last. */
  const lastNumber: (number | undefined)[] = [];
  return paragraphs.map((paragraph) => {
    let runs = runsOf(paragraph);
    if (paragraph.listType === "NONE") return richParagraph(runs, "NONE");
    const level = Math.min(Math.max(paragraph.level ?? 0, 0), MAX_LEVEL);
    let checked = paragraph.checked;
    if (checked === undefined) {
      // Text that starts like a task box reads as one: Markdown can't say otherwise.
      const task = taskOf(runs);
      if (task) ({ checked, runs } = task);
    }
    const out = richParagraph(runs, paragraph.listType);
    if (level > 0) out.level = level;
    lastNumber.length = level + 1;
    if (paragraph.listType === "NUMBER") {
      const previous = lastNumber[level];
      out.number = paragraph.number ?? (previous === undefined ? 1 : Math.min(previous + 1, 999_999_999));
      lastNumber[level] = out.number;
    } else {
      lastNumber[level] = undefined;
    }
    if (checked !== undefined) out.checked = checked;
    return out;
  });
}

/** A code block: one paragraph per line, as written (no runs: the import highlights again). */
function codeText(text: Text): SlideText {
  const code = text.paragraphs
    .map((paragraph) => paragraph.text)
    .join("\n")
    .replace(/\r\n?/g, "\n");
  // An empty block and a block of one empty line are the same Markdown: the importer reads none.
  const paragraphs = code === "" ? [] : code.split("\n").map((line) => ({ text: line, listType: "NONE" as const }));
  const out: SlideText = {
    style: "body",
    paragraphs: paragraphs.slice(0, DOCUMENT_LIMITS.maxParagraphsPerText),
    kind: "code",
  };
  if (text.language && /^[A-Za-z0-9_+#.-]{1,32}$/.test(text.language)) out.language = text.language;
  return out;
}

/** A table: a header row and rows, all as wide as the alignments (a GFM table is rectangular). */
function tableText(text: Text): SlideText | null {
  const widest = Math.max(0, ...text.paragraphs.map((paragraph) => paragraph.cells?.length ?? 1));
  const columns = Math.min(text.align?.length ?? widest, MAX_COLUMNS);
  if (columns === 0 || text.paragraphs.length === 0) return null;
  const align = Array.from({ length: columns }, (_, index) => text.align?.[index] ?? "none");
  const paragraphs = text.paragraphs.map((paragraph): SlideParagraph => {
    const given = paragraph.cells ?? [[{ text: paragraph.text }]];
    const cells = Array.from({ length: columns }, (_, index) => normalRuns(given[index] ?? []));
    return { text: cells.map(plain).join(" | "), listType: "NONE", cells };
  });
  return { style: "body", paragraphs, kind: "table", align };
}

/**
 * Notes as the importer reads them back: trimmed, and no line a slide separator (such a line
 * would end the slide; the importer never makes one, so only other documents' notes lose its
 * first dash to a backslash before it).
 */
function notesOf(notes: string | undefined): string | undefined {
  if (notes === undefined) return undefined;
  const lines = notes
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => (SLIDE_SEPARATOR.test(line) ? line.replace("-", "\\-") : line));
  const text = lines.join("\n").trim().slice(0, NOTES_MAX_LENGTH);
  return text === "" ? undefined : text;
}

// ---------------------------------------------------------------------------------------------
// Writing a slide, read back until it reads as intended

/**
 * How much a slide's lines escape: each line takes the first form from here on that reads back
 * as itself (alone and between two lines of text). Lines can still pair marks across each
 * other (a backtick on one, another on the next), so the slide as a whole is read back, and
 * written again escaping more if it doesn't read as intended. The first attempt trusts lines
 * whose marks are plainly unambiguous without reading each one (most lines of most decks).
 */
const ESCAPING = ["asWritten", "marks", "allPunctuation"] as const;
type Escaping = (typeof ESCAPING)[number];

interface Attempt {
  least: Escaping;
  /** Lines whose delimiters are unambiguous by CommonMark's flanking rules need no reading. */
  trustPlainMarks: boolean;
  /**
   * Lines that are one-line HTML blocks stay as written: Markdown never reads inside them, so they
   * pair nothing with other lines, and they end a paragraph where escaped text wouldn't
   * (`<!-- x -->` then `2. item` is a list that starts at 2).
   */
  htmlBlocksAsWritten: boolean;
}

const ATTEMPTS: readonly Attempt[] = [
  { least: "asWritten", trustPlainMarks: true, htmlBlocksAsWritten: true },
  { least: "asWritten", trustPlainMarks: false, htmlBlocksAsWritten: true },
  { least: "marks", trustPlainMarks: false, htmlBlocksAsWritten: true },
  { least: "allPunctuation", trustPlainMarks: false, htmlBlocksAsWritten: false },
];

/**
 * CommonMark's HTML blocks that end on their first line (kinds 1 to 5: script, pre, style and
 * textarea elements, comments, processing instructions, declarations, CDATA).
 */
function isOneLineHtmlBlock(text: string): boolean {
  return (
    (/^<(script|pre|style|textarea)(\s|>|$)/i.test(text) && /<\/(script|pre|style|textarea)>/i.test(text)) ||
    (text.startsWith("<!--") && text.includes("-->")) ||
    (text.startsWith("<?") && text.includes("?>")) ||
    /^<![A-Za-z][^>]*>/.test(text) ||
    (text.startsWith("<![CDATA[") && text.includes("]]>"))
  );
}

/**
 * Topics with layout "page" (imported PDF pages) are written as their page image followed by
 * their text layer as lines: Markdown has no hidden text layer, and keeping both as slide
 * content loses the least (the page stays visible, its words stay searchable and editable);
 * only the layout is lost, which Markdown can't say.
 */
function slideToMarkdown(content: SlideContent, page: boolean): string {
  let markdown = "";
  for (const attempt of ATTEMPTS) {
    markdown = writeSlide(content, attempt, page);
    if (sameReading(readSlides(markdown), [content])) break;
  }
  return markdown;
}

function writeSlide(content: SlideContent, attempt: Attempt, page: boolean): string {
  const lines: string[] = [];
  let images = content.images.map((image) => imageLine(image, attempt.least));
  if (page) {
    lines.push(...images);
    images = [];
  }
  const { texts } = content;
  /** Lists still open when a body text ends: the next one, of the same kind, may go on in them. */
  let lists: ListLevel[] = [];
  /** The text a heading or code block before it holds in its list item (see `needsHost`). */
  let hostedByPrevious = false;
  texts.forEach((text, index) => {
    const previous = texts[index - 1];
    const heading = HEADING_PREFIX[text.style];
    const next = texts[index + 1];
    const quoted = (line: string) => (line === "" ? ">" : `> ${line}`);
    const sameBody = previous !== undefined && isBody(previous) && isBody(text) && previous.kind === text.kind;
    let hosted = hostedByPrevious;
    hostedByPrevious = false;
    if (hosted) {
      // Right after its host, in the host's item.
    } else if (sameBody && needsHost(text) && lists.length > 0) {
      // A thematic break inside the last item ends the text before without ending its lists.
      const hr = `${" ".repeat(lists[lists.length - 1]?.content ?? 0)}***`;
      lines.push(text.kind === "quote" ? quoted(hr) : hr);
      hosted = true;
    } else {
      if ((previous && !HEADING_PREFIX[previous.style]) || (!previous && lines.length > 0)) lines.push("");
      // After a blank line, lists go on in the next plain text (a quote's end with the quote).
      if (!(sameBody && text.kind === undefined)) lists = [];
    }
    if (heading) {
      hostedByPrevious = next !== undefined && needsHost(next);
      lines.push(...hostLines([headingLine(heading, text, attempt)], hostedByPrevious ? next : undefined));
    } else if (text.kind === "code") {
      const code = codeLines(text);
      hostedByPrevious = next !== undefined && needsHost(next) && !code[0]?.startsWith(">");
      lines.push(...hostLines(code, hostedByPrevious ? next : undefined));
    } else if (text.kind === "table") {
      lines.push(...tableLines(text, attempt));
    } else if (!hosted && needsHost(text) && text.kind === "quote") {
      // In a quote, a quote nested from the first item on holds the list (still one quote text).
      const firstItem = text.paragraphs.findIndex((paragraph) => paragraph.listType !== "NONE");
      const body = bodyLines(text.paragraphs, lists, attempt);
      lines.push(...body.map((line, at) => (at < firstItem ? quoted(line) : quoted(quoted(line)))));
    } else {
      if (!hosted && needsHost(text) && images.length > 0) {
        // The slide's images, in a list item, can hold the text's first lines.
        lines.push(...hostLines(images, text));
        images = [];
        hosted = true;
      }
      if (hosted && lists.length === 0) lists = [{ ...HOST_ITEM }];
      const body = bodyLines(text.paragraphs, lists, attempt, hosted);
      lines.push(...(text.kind === "quote" ? body.map(quoted) : body));
    }
    if (hostedByPrevious) lists = [{ ...HOST_ITEM }];
  });
  if (images.length > 0) {
    const last = texts[texts.length - 1];
    if (last && !HEADING_PREFIX[last.style]) lines.push("");
    lines.push(...images);
  }
  if (content.notes !== undefined) lines.push("", ...noteLines(content.notes));
  // No line may split the slide (text lines never do: a line of dashes reads back otherwise).
  return lines.map((line) => (SLIDE_SEPARATOR.test(line) ? line.replace("-", "\\-") : line)).join("\n");
}

function isBody(text: SlideText): boolean {
  return !HEADING_PREFIX[text.style] && (text.kind === undefined || text.kind === "quote");
}

/**
 * Whether a body text starts with lines and then an ordered item numbered other than 1 at the
 * outermost level: CommonMark lets such an item interrupt a paragraph only inside a list item
 * (or a nested quote), so the importer makes this text only from lines inside an item that an
 * earlier block used, or, in a quote, with the list in a quote of its own.
 */
function needsHost(text: SlideText): boolean {
  if (!isBody(text) || text.paragraphs[0]?.listType !== "NONE") return false;
  const item = text.paragraphs.find((paragraph) => paragraph.listType !== "NONE");
  return item?.listType === "NUMBER" && (item.level ?? 0) === 0 && item.number !== 1;
}

/** The list item that holds a host block: `- ` at the margin. */
const HOST_ITEM: ListLevel = { indent: 0, marker: "-", next: 0, content: 2 };

/** Lines put in a `- ` item (in a quote when the text they host is one), or left as they are. */
function hostLines(lines: string[], hosted: SlideText | undefined): string[] {
  if (!hosted) return lines;
  const inItem = lines.map((line, index) => (index === 0 ? `- ${line}` : line === "" ? "" : `  ${line}`));
  return hosted.kind === "quote" ? inItem.map((line) => (line === "" ? ">" : `> ${line}`)) : inItem;
}

function imageLine(image: SlideContent["images"][number], least: Escaping): string {
  const alt = keepEdges(least === "allPunctuation" ? escapeAll(image.alt) : escapeMarks(image.alt, false));
  return `![${alt}](${image.src})`;
}

/**
 * Notes follow a `Note:` paragraph (reveal.js), on its line when they read back so there, else
 * after it and a blank line (where nothing they say can change how `Note:` reads).
 */
function noteLines(notes: string): string[] {
  const lines = notes.split("\n");
  // After `Note: …`, the lines up to a blank one are its paragraph: one that starts like a setext
  // underline or a table's delimiter row could make it something else.
  const paragraphEnd = lines.findIndex((line) => line.trim() === "");
  const paragraph = lines.slice(1, paragraphEnd < 0 ? lines.length : paragraphEnd);
  if (!paragraph.some((line) => /^\s*[-=|:]/.test(line))) return [`Note: ${lines[0] ?? ""}`, ...lines.slice(1)];
  return ["Note:", "", ...lines];
}

function headingLine(prefix: string, text: SlideText, attempt: Attempt): string {
  const paragraph = text.paragraphs[0] ?? { text: "", listType: "NONE" };
  const wanted: SlideContent[] = [{ texts: [{ style: text.style, paragraphs: [paragraph] }], images: [] }];
  const content = inlineContent(runsToWrite(paragraph), attempt, "heading", (written) =>
    sameReading(readSlides(prefix + written), wanted),
  );
  return (prefix + content).trimEnd();
}

/**
 * A code block: a backtick fence longer than any backtick run inside, the language after it,
 * the lines exactly as they are (code escapes nothing). A line of dashes would split the slide
 * before Markdown is read, so a block holding one is written inside a block quote, whose `> `
 * the importer takes off again (it reads code in a quote as the same code).
 */
function codeLines(text: SlideText): string[] {
  const lines = text.paragraphs.map((paragraph) => paragraph.text);
  const longest = Math.max(
    0,
    ...lines.map((line) => Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length))),
  );
  const fence = "`".repeat(Math.max(3, longest + 1));
  const block = [fence + (text.language ?? ""), ...lines, fence];
  if (!lines.some((line) => SLIDE_SEPARATOR.test(line))) return block;
  return block.map((line) => (line === "" ? ">" : `> ${line}`));
}

const ALIGN_MARKER: Record<NonNullable<Text["align"]>[number], string> = {
  left: ":--",
  center: ":-:",
  right: "--:",
  none: "---",
};

function tableLines(text: SlideText, attempt: Attempt): string[] {
  const align = text.align ?? [];
  const row = (paragraph: SlideParagraph) =>
    `| ${(paragraph.cells ?? []).map((cell) => cellContent(cell, attempt)).join(" | ")} |`;
  const [header, ...rows] = text.paragraphs;
  if (!header) return [];
  return [row(header), `|${align.map((a) => ALIGN_MARKER[a]).join("|")}|`, ...rows.map(row)];
}

function cellContent(runs: Run[], attempt: Attempt): string {
  const wanted: SlideContent[] = [
    {
      texts: [
        {
          style: "body",
          paragraphs: [{ text: plain(runs), listType: "NONE", cells: [runs] }],
          kind: "table",
          align: ["none"],
        },
      ],
      images: [],
    },
  ];
  return inlineContent(runs, attempt, "cell", (written) => sameReading(readSlides(`| ${written} |\n|---|`), wanted));
}

// ---------------------------------------------------------------------------------------------
// Lists

/** An open list as written: where its marker stands, what it is, and where its last item's text starts. */
interface ListLevel {
  indent: number;
  /** `-` for bullets; `.` or `)` after an ordered item's number. */
  marker: "-" | "." | ")";
  /** The number its next item gets (ordered lists). */
  next: number;
  content: number;
}

/**
 * A body text's lines. List items are written with their markers at their level's indent,
 * other paragraphs as continuation lines of the item before them (or plain lines before any
 * item). CommonMark decides an item's number by its list's first item and its level by nesting,
 * so: an ordered item whose number isn't its list's next starts a new list with the other
 * delimiter (`1.` then `5)`); an item deeper than the one before it gets wrapper items on its
 * line (`- - item`: the importer keeps only the innermost), and a nested ordered list that
 * starts past 1, which can't interrupt a paragraph, gets a wrapper sibling (`- 3. item`).
 */
function bodyLines(
  paragraphs: readonly SlideParagraph[],
  lists: ListLevel[],
  attempt: Attempt,
  hosted = false,
): string[] {
  const lines: string[] = [];
  paragraphs.forEach((paragraph, index) => {
    const runs = runsToWrite(paragraph);
    if (paragraph.listType === "NONE") {
      // A line at the margin ends the lists a text before this one left open (unless it is hosted).
      if (index === 0 && !hosted) lists.length = 0;
      const column = lists[lists.length - 1]?.content ?? 0;
      lines.push(" ".repeat(column) + lineContent(runs, attempt));
      return;
    }
    const level = paragraph.level ?? 0;
    const ordered = paragraph.listType === "NUMBER";
    const number = paragraph.number ?? 1;
    lists.length = Math.min(lists.length, level + 1);
    let prefix: string;
    let column: number;
    const current = lists[level];
    if (current) {
      column = current.indent;
      prefix = "";
      // Bullets go on in a bullet list (or start one); an ordered item goes on in its list
      // when it has the list's next number, else it starts a list of its own.
      let marker: ListLevel["marker"] = "-";
      if (ordered && current.marker === "-") marker = ".";
      else if (ordered) marker = current.next === number ? current.marker : otherDelimiter(current.marker);
      lists[level] = { indent: column, marker, next: number, content: 0 };
    } else {
      let base = lists.length;
      const parent = lists[base - 1];
      column = parent?.content ?? 0;
      prefix = "";
      if (parent && base === level && ordered && number !== 1) {
        // A sibling of the parent item holds the list (a bullet: it numbers nothing).
        base -= 1;
        column = parent.indent;
        lists[base] = { indent: column, marker: "-", next: 0, content: column + 2 };
        prefix = "- ";
        base += 1;
      }
      for (let wrapper = base; wrapper < level; wrapper += 1) {
        const indent = column + prefix.length;
        lists[wrapper] = { indent, marker: "-", next: 0, content: indent + 2 };
        prefix += "- ";
      }
      const indent = column + prefix.length;
      lists[level] = { indent, marker: ordered ? "." : "-", next: number, content: 0 };
    }
    const list = lists[level] as ListLevel;
    const marker = list.marker === "-" ? "- " : `${number}${list.marker} `;
    list.next = number + 1;
    list.content = list.indent + marker.length;
    let written: string;
    if (paragraph.checked !== undefined) {
      // The task box as people write it; with nothing after it, its space as a reference.
      const box = paragraph.checked ? "[x]" : "[ ]";
      written = runs.length === 0 ? `${box}&#x20;` : `${box} ${lineContent(runs, attempt)}`;
    } else {
      // An empty item is written as an empty link: a marker alone can't interrupt a paragraph.
      written = runs.length === 0 ? "[]()" : lineContent(runs, attempt);
    }
    lines.push(" ".repeat(column) + prefix + marker + written);
  });
  return lines;
}

function runsToWrite(paragraph: SlideParagraph): Run[] {
  return paragraph.runs ?? (paragraph.text === "" ? [] : [{ text: paragraph.text }]);
}

function otherDelimiter(marker: ListLevel["marker"]): ListLevel["marker"] {
  return marker === "." ? ")" : ".";
}

/** A line of text (a body line or an item's text) that reads back as itself wherever it stands. */
function lineContent(runs: Run[], attempt: Attempt): string {
  const paragraph = richParagraph(runs, "NONE");
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
  return inlineContent(runs, attempt, "line", (written) =>
    sameReading(readSlides(`${written}\n\nx\n${written}\nx`), wanted),
  );
}

// ---------------------------------------------------------------------------------------------
// Inline content: runs as CommonMark

/** Where inline content stands: a line of its own, a heading's text, or a table cell. */
type InlineContext = "line" | "heading" | "cell";

interface InlineForm {
  escaping: Escaping;
  /** Emphasis: `_` reads best, `*` works inside words. */
  em: "_" | "*";
  /**
   * Characters beside a delimiter written as character references, which CommonMark reads as
   * the characters but whose `&…;` is punctuation: it makes delimiters open and close where
   * plain text beside them wouldn't let them (`&#x61;**&#x20;b**` is "a" then a bold " b").
   */
  references: boolean;
}

function inlineForms(least: Escaping): InlineForm[] {
  const forms: InlineForm[] = [];
  for (const escaping of ESCAPING.slice(ESCAPING.indexOf(least))) {
    for (const references of [false, true]) {
      for (const em of ["_", "*"] as const) forms.push({ escaping, em, references });
    }
  }
  return forms;
}

/**
 * The first form of the runs that reads back as them, from the attempt's least escaping on.
 * Plain text with nothing to escape needs no reading; neither, on the first attempt, do runs
 * whose every delimiter can only open or only close (by CommonMark's flanking rules).
 */
function inlineContent(
  runs: Run[],
  attempt: Attempt,
  context: InlineContext,
  readsBack: (written: string) => boolean,
): string {
  if (runs.length === 0) {
    // An empty link reads as nothing, and keeps a line that isn't blank.
    if (context === "cell") return "";
    return context === "line" || !readsBack("") ? "[]()" : "";
  }
  const rich = runs.some((run) => run.marks || run.href);
  if (!rich) {
    const text = plain(runs);
    if (attempt.htmlBlocksAsWritten && context === "line" && isOneLineHtmlBlock(text) && readsBack(text)) return text;
    const escaped = attempt.least === "allPunctuation" ? escapeAll(text) : escapeMarks(text, context !== "cell");
    if (!/^\s|\s$/.test(text) && escaped === text && !(context === "line" && NOTE_START.test(text))) return text;
  }
  const forms = rich
    ? inlineForms(attempt.least)
    : inlineForms(attempt.least).filter((form) => form.em === "_" && !form.references);
  let written = "";
  for (const form of forms) {
    const rendered = renderRuns(runs, form, context);
    written = rendered.text;
    if ((attempt.trustPlainMarks && rendered.unambiguous) || readsBack(written)) return written;
  }
  return written;
}

/** reveal.js notes start at a paragraph that starts `Note:` (markdown.ts): lines never do. */
const NOTE_START = /^notes?:/i;

type Piece =
  | { kind: "text"; text: string }
  | { kind: "code"; text: string }
  | { kind: "delimiter"; text: string; opens: boolean }
  | { kind: "linkOpen" }
  | { kind: "linkClose"; href: string };

/** The marks and link of a run that open and close around its text (code is a span of its own). */
function wrappersOf(run: Run): string[] {
  const keys: string[] = run.href !== undefined ? [`@${run.href}`] : [];
  for (const mark of run.marks ?? []) if (mark !== "code") keys.push(mark);
  return keys;
}

const WRAPPER_RANK: Record<string, number> = { strong: 1, em: 2, strike: 3 };

/**
 * The runs as a sequence of text, code spans, delimiters and link brackets. Marks and links
 * nest: what lasts longer opens first (outside), so that fewer close and open again.
 */
function piecesOf(runs: readonly Run[], em: string): Piece[] {
  const delimiter: Record<string, string> = { strong: "**", em, strike: "~~" };
  const keys = runs.map(wrappersOf);
  // How many runs from each one on carry each of its wrappers.
  const lasting: Map<string, number>[] = [];
  for (let index = runs.length - 1; index >= 0; index -= 1) {
    const here = new Map<string, number>();
    for (const key of keys[index] ?? []) here.set(key, 1 + (lasting[index + 1]?.get(key) ?? 0));
    lasting[index] = here;
  }
  const pieces: Piece[] = [];
  const open: string[] = [];
  const close = (key: string) => {
    pieces.push(
      key.startsWith("@")
        ? { kind: "linkClose", href: key.slice(1) }
        : { kind: "delimiter", text: delimiter[key] ?? "", opens: false },
    );
  };
  runs.forEach((run, index) => {
    const wanted = keys[index] ?? [];
    let kept = 0;
    while (kept < open.length && wanted.includes(open[kept] as string)) kept += 1;
    while (open.length > kept) close(open.pop() as string);
    const missing = wanted.filter((key) => !open.includes(key));
    const lasts = (key: string) => lasting[index]?.get(key) ?? 0;
    missing.sort((a, b) => lasts(b) - lasts(a) || (WRAPPER_RANK[a] ?? 0) - (WRAPPER_RANK[b] ?? 0));
    for (const key of missing) {
      open.push(key);
      pieces.push(
        key.startsWith("@") ? { kind: "linkOpen" } : { kind: "delimiter", text: delimiter[key] ?? "", opens: true },
      );
    }
    const code = run.marks?.includes("code") === true;
    pieces.push({ kind: code ? "code" : "text", text: run.text });
  });
  while (open.length > 0) close(open.pop() as string);
  return pieces;
}

/**
 * Writes pieces as Markdown. Whitespace where it would be trimmed (a line's edges) or would keep
 * a delimiter from opening or closing (just inside it) is written as a character reference;
 * with `references`, so is a letter just outside a delimiter. `unambiguous`: every delimiter
 * can only open or only close where it stands and the text holds nothing Markdown would read.
 */
function renderRuns(
  runs: readonly Run[],
  form: InlineForm,
  context: InlineContext,
): { text: string; unambiguous: boolean } {
  const pieces = piecesOf(runs, form.em);
  /** For each text piece: write its first / last character as a reference. */
  const first = new Array<boolean>(pieces.length).fill(false);
  const last = new Array<boolean>(pieces.length).fill(false);
  const isText = (index: number) => pieces[index]?.kind === "text";
  // The line's edges: the importer trims whitespace of its first and last text.
  const contentAt = pieces.map((piece, index) => (piece.kind === "text" || piece.kind === "code" ? index : -1));
  const firstContent = contentAt.find((index) => index >= 0) ?? -1;
  const lastContent = [...contentAt].reverse().find((index) => index >= 0) ?? -1;
  if (isText(firstContent) && /^\s/.test(textOf(pieces[firstContent]))) first[firstContent] = true;
  if (isText(lastContent) && /\s$/.test(textOf(pieces[lastContent]))) last[lastContent] = true;
  pieces.forEach((piece, index) => {
    if (piece.kind !== "delimiter") return;
    const inner = piece.opens ? index + 1 : index - 1;
    const outer = piece.opens ? index - 1 : index + 1;
    if (isText(inner)) {
      const text = textOf(pieces[inner]);
      if (isWhiteSpace(piece.opens ? firstChar(text) : lastChar(text))) (piece.opens ? first : last)[inner] = true;
    }
    if (form.references && isText(outer)) {
      const char = piece.opens ? lastChar(textOf(pieces[outer])) : firstChar(textOf(pieces[outer]));
      if (char !== " " && !/^[!-/:-@[-`{-~]$/.test(char)) (piece.opens ? last : first)[outer] = true;
    }
  });
  let plainText = true;
  const parts = pieces.map((piece, index) => {
    switch (piece.kind) {
      case "text": {
        const written = writeText(piece.text, form.escaping, {
          lineStart: index === 0 && context !== "cell",
          cell: context === "cell",
          first: first[index] === true,
          last: last[index] === true,
          beforeLink: pieces[index + 1]?.kind === "linkOpen",
          noteGuard: index === 0 && context === "line",
        });
        if (form.escaping === "asWritten" && escapeMarks(piece.text, index === 0) !== piece.text) plainText = false;
        return written;
      }
      case "code":
        return codeSpan(piece.text, context === "cell");
      case "delimiter":
        return piece.text;
      case "linkOpen":
        return "[";
      default:
        return `](${linkDestination(piece.href, context === "cell")})`;
    }
  });
  // A line that starts with a link could read as a link reference definition (`[`]: `](…)`, whose
  // label ends inside the code span): an empty link before it reads as nothing and prevents that.
  const guard = form.references && context === "line" && pieces[0]?.kind === "linkOpen" ? "[]()" : "";
  const text = guard + parts.join("");
  return { text, unambiguous: plainText && delimitersUnambiguous(pieces, parts) };
}

function textOf(piece: Piece | undefined): string {
  return piece && (piece.kind === "text" || piece.kind === "code") ? piece.text : "";
}

function firstChar(text: string): string {
  const code = text.codePointAt(0);
  return code === undefined ? "" : String.fromCodePoint(code);
}

function lastChar(text: string): string {
  if (text === "") return "";
  const low = text.charCodeAt(text.length - 1);
  const start = low >= 0xdc00 && low <= 0xdfff && text.length > 1 ? text.length - 2 : text.length - 1;
  return String.fromCodePoint(text.codePointAt(start) ?? low);
}

/** Whitespace to markdown-it's flanking rules (a line's edges count as whitespace). */
const FLANKING_SPACE = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x202f, 0x205f, 0x3000]);

function isFlankingSpace(char: string): boolean {
  const code = char.codePointAt(0);
  return code === undefined || FLANKING_SPACE.has(code) || (code >= 0x2000 && code <= 0x200a);
}

/** Whitespace to markdown-it or to JavaScript (the importer's trimming): written as a reference. */
function isWhiteSpace(char: string): boolean {
  return isFlankingSpace(char) || /^\s$/u.test(char);
}

function isPunctuation(char: string): boolean {
  return /^[\p{P}\p{S}]$/u.test(char);
}

/** CommonMark's flanking rules for each delimiter, by the characters written beside it. */
function delimitersUnambiguous(pieces: readonly Piece[], parts: readonly string[]): boolean {
  return pieces.every((piece, index) => {
    if (piece.kind !== "delimiter") return true;
    const before = parts[index - 1];
    const after = parts[index + 1];
    // Two delimiters of one character side by side would make one run.
    if (before?.endsWith(piece.text[0] as string) || after?.startsWith(piece.text[0] as string)) return false;
    const previous = before === undefined ? "" : lastChar(before);
    const next = after === undefined ? "" : firstChar(after);
    const previousSpace = isFlankingSpace(previous);
    const nextSpace = isFlankingSpace(next);
    const previousPunctuation = !previousSpace && isPunctuation(previous);
    const nextPunctuation = !nextSpace && isPunctuation(next);
    const left = !nextSpace && (!nextPunctuation || previousSpace || previousPunctuation);
    const right = !previousSpace && (!previousPunctuation || nextSpace || nextPunctuation);
    const splits = piece.text !== "_";
    const opens = left && (splits || !right || previousPunctuation);
    const closes = right && (splits || !left || nextPunctuation);
    return piece.opens ? opens && !closes : closes && !opens;
  });
}

interface TextPlace {
  /** At the start of a line, where list markers, quotes and headings begin. */
  lineStart: boolean;
  cell: boolean;
  first: boolean;
  last: boolean;
  /** Just before a link's `[` (a `!` there would make it an image). */
  beforeLink: boolean;
  /** At the start of a body line (a `Note:` there would start the notes). */
  noteGuard: boolean;
}

function writeText(text: string, escaping: Escaping, place: TextPlace): string {
  const chars = [...text];
  const head = place.first ? reference(chars.shift() as string) : "";
  const tail = place.last && chars.length > 0 ? reference(chars.pop() as string) : "";
  const middle = chars.join("");
  let written: string;
  if (escaping === "allPunctuation") written = escapeAll(middle);
  else if (escaping === "marks") written = escapeMarks(middle, place.lineStart && head === "");
  else written = middle;
  if (place.cell && escaping === "asWritten") written = written.replace(/\|/g, "\\|");
  if (place.noteGuard && head === "") written = written.replace(/^(notes?):/i, "$1\\:");
  if (place.beforeLink && tail === "" && /(^|[^\\])!$/.test(written)) written = `${written.slice(0, -1)}\\!`;
  return head + written + tail;
}

/** A character as a numeric character reference (CommonMark reads it as the character). */
function reference(char: string): string {
  return `&#x${(char.codePointAt(0) ?? 32).toString(16)};`;
}

/**
 * A code span: fenced by a backtick run no run inside has, padded with a space when markdown-it
 * would otherwise strip one or a backtick would touch the fence. In a table cell, a pipe takes
 * a backslash (GFM reads cells before code spans, and takes the backslash off again).
 */
function codeSpan(text: string, cell: boolean): string {
  const runs = new Set((text.match(/`+/g) ?? []).map((run) => run.length));
  let length = 1;
  while (runs.has(length)) length += 1;
  const fence = "`".repeat(length);
  const padded = /^ (.+) $/.test(text) || text.startsWith("`") || text.endsWith("`") ? ` ${text} ` : text;
  return fence + (cell ? padded.replace(/\|/g, "\\|") : padded) + fence;
}

/**
 * A link's target between parentheses: backslashes before what would end it or read as an
 * entity; between angle brackets when it holds spaces.
 */
function linkDestination(href: string, cell: boolean): string {
  let written = href.replace(/\\/g, "\\\\").replace(/&(?=#?[A-Za-z0-9]+;)/g, "\\&");
  if (cell) written = written.replace(/\|/g, "\\|");
  if (/[\s<>]/.test(written)) return `<${written.replace(/[<>]/g, "\\$&")}>`;
  let depth = 0;
  let balanced = true;
  for (const char of written) {
    if (char === "(") depth += 1;
    else if (char === ")") depth -= 1;
    if (depth < 0) balanced = false;
  }
  return balanced && depth === 0 ? written : written.replace(/[()]/g, "\\$&");
}

/**
 * Whitespace at either edge of a line would be trimmed: the edge characters are written as
 * numeric character references (`&#x20;`), which CommonMark reads as the character itself.
 */
function keepEdges(text: string): string {
  const chars = [...text];
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
function escapeMarks(text: string, lineStart: boolean): string {
  const inline = text.replace(/[\\`*_[\]<&~|#]/g, "\\$&");
  if (!lineStart) return inline;
  const ordered = /^(\d+)([.)])/.exec(inline);
  if (ordered) return `${ordered[1]}\\${inline.slice((ordered[1] ?? "").length)}`;
  return /^[-+=>]/.test(inline) ? `\\${inline}` : inline;
}

/** Every ASCII punctuation mark backslash-escaped (CommonMark reads each as itself). */
function escapeAll(text: string): string {
  return text.replace(/[!-/:-@[-`{-~]/g, "\\$&");
}

/** Same content, whatever order the keys were written in (undefined fields count as absent). */
function sameReading(actual: SlideContent[], expected: SlideContent[]): boolean {
  return same(actual, expected);
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index += 1) if (!same(a[index], b[index])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let defined = 0;
  for (const key in left) {
    if (left[key] === undefined) continue;
    defined += 1;
    if (!same(left[key], right[key])) return false;
  }
  for (const key in right) if (right[key] !== undefined) defined -= 1;
  return defined === 0;
}
