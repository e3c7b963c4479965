import { type PresentationDocument, type Topic, topicsById } from "./schema";

export { topicsById };

/** A topic's rectangle on the canvas (topic x/y are relative to the parent topic). */
export interface CanvasRect {
  x: number;
  y: number;
  width: number;
  height: number;
  rotation: number;
}

/** Absolute canvas rectangles of every topic, by id. */
export function topicRects(document: PresentationDocument): Map<string, CanvasRect> {
  const rects = new Map<string, CanvasRect>();
  const visit = (topics: Topic[], originX: number, originY: number) => {
    for (const topic of topics) {
      const x = originX + topic.x;
      const y = originY + topic.y;
      rects.set(topic.id, { x, y, width: topic.width, height: topic.height, rotation: topic.rotation });
      visit(topic.topics, x, y);
    }
  };
  visit(document.topics, 0, 0);
  return rects;
}

/**
 * The CSS transform (origin 0 0) that fits a canvas rectangle in a viewport, centred, with
 * a little breathing room, and turns the canvas so a rotated topic reads upright.
 */
export function cameraTransform(rect: CanvasRect, viewport: { width: number; height: number }, padding = 0.04): string {
  const scale = Math.min(viewport.width / rect.width, viewport.height / rect.height) * (1 - padding * 2);
  const centreX = rect.x + rect.width / 2;
  const centreY = rect.y + rect.height / 2;
  const safe = (n: number) => Number(n.toFixed(4));
  return `translate(${safe(viewport.width / 2)}px, ${safe(viewport.height / 2)}px) scale(${safe(scale)}) rotate(${safe(-rect.rotation)}deg) translate(${safe(-centreX)}px, ${safe(-centreY)}px)`;
}

/**
 * The topic's outline on the canvas as a CSS `clip-path` polygon in canvas units (the canvas's
 * own coordinates, so it moves and scales with the camera): its rectangle turned by its rotation
 * about its centre, as the topic itself is drawn. Issue 12: a phone's player clips the canvas to
 * the step's topic, so neighbouring slides never show around it.
 */
export function topicClipPath(rect: CanvasRect): string {
  const centreX = rect.x + rect.width / 2;
  const centreY = rect.y + rect.height / 2;
  const angle = (rect.rotation * Math.PI) / 180;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const safe = (n: number) => Number(n.toFixed(2));
  const corners = [
    [-rect.width / 2, -rect.height / 2],
    [rect.width / 2, -rect.height / 2],
    [rect.width / 2, rect.height / 2],
    [-rect.width / 2, rect.height / 2],
  ].map(([dx = 0, dy = 0]) => `${safe(centreX + dx * cos - dy * sin)}px ${safe(centreY + dx * sin + dy * cos)}px`);
  return `polygon(${corners.join(", ")})`;
}

/** Same-origin image URLs the document needs (the loading phase fetches them all). */
export function documentImageUrls(document: PresentationDocument): string[] {
  const urls = new Set<string>();
  const visit = (topics: Topic[]) => {
    for (const topic of topics) {
      for (const image of topic.images) urls.add(image.src);
      visit(topic.topics);
    }
  };
  visit(document.topics);
  return [...urls];
}

/**
 * An overview frames more slides than can be read at once: past this many, the slides' own
 * text is drawn too small (a 50-slide classic deck would show 50 slides of 8 px text), so
 * the overview step draws each slide's step number and title large over it instead.
 */
export const OVERVIEW_READABLE_SLIDES = 9;

/** Whether a step's topic is an overview too crowded to read (a frame without text of its own around many slides). */
export function isCrowdedOverview(topic: Topic | undefined): boolean {
  if (!topic || topic.texts.length > 0 || topic.layout === "page") return false;
  let slides = 0;
  const count = (topics: Topic[]) => {
    for (const child of topics) {
      if (child.texts.length > 0 || child.images.length > 0) slides += 1;
      count(child.topics);
    }
  };
  count(topic.topics);
  return slides > OVERVIEW_READABLE_SLIDES;
}

/** Each topic's first step on the path (1-based), as the step counter shows it. */
export function firstStepNumbers(document: PresentationDocument): Map<string, number> {
  const steps = new Map<string, number>();
  document.path.forEach((id, index) => {
    if (!steps.has(id)) steps.set(id, index + 1);
  });
  return steps;
}
