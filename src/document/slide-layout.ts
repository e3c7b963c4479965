import type { Text, Theme, Topic } from "./schema";

/**
 * How a slide is laid out, in canvas units: shared by the DOM renderer
 * (components/slide/SlideView.tsx) and the SVG thumbnail (thumbnail.ts), so the poster is
 * drawn like the slide. Pure: no DOM, no CSS, no zod.
 */

/** Padding of a slide's content, as fractions of the topic (canvas units scale with it). */
export const SLIDE_PADDING = { vertical: 0.08, horizontal: 0.07 } as const;
/** The smallest fit factor: past this the text would be unreadable anyway (it is clipped). */
export const MIN_FIT = 0.3;
/** Space between the texts of a slide, and around images beside text, in canvas units. */
export const TEXT_GAP = 28;

/** An image with no text beside it, or a page: it fills the topic (inside the padding for slides). */
export function imageFillBox(topic: Topic, isPage: boolean) {
  if (isPage) return { left: 0, top: 0, width: topic.width, height: topic.height };
  const padX = topic.width * SLIDE_PADDING.horizontal;
  const padY = topic.height * SLIDE_PADDING.vertical;
  return { left: padX, top: padY, width: topic.width - padX * 2, height: topic.height - padY * 2 };
}

/** A text's size in canvas units: its biggest paragraph (or its style's default). */
export function fontSizeOf(text: Text): number {
  let size = 0;
  for (const p of text.paragraphs) size = Math.max(size, p.biggestFontSize);
  if (size > 0) return size;
  return DEFAULT_SIZE[text.styleClasses[0] ?? "body"] ?? 36;
}
const DEFAULT_SIZE: Record<string, number> = { title: 96, subtitle: 56, subtitle_2: 44, body: 36, body_2: 30 };
/** Code is set a little smaller than the body it sits in. */
export const CODE_SCALE = 0.8;

/** Where a slide's text column ends: before images that stand on the right half, else the padding. */
export function textBox(topic: Topic) {
  const padX = topic.width * SLIDE_PADDING.horizontal;
  const padY = topic.height * SLIDE_PADDING.vertical;
  let right = padX;
  const besideX = Math.min(...topic.images.map((image) => image.x));
  if (topic.images.length > 0 && besideX >= topic.width * 0.4) right = topic.width - besideX + TEXT_GAP;
  return { top: padY, bottom: padY, left: padX, right };
}

/**
 * A first guess of the fit factor from the texts' lengths (about 0.52 em per character, line
 * height 1.3; code 0.6 em per character, no wrapping). Deterministic, so the server and the
 * browser's first render agree; the layout effect replaces it with a measurement.
 */
export function estimateFit(topic: Topic): number {
  const box = textBox(topic);
  const width = topic.width - box.left - box.right;
  const height = topic.height - box.top - box.bottom;
  if (width <= 0 || height <= 0) return MIN_FIT;
  let widest = 0;
  for (const text of topic.texts) {
    if (text.kind !== "code") continue;
    const codeSize = fontSizeOf(text) * CODE_SCALE;
    for (const p of text.paragraphs) widest = Math.max(widest, (p.text.length * 0.6 * codeSize) / width);
  }
  // Smaller text wraps less, so the height needed isn't linear in the factor: search for it.
  let low = MIN_FIT;
  let high = widest > 1 ? Math.max(MIN_FIT, 1 / widest) : 1;
  if (heightAt(topic, high, width) <= height) return Number(high.toFixed(3));
  for (let step = 0; step < 12; step += 1) {
    const middle = (low + high) / 2;
    if (heightAt(topic, middle, width) <= height) low = middle;
    else high = middle;
  }
  return Number(low.toFixed(3));
}

/** The estimated height of a topic's texts at a fit factor, in canvas units. */
function heightAt(topic: Topic, fit: number, width: number): number {
  let needed = 0;
  for (const text of topic.texts) {
    const size = fontSizeOf(text) * fit;
    if (text.kind === "code") {
      const codeSize = size * CODE_SCALE;
      needed += text.paragraphs.length * codeSize * 1.4 + codeSize * 2.4;
    } else if (text.kind === "table") {
      needed += text.paragraphs.length * size * 0.85 * 1.9;
    } else {
      for (const p of text.paragraphs) {
        const indent = p.listType === "NONE" ? 0 : (1.3 + (p.level ?? 0) * 1.3) * size;
        const perLine = Math.max(1, (width - indent) / (size * 0.52));
        needed += Math.max(1, Math.ceil(p.text.length / perLine)) * size * 1.3 + size * 0.3;
      }
    }
    needed += TEXT_GAP * fit;
  }
  return needed;
}

/** A slide theme's colours (slide.css sets the same values as custom properties; a test keeps them equal). */
export interface SlidePalette {
  "slide-bg": string;
  "slide-fg": string;
  "slide-title": string;
  "slide-subtitle": string;
  "slide-muted": string;
  "slide-link": string;
  "slide-accent": string;
  "slide-rule": string;
  "slide-head-bg": string;
  "slide-code-bg": string;
  "slide-code-fg": string;
  "slide-code-border": string;
  "slide-stage": string;
  "tok-keyword": string;
  "tok-string": string;
  "tok-comment": string;
  "tok-number": string;
  "tok-title": string;
  "tok-type": string;
  "tok-attr": string;
  "tok-meta": string;
  "tok-deletion": string;
}

export const SLIDE_PALETTES: Record<Theme, SlidePalette> = {
  light: {
    "slide-bg": "#ffffff",
    "slide-fg": "#1b1f2a",
    "slide-title": "#23207f",
    "slide-subtitle": "#3d4456",
    "slide-muted": "#4b5263",
    "slide-link": "#1a4fb8",
    "slide-accent": "#5b57d6",
    "slide-rule": "#8a90a0",
    "slide-head-bg": "#eef0f6",
    "slide-code-bg": "#f3f4f8",
    "slide-code-fg": "#1f2430",
    "slide-code-border": "#d5d9e3",
    "slide-stage": "#161a24",
    "tok-keyword": "#a3125a",
    "tok-string": "#1d6b2a",
    "tok-comment": "#5a6170",
    "tok-number": "#8a4600",
    "tok-title": "#1a4fb8",
    "tok-type": "#6f35a8",
    "tok-attr": "#0a6674",
    "tok-meta": "#6b5000",
    "tok-deletion": "#b3261e",
  },
  dark: {
    "slide-bg": "#161b26",
    "slide-fg": "#e8ebf2",
    "slide-title": "#ffffff",
    "slide-subtitle": "#c4cad8",
    "slide-muted": "#aab2c3",
    "slide-link": "#8ab4ff",
    "slide-accent": "#8e8bff",
    "slide-rule": "#5d6880",
    "slide-head-bg": "#222a3a",
    "slide-code-bg": "#0c1018",
    "slide-code-fg": "#e6e9ef",
    "slide-code-border": "#2e3648",
    "slide-stage": "#05070b",
    "tok-keyword": "#ff7ab6",
    "tok-string": "#9ee493",
    "tok-comment": "#9aa4b5",
    "tok-number": "#ffb86b",
    "tok-title": "#82b1ff",
    "tok-type": "#d2a8ff",
    "tok-attr": "#5fd7e0",
    "tok-meta": "#e0c46c",
    "tok-deletion": "#ff8a80",
  },
  contrast: {
    "slide-bg": "#000000",
    "slide-fg": "#ffffff",
    "slide-title": "#ffffff",
    "slide-subtitle": "#ffffff",
    "slide-muted": "#e6e6e6",
    "slide-link": "#ffeb3b",
    "slide-accent": "#ffeb3b",
    "slide-rule": "#ffffff",
    "slide-head-bg": "#1f1f1f",
    "slide-code-bg": "#000000",
    "slide-code-fg": "#ffffff",
    "slide-code-border": "#ffffff",
    "slide-stage": "#000000",
    "tok-keyword": "#ff9ed8",
    "tok-string": "#9dff9d",
    "tok-comment": "#d9d9d9",
    "tok-number": "#ffc266",
    "tok-title": "#9cd5ff",
    "tok-type": "#e3b8ff",
    "tok-attr": "#66ffff",
    "tok-meta": "#ffe08a",
    "tok-deletion": "#ff9e9e",
  },
};

/** The palette colour of a highlight.js token ("title function_" → tok-title), or null for plain code. */
export function tokenColour(palette: SlidePalette, token: string | undefined): string | null {
  if (!token) return null;
  for (const name of token.split(" ")) {
    const group = TOKEN_GROUPS[name];
    if (group) return palette[group];
  }
  return null;
}

const TOKEN_GROUPS: Record<string, keyof SlidePalette> = {
  keyword: "tok-keyword",
  "selector-tag": "tok-keyword",
  doctag: "tok-keyword",
  "template-tag": "tok-keyword",
  operator: "tok-keyword",
  string: "tok-string",
  regexp: "tok-string",
  char: "tok-string",
  addition: "tok-string",
  link: "tok-string",
  comment: "tok-comment",
  quote: "tok-comment",
  number: "tok-number",
  literal: "tok-number",
  symbol: "tok-number",
  bullet: "tok-number",
  title: "tok-title",
  section: "tok-title",
  function_: "tok-title",
  name: "tok-title",
  "selector-id": "tok-title",
  built_in: "tok-type",
  type: "tok-type",
  class_: "tok-type",
  "selector-class": "tok-type",
  tag: "tok-type",
  attr: "tok-attr",
  attribute: "tok-attr",
  property: "tok-attr",
  variable: "tok-attr",
  params: "tok-attr",
  "template-variable": "tok-attr",
  "selector-attr": "tok-attr",
  "selector-pseudo": "tok-attr",
  meta: "tok-meta",
  subst: "tok-meta",
  deletion: "tok-deletion",
};
