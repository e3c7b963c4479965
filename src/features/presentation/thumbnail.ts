import { slideTopic } from "../../document/markdown";
import type { Paragraph, Run, Text, Theme, Topic } from "../../document/schema";
import {
  CODE_SCALE,
  estimateFit,
  fontSizeOf,
  imageFillBox,
  SLIDE_PALETTES,
  type SlidePalette,
  TEXT_GAP,
  textBox,
  tokenColour,
} from "../../document/slide-layout";
import { escapeHtml } from "../../lib/html";

/**
 * Thumbnails and the poster before Present are drawn by Podium itself (product brief: no
 * network) as an SVG of the real first slide, laid out like the slide (document/slide-layout.ts)
 * in the deck's theme: vector text stays crisp at any size. An SVG shown as an <img> can't load
 * anything, so the slide's images travel inside it as data: URIs (re-encoded small by the
 * service); anything else the drawing needs is in the SVG itself.
 */
export const THUMBNAIL_SIZE = { width: 640, height: 360 } as const;

/**
 * Spec §3 fallbackPreviewUrl, §4 (R4.1): the file beside `thumbnail.svg` that the player shows when
 * the preview fails, the same drawing without the slide's images (tinted boxes in their place),
 * so it needs nothing but the document.
 */
export const FALLBACK_THUMBNAIL = "thumbnail-plain.svg";

/** Wraps text into at most `maxLines` lines of about `perLine` characters. */
export function wrapLines(text: string, perLine: number, maxLines: number): string[] {
  return wrapOffsets(text, perLine, maxLines).map(
    ({ start, end, cut }) => `${text.slice(start, end)}${cut ? "…" : ""}`,
  );
}

interface Line {
  start: number;
  end: number;
  /** The text goes on past this line but there is no room: the line ends with "…". */
  cut: boolean;
}

/** Line breaks of a text (at spaces; words longer than a line are split), as offsets. */
function wrapOffsets(text: string, perLine: number, maxLines: number): Line[] {
  const lines: Line[] = [];
  const limit = Math.max(1, Math.floor(perLine));
  let start = 0;
  while (start < text.length && lines.length < maxLines) {
    while (text[start] === " ") start += 1;
    if (start >= text.length) break;
    let end = Math.min(text.length, start + limit);
    if (end < text.length) {
      const space = text.lastIndexOf(" ", end);
      if (space > start) end = space;
    }
    lines.push({ start, end, cut: false });
    start = end;
  }
  const last = lines.at(-1);
  if (last && text.slice(last.end).trim() !== "") last.cut = true;
  return lines;
}

/** Characters XML can't carry (C0 controls other than tab and newline). */
function xmlSafe(text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0xfffe || code === 0xffff)
      continue;
    out += char;
  }
  return out;
}
const xml = (text: string) => escapeHtml(xmlSafe(text));
const n = (value: number) => Number(value.toFixed(1));

const SANS = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', 'Helvetica Neue', Arial, sans-serif";
const MONO = "ui-monospace, 'SFMono-Regular', 'Cascadia Mono', Menlo, Consolas, 'Liberation Mono', monospace";
/** Average glyph widths in em (monospace, and plain text in table cells). */
const SANS_EM = 0.55;
const MONO_EM = 0.6;

export interface ThumbnailInput {
  /** The presentation's title: the fallback drawing and the image's accessible name. */
  title: string;
  theme?: Theme | undefined;
  topic: Topic | null;
  /** The poster topic's images as data: URIs, by their src; a missing one is drawn as a tinted box. */
  images?: ReadonlyMap<string, string>;
}

/** The SVG of a presentation's poster slide (or of its title, when it has no slide with content). */
export function renderThumbnailSvg(input: ThumbnailInput): string {
  const { width, height } = THUMBNAIL_SIZE;
  const palette = SLIDE_PALETTES[input.theme ?? "light"];
  const topic = input.topic ?? titleTopic(input.title);
  const scale = Math.min(width / topic.width, height / topic.height);
  const offsetX = (width - topic.width * scale) / 2;
  const offsetY = (height - topic.height * scale) / 2;
  const background =
    (input.theme ?? "light") === "light" && topic.background ? topic.background.color : palette["slide-bg"];
  const body = topicMarkup(topic, palette, input.images ?? new Map());
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${xml(input.title)}">
<rect width="${width}" height="${height}" fill="${palette["slide-stage"]}"/>
<g transform="translate(${n(offsetX)} ${n(offsetY)}) scale(${Number(scale.toFixed(5))})">
<rect width="${topic.width}" height="${topic.height}" fill="${background}"/>
${body}
</g>
</svg>`;
}

/** A slide of just the title, for decks whose path shows no text or image. */
function titleTopic(title: string): Topic {
  return slideTopic("title", 0, 0, [
    { id: "t", styleClasses: ["title"], paragraphs: [{ text: title, listType: "NONE", biggestFontSize: 96 }] },
  ]);
}

function topicMarkup(topic: Topic, palette: SlidePalette, images: ReadonlyMap<string, string>): string {
  const parts: string[] = [];
  const isPage = topic.layout === "page";
  for (const image of topic.images) {
    const box =
      isPage || topic.texts.length === 0
        ? imageFillBox(topic, isPage)
        : { left: image.x, top: image.y, width: image.width, height: image.height };
    const data = images.get(image.src);
    parts.push(
      data
        ? `<image href="${xml(data)}" x="${n(box.left)}" y="${n(box.top)}" width="${n(box.width)}" height="${n(box.height)}" preserveAspectRatio="xMidYMid meet"/>`
        : `<rect x="${n(box.left)}" y="${n(box.top)}" width="${n(box.width)}" height="${n(box.height)}" fill="${palette["slide-head-bg"]}"/>`,
    );
  }
  // A page's text is its hidden text layer: the page image says it already.
  if (!isPage && topic.texts.length > 0) parts.push(textsMarkup(topic, palette));
  return parts.join("\n");
}

/** Drawing commands of the slide's texts, laid out top to bottom, then centred like the slide. */
function textsMarkup(topic: Topic, palette: SlidePalette): string {
  const box = textBox(topic);
  const columnWidth = topic.width - box.left - box.right;
  const available = topic.height - box.top - box.bottom;
  const fit = estimateFit(topic);
  const out: string[] = [];
  const column: TextColumn = { width: columnWidth, palette, out, maxHeight: available };
  let y = 0;
  topic.texts.forEach((text, index) => {
    if (index > 0) y += TEXT_GAP * fit;
    y = drawText(text, fontSizeOf(text) * fit, y, column);
  });
  const shift = box.top + Math.max(0, (available - y) / 2);
  return `<svg x="${n(box.left)}" y="${n(box.top)}" width="${n(columnWidth)}" height="${n(available)}" overflow="hidden"><g transform="translate(0 ${n(shift - box.top)})" font-family="${SANS}">
${out.join("\n")}
</g></svg>`;
}

/** Per style: colour, weight, line height and average glyph width in em (bolder is wider; kept generous so lines wrap before the edge). */
const STYLE: Record<string, { colour: keyof SlidePalette; weight: number; lineHeight: number; em: number }> = {
  title: { colour: "slide-title", weight: 800, lineHeight: 1.1, em: 0.62 },
  subtitle: { colour: "slide-subtitle", weight: 600, lineHeight: 1.2, em: 0.6 },
  subtitle_2: { colour: "slide-subtitle", weight: 600, lineHeight: 1.2, em: 0.6 },
  body: { colour: "slide-fg", weight: 400, lineHeight: 1.3, em: 0.55 },
  body_2: { colour: "slide-subtitle", weight: 400, lineHeight: 1.3, em: 0.55 },
};

/** The column the texts are drawn in: its width and height, their colours, and the drawing commands so far. */
interface TextColumn {
  width: number;
  maxHeight: number;
  palette: SlidePalette;
  out: string[];
}

/** Draws one text from `top` and returns where the next one starts. */
function drawText(text: Text, size: number, top: number, column: TextColumn): number {
  const { width, palette, out, maxHeight } = column;
  const style = STYLE[text.styleClasses[0] ?? "body"] ?? (STYLE.body as (typeof STYLE)[string]);
  if (text.kind === "code") return drawCode(text, size * CODE_SCALE, top, column);
  if (text.kind === "table") return drawTable(text, size, top, column);
  const quote = text.kind === "quote";
  let y = top;
  const left = quote ? size * 0.8 + size * 0.22 : 0;
  const counters: number[] = [];
  text.paragraphs.forEach((paragraph, index) => {
    if (y > maxHeight) return;
    if (index > 0) y += size * (paragraph.listType === "NONE" ? 0.35 : 0.3);
    const level = paragraph.level ?? 0;
    const listed = paragraph.listType !== "NONE";
    const indent = left + (listed ? size * 1.3 * (level + 1) : 0);
    let marker: string | null = null;
    if (paragraph.checked !== undefined) marker = paragraph.checked ? "☑" : "☐";
    else if (paragraph.listType === "BULLET") marker = "•";
    else if (paragraph.listType === "NUMBER") {
      counters.length = level + 1;
      const next = paragraph.number ?? (counters[level] ?? 0) + 1;
      counters[level] = next;
      marker = `${next}.`;
    }
    const lineHeight = size * style.lineHeight;
    const perLine = (width - indent) / (size * style.em);
    const maxLines = Math.max(1, Math.floor((maxHeight - y) / lineHeight) + 1);
    const lines = wrapOffsets(paragraph.text, perLine, Math.min(maxLines, 12));
    const runs = runsOf(paragraph);
    lines.forEach((line, lineIndex) => {
      const baseline = y + lineHeight * 0.5 + size * 0.35;
      if (lineIndex === 0 && marker) {
        out.push(
          `<text x="${n(indent - size * 0.35)}" y="${n(baseline)}" font-size="${n(size)}" font-weight="${marker.endsWith(".") ? 700 : 400}" text-anchor="end" fill="${palette["slide-accent"]}">${xml(marker)}</text>`,
        );
      }
      out.push(
        `<text x="${n(indent)}" y="${n(baseline)}" font-size="${n(size)}" font-weight="${style.weight}"${quote ? ' font-style="italic"' : ""} fill="${palette[style.colour]}">${spans(runs, line, palette)}</text>`,
      );
      y += lineHeight;
    });
  });
  if (quote) {
    out.push(
      `<rect x="0" y="${n(top)}" width="${n(size * 0.22)}" height="${n(y - top)}" fill="${palette["slide-accent"]}"/>`,
    );
  }
  return y;
}

function runsOf(paragraph: Pick<Paragraph, "text" | "runs">): Run[] {
  return paragraph.runs && paragraph.runs.length > 0 ? paragraph.runs : [{ text: paragraph.text }];
}

/** The runs that fall in a line, as tspans with their marks (links in the link colour). */
function spans(runs: Run[], line: Line, palette: SlidePalette): string {
  const parts: string[] = [];
  let offset = 0;
  for (const run of runs) {
    const start = Math.max(offset, line.start);
    const end = Math.min(offset + run.text.length, line.end);
    offset += run.text.length;
    if (end <= start) continue;
    const piece = xml(run.text.slice(start - (offset - run.text.length), end - (offset - run.text.length)));
    const attributes: string[] = [];
    const marks = run.marks ?? [];
    if (marks.includes("strong")) attributes.push('font-weight="800"');
    if (marks.includes("em")) attributes.push('font-style="italic"');
    if (marks.includes("strike")) attributes.push('text-decoration="line-through"');
    if (marks.includes("code")) attributes.push(`font-family="${MONO}"`);
    if (run.href) attributes.push(`fill="${palette["slide-link"]}" text-decoration="underline"`);
    parts.push(attributes.length > 0 ? `<tspan ${attributes.join(" ")}>${piece}</tspan>` : piece);
  }
  return `${parts.join("")}${line.cut ? "…" : ""}`;
}

/** Code: a tinted box, monospace lines in the token colours, cut (not wrapped) at the box's edge. */
function drawCode(text: Text, size: number, top: number, column: TextColumn): number {
  const { width, palette, out, maxHeight } = column;
  const pad = size * 0.8;
  const lineHeight = size * 1.4;
  const room = Math.max(1, Math.floor((maxHeight - top - pad * 2) / lineHeight));
  const lines = text.paragraphs.slice(0, room);
  const height = lines.length * lineHeight + pad * 2;
  const perLine = Math.floor((width - pad * 2) / (size * MONO_EM));
  out.push(
    `<rect x="0" y="${n(top)}" width="${n(width)}" height="${n(height)}" rx="${n(size * 0.4)}" fill="${palette["slide-code-bg"]}" stroke="${palette["slide-code-border"]}" stroke-width="2"/>`,
  );
  lines.forEach((paragraph, index) => {
    const baseline = top + pad + lineHeight * index + lineHeight * 0.5 + size * 0.35;
    const tspans: string[] = [];
    let used = 0;
    for (const run of runsOf(paragraph)) {
      if (used >= perLine) break;
      const piece = run.text.slice(0, perLine - used);
      used += piece.length;
      const colour = tokenColour(palette, run.token);
      tspans.push(colour ? `<tspan fill="${colour}">${xml(piece)}</tspan>` : xml(piece));
    }
    out.push(
      `<text x="${n(pad)}" y="${n(baseline)}" font-size="${n(size)}" font-family="${MONO}" fill="${palette["slide-code-fg"]}" xml:space="preserve">${tspans.join("")}</text>`,
    );
  });
  return top + height;
}

/** A table: header row tinted and bold, columns of equal width, rules between rows. */
function drawTable(text: Text, size: number, top: number, { width, palette, out }: TextColumn): number {
  const cellSize = size * 0.85;
  const rowHeight = cellSize * 1.9;
  const rows = text.paragraphs.map((p) =>
    p.cells ? p.cells.map((cell) => cell.map((r) => r.text).join("")) : p.text.split(" | "),
  );
  const columns = Math.max(1, ...rows.map((row) => row.length));
  const columnWidth = width / columns;
  const perCell = Math.max(1, Math.floor((columnWidth - cellSize) / (cellSize * SANS_EM)));
  rows.forEach((row, rowIndex) => {
    const y = top + rowIndex * rowHeight;
    if (rowIndex === 0) {
      out.push(
        `<rect x="0" y="${n(y)}" width="${n(width)}" height="${n(rowHeight)}" fill="${palette["slide-head-bg"]}"/>`,
      );
    }
    out.push(
      `<rect x="0" y="${n(y + rowHeight - 2)}" width="${n(width)}" height="2" fill="${palette["slide-rule"]}"/>`,
    );
    row.forEach((cell, column) => {
      const align = text.align?.[column];
      const anchor = align === "center" ? "middle" : align === "right" ? "end" : "start";
      const x =
        anchor === "middle"
          ? column * columnWidth + columnWidth / 2
          : anchor === "end"
            ? (column + 1) * columnWidth - cellSize * 0.5
            : column * columnWidth + cellSize * 0.5;
      const shown = cell.length > perCell ? `${cell.slice(0, perCell - 1)}…` : cell;
      out.push(
        `<text x="${n(x)}" y="${n(y + rowHeight * 0.5 + cellSize * 0.35)}" font-size="${n(cellSize)}" text-anchor="${anchor}" font-weight="${rowIndex === 0 ? 700 : 400}" fill="${palette[rowIndex === 0 ? "slide-title" : "slide-fg"]}">${xml(shown)}</text>`,
      );
    });
  });
  return top + rows.length * rowHeight;
}
