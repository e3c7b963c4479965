import { useEffect, useMemo, useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import type { MessageId } from "../../../i18n/locales";
import { importMarkdown, MarkdownImportError } from "../../presentation/document/markdown";
import { type PresentationDocument, type Text, type Topic, walkTopics } from "../../presentation/document/schema";

/** Product brief: the preview follows typing, a moment after it stops. */
export const PREVIEW_DEBOUNCE_MS = 300;

interface PreviewSlide {
  id: string;
  texts: Text[];
  images: { id: string; alt: string }[];
}

type Preview = { slides: PreviewSlide[] } | { problem: { id: MessageId; values?: Record<string, number> } };

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
    slides.push({ id: topic.id, texts: topic.texts, images: topic.images.map(({ id, alt }) => ({ id, alt })) });
  }
  return slides;
}

/** Reads the Markdown with the same importer that saves it, so the preview shows what Save stores. */
export function previewOf(markdown: string, schemaVersion: "0" | "2"): Preview {
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

/** Waits until the value has stopped changing for `delay` ms. */
function useDebounced<Value>(value: Value, delay: number): Value {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), delay);
    return () => window.clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

const STYLE_CLASS: Record<string, string> = {
  title: "preview-slide__title",
  subtitle: "preview-slide__subtitle",
  subtitle_2: "preview-slide__subtitle-2",
};

function PreviewText({ text }: { text: Text }) {
  const style = text.styleClasses[0] ?? "body";
  const heading = STYLE_CLASS[style];
  if (heading) {
    return (
      <>
        {text.paragraphs.map((paragraph, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: paragraphs have no ids; their order is their identity
          <p key={index} className={heading}>
            {paragraph.text}
          </p>
        ))}
      </>
    );
  }
  // Consecutive bullets form one list; other paragraphs stand alone.
  const groups: { bullet: boolean; texts: string[] }[] = [];
  for (const paragraph of text.paragraphs) {
    const bullet = paragraph.listType === "BULLET";
    const last = groups.at(-1);
    if (last?.bullet && bullet) last.texts.push(paragraph.text);
    else groups.push({ bullet, texts: [paragraph.text] });
  }
  return (
    <>
      {groups.map((group, index) =>
        group.bullet ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: groups have no ids; their order is their identity
          <ul key={index} className="preview-slide__bullets">
            {group.texts.map((item, itemIndex) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              <li key={itemIndex}>{item}</li>
            ))}
          </ul>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <p key={index} className="preview-slide__body">
            {group.texts[0]}
          </p>
        ),
      )}
    </>
  );
}

/** The live preview of the editor's Markdown: each slide's titles, subtitles, text and bullets. */
export function SlidePreview({ markdown, schemaVersion }: { markdown: string; schemaVersion: "0" | "2" }) {
  const intl = useIntl();
  const settled = useDebounced(markdown, PREVIEW_DEBOUNCE_MS);
  const preview = useMemo(() => previewOf(settled, schemaVersion), [settled, schemaVersion]);
  return (
    // A scrolling region is reachable by keyboard (it can be scrolled with the arrow keys).
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus (WCAG 2.1.1)
    <section className="editor-preview" aria-labelledby="editor-preview-title" tabIndex={0}>
      <div className="editor-preview__head">
        <h2 id="editor-preview-title">
          <FormattedMessage id="editor.preview.title" />
        </h2>
        <p className="editor-preview__count" aria-live="polite" data-testid="preview-count">
          {"slides" in preview ? (
            <FormattedMessage id="editor.preview.count" values={{ count: preview.slides.length }} />
          ) : (
            <FormattedMessage id="editor.preview.unavailable" />
          )}
        </p>
      </div>
      {"slides" in preview ? (
        <ol className="editor-preview__slides">
          {preview.slides.map((slide, index) => (
            <li key={slide.id} className="preview-slide">
              <span className="preview-slide__number">
                <FormattedMessage id="editor.preview.slide" values={{ number: index + 1 }} />
              </span>
              <div className="preview-slide__canvas">
                {slide.texts.map((text) => (
                  <PreviewText key={text.id} text={text} />
                ))}
                {slide.images.map((image) => (
                  <p key={image.id} className="preview-slide__image">
                    {image.alt
                      ? intl.formatMessage({ id: "editor.preview.image" }, { alt: image.alt })
                      : intl.formatMessage({ id: "editor.preview.imageNoAlt" })}
                  </p>
                ))}
              </div>
            </li>
          ))}
        </ol>
      ) : (
        <p className="editor-preview__problem" role="status">
          <FormattedMessage id={preview.problem.id} values={preview.problem.values} />
        </p>
      )}
    </section>
  );
}
