import { importMarkdown, MarkdownImportError } from "../../document/markdown";
import { type Image, type PresentationDocument, type Text, type Topic, walkTopics } from "../../document/schema";
import type { MessageId } from "../../i18n/locales";

/** What the editor's preview shows: the slides the Markdown makes, or why it makes none. */
export interface PreviewSlide {
  id: string;
  texts: Text[];
  /** The slide's images (the preview draws them with the slide renderer). */
  images: Image[];
  /** The slide's frame, so the preview draws it like the player (canvas units). */
  width: number;
  height: number;
  background: Topic["background"];
  layout?: Topic["layout"];
}

export type EditorPreview =
  | { slides: PreviewSlide[] }
  | { problem: { id: MessageId; values?: Record<string, number> } };

/** The slides the player visits, in path order (topics without content, like an overview, are skipped). */
function slidesOf(document: PresentationDocument): PreviewSlide[] {
  const byId = new Map<string, Topic>();
  for (const { topic } of walkTopics(document.topics)) byId.set(topic.id, topic);
  const seen = new Set<string>();
  const slides: PreviewSlide[] = [];
  for (const step of document.path) {
    const topic = byId.get(step);
    if (!topic || seen.has(step) || (topic.texts.length === 0 && topic.images.length === 0)) continue;
    seen.add(step);
    slides.push({
      id: topic.id,
      texts: topic.texts,
      images: topic.images,
      width: topic.width,
      height: topic.height,
      background: topic.background,
      ...(topic.layout ? { layout: topic.layout } : {}),
    });
  }
  return slides;
}

/** Reads the Markdown with the same importer that saves it, so the preview shows what Save stores. */
export function previewOf(markdown: string, schemaVersion: "0" | "2"): EditorPreview {
  try {
    return { slides: slidesOf(importMarkdown(markdown, schemaVersion)) };
  } catch (error) {
    if (!(error instanceof MarkdownImportError)) return { problem: { id: "editor.error.markdown.invalid" } };
    const { problem } = error;
    if (problem.code === "noSlides") return { problem: { id: "editor.error.markdown.noSlides" } };
    if (problem.code === "tooManySlides") {
      return { problem: { id: "editor.error.markdown.tooManySlides", values: problem.values } };
    }
    return { problem: { id: "editor.error.markdown.tooLarge", values: { limit: problem.values.limit } } };
  }
}
