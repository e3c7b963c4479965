import { escapeHtml } from "../../lib/html";
import type { PresentationDocument, Topic } from "./document/schema";

/** Thumbnails are drawn by Podium itself (product brief: no network), as SVG of the first slide. */
export const THUMBNAIL_SIZE = { width: 640, height: 360 } as const;

/** Calm gradients that keep white text above 4.5:1 contrast. */
const THUMBNAIL_THEMES = [
  ["#1e3a8a", "#3b5bdb"],
  ["#5b21b6", "#7c3aed"],
  ["#9d174d", "#be185d"],
  ["#0f766e", "#0e7490"],
  ["#9a3412", "#b45309"],
  ["#374151", "#1f2937"],
] as const;

export function themeFor(key: string): readonly [string, string] {
  let hash = 7;
  for (const char of key) hash = (Math.imul(hash, 31) + (char.codePointAt(0) ?? 0)) | 0;
  return THUMBNAIL_THEMES[Math.abs(hash) % THUMBNAIL_THEMES.length] ?? THUMBNAIL_THEMES[0];
}

/** The first topic on the path that holds text: what a thumbnail or poster shows. */
export function posterTopicOf(document: PresentationDocument): Topic | null {
  const byId = new Map<string, Topic>();
  const index = (topics: Topic[]) => {
    for (const topic of topics) {
      byId.set(topic.id, topic);
      index(topic.topics);
    }
  };
  index(document.topics);
  for (const step of document.path) {
    const topic = byId.get(step);
    if (topic && (topic.texts.length > 0 || topic.images.length > 0)) return topic;
  }
  return null;
}

/** Wraps text into at most `maxLines` lines of about `perLine` characters. */
export function wrapLines(text: string, perLine: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > perLine) {
      lines.push(line);
      line = word;
      if (lines.length === maxLines) break;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (lines.length < maxLines && line) lines.push(line);
  const consumed = lines.join(" ").length;
  if (consumed < text.trim().length && lines.length > 0) {
    const last = lines.length - 1;
    lines[last] = `${(lines[last] ?? "").replace(/\s*\S{0,3}$/, "")}…`;
  }
  return lines;
}

export function renderThumbnailSvg(input: { key: string; title: string; subtitle: string | null }): string {
  const { width, height } = THUMBNAIL_SIZE;
  const [from, to] = themeFor(input.key);
  const titleLines = wrapLines(input.title, 26, 3);
  const subtitleLines = input.subtitle ? wrapLines(input.subtitle, 44, 2) : [];
  const titleSize = 38;
  const lineHeight = 46;
  const blockHeight = titleLines.length * lineHeight + subtitleLines.length * 30 + (subtitleLines.length ? 16 : 0);
  let y = (height - blockHeight) / 2 + titleSize;
  const tspans: string[] = [];
  for (const line of titleLines) {
    tspans.push(`<text x="48" y="${y}" font-size="${titleSize}" font-weight="700">${escapeHtml(line)}</text>`);
    y += lineHeight;
  }
  y += 8;
  for (const line of subtitleLines) {
    tspans.push(`<text x="48" y="${y}" font-size="22" opacity="0.9">${escapeHtml(line)}</text>`);
    y += 30;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(input.title)}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
<rect width="${width}" height="${height}" fill="url(#g)"/>
<circle cx="${width - 70}" cy="70" r="120" fill="#ffffff" opacity="0.07"/>
<circle cx="${width - 20}" cy="${height - 10}" r="90" fill="#ffffff" opacity="0.05"/>
<g fill="#ffffff" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', sans-serif">
${tspans.join("\n")}
</g>
<rect x="48" y="${height - 40}" width="48" height="4" rx="2" fill="#ffffff" opacity="0.8"/>
</svg>`;
}

/** Title and subtitle of a topic, for its thumbnail. */
export function headlineOf(topic: Topic | null, fallbackTitle: string): { title: string; subtitle: string | null } {
  const textOf = (style: string) =>
    topic?.texts
      .find((t) => t.styleClasses.includes(style as never))
      ?.paragraphs.map((p) => p.text)
      .join(" ") ?? null;
  return { title: textOf("title") ?? fallbackTitle, subtitle: textOf("subtitle") ?? textOf("body") };
}
