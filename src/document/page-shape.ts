import { type PresentationDocument, type Topic, topicsById } from "./schema";

/**
 * Issue 28, item 2: a deck's page shape (width ÷ height), which the player sizes its stage to.
 * Markdown slides are 16:9; a PDF's pages are as the PDF says (portrait, square, 4:3…, or a mix).
 * Pure: the server puts the shape in the page data, so the page is drawn the right shape before
 * any script runs (no jump when the player hydrates or the document arrives).
 */

/** A PDF's page images are drawn this wide (the slide's width in canvas units too; issue 10, item 4). */
export const PDF_PAGE_WIDTH = 1600;

/** The shape of a deck with nothing to go by (Markdown's slides, the thumbnail's title slide). */
export const DEFAULT_PAGE_ASPECT = 16 / 9;
/**
 * Shapes closer than this count as one (a PDF's pages in points, rounded to whole canvas units,
 * differ in the fourth decimal; A4 and US Letter, 0.707 and 0.773, stay apart).
 */
const SAME_SHAPE = 0.01;

/** A topic's width ÷ height, or the default for a topic of no size. */
export function aspectOf(topic: Pick<Topic, "width" | "height"> | null | undefined): number {
  if (!topic || !(topic.width > 0) || !(topic.height > 0)) return DEFAULT_PAGE_ASPECT;
  return topic.width / topic.height;
}

/**
 * The deck's page shape: the shape most of the path's slides have (a topic with text or images
 * of its own; an overview frame around the slides doesn't count), the first one's on a tie. A
 * deck of mixed shapes gets its commonest one; the others fit the stage with bars beside or
 * above them.
 */
export function deckPageAspect(document: Pick<PresentationDocument, "topics" | "path">): number {
  const byId = topicsById(document);
  const counts: { aspect: number; count: number }[] = [];
  const seen = new Set<string>();
  for (const id of document.path) {
    const topic = byId.get(id);
    if (!topic || seen.has(id) || (topic.texts.length === 0 && topic.images.length === 0)) continue;
    seen.add(id);
    const aspect = aspectOf(topic);
    const same = counts.find((entry) => Math.abs(entry.aspect - aspect) < SAME_SHAPE);
    if (same) same.count += 1;
    else counts.push({ aspect, count: 1 });
  }
  let best: { aspect: number; count: number } | undefined;
  for (const entry of counts) if (!best || entry.count > best.count) best = entry;
  return best?.aspect ?? DEFAULT_PAGE_ASPECT;
}

/** A shape as a CSS number (four decimals: a pixel's worth on any screen). */
export function cssAspect(aspect: number): number {
  return Number(aspect.toFixed(4));
}

/** What the player needs before it has the document: the stage's shape and the poster's own. */
export interface PageShape {
  /** The deck's page shape (width ÷ height): the stage takes it. */
  pageAspect: number;
  /** The poster's page (the first slide with content): in a mixed deck it may differ from the stage's. */
  posterAspect: number;
}

export function pageShapeOf(document: PresentationDocument): PageShape {
  // A kept document is the same object on every render (issue 32 item 5): its shape is worked out once.
  let shape = shapes.get(document);
  if (!shape) {
    shape = {
      pageAspect: cssAspect(deckPageAspect(document)),
      posterAspect: cssAspect(aspectOf(posterTopicOf(document))),
    };
    shapes.set(document, shape);
  }
  return shape;
}

const shapes = new WeakMap<PresentationDocument, PageShape>();

/** The first topic on the path that holds text or images: what a thumbnail or poster shows. */
export function posterTopicOf(document: PresentationDocument): Topic | null {
  const byId = topicsById(document);
  for (const step of document.path) {
    const topic = byId.get(step);
    if (topic && (topic.texts.length > 0 || topic.images.length > 0)) return topic;
  }
  return null;
}
