import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { Theme, Topic } from "../../../document/schema";
import { FormattedMessage } from "../../../i18n/intl";
import { slideThemeClass, TopicView } from "../../presentation/components/slide/SlideView";
import { type EditorPreview, type PreviewSlide, previewOf } from "../preview";

/** Product brief: the preview follows typing, a moment after it stops. */
export const PREVIEW_DEBOUNCE_MS = 300;

/** Waits until the value has stopped changing for `delay` ms. */
function useDebounced<Value>(value: Value, delay: number): Value {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), delay);
    return () => window.clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

/** The width (px) the preview's slides are drawn at before the browser measures the column. */
export const PREVIEW_DEFAULT_WIDTH = 400;

/** One slide drawn by the player's renderer on its 1600×900 canvas, scaled into the preview's width. */
function PreviewCanvas({ slide }: { slide: PreviewSlide }) {
  const topic: Topic = {
    id: slide.id,
    x: 0,
    y: 0,
    width: slide.width,
    height: slide.height,
    rotation: 0,
    background: slide.background,
    texts: slide.texts,
    images: slide.images,
    topics: [],
    layout: slide.layout,
  };
  return (
    <div className="preview-slide__frame" style={{ aspectRatio: `${slide.width} / ${slide.height}` }}>
      <div
        className="preview-slide__canvas"
        style={{
          width: slide.width,
          height: slide.height,
          transform: `scale(calc(var(--preview-width, ${PREVIEW_DEFAULT_WIDTH}) / ${slide.width}))`,
        }}
      >
        <TopicView topic={topic} />
      </div>
    </div>
  );
}

/** Follows the width of the preview's list (every slide is as wide as it) as a CSS variable. */
function usePreviewWidth(shown: boolean) {
  const ref = useRef<HTMLOListElement>(null);
  const [width, setWidth] = useState<number | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the list appears when there are slides; observe it then
  useLayoutEffect(() => {
    const list = ref.current;
    if (!list) return;
    setWidth(list.clientWidth);
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(entry.contentRect.width);
    });
    observer.observe(list);
    return () => observer.disconnect();
  }, [shown]);
  return { ref, width };
}

/**
 * The live preview of the editor's Markdown: each slide drawn by the player's own renderer
 * (slide/SlideView.tsx), its 1600×900 canvas scaled into the preview's width by a CSS transform.
 * The server sends the preview of the stored Markdown (read in a worker thread, never on the
 * request loop); the browser reads what the person types.
 */
export function SlidePreview({
  markdown,
  schemaVersion,
  initialMarkdown,
  initialPreview,
  theme,
}: {
  markdown: string;
  schemaVersion: "0" | "2";
  initialMarkdown: string;
  initialPreview: EditorPreview;
  /** The deck's slide theme (the Markdown doesn't carry it); light by default. */
  theme?: Theme | undefined;
}) {
  const settled = useDebounced(markdown, PREVIEW_DEBOUNCE_MS);
  const preview = useMemo(
    () => (settled === initialMarkdown ? initialPreview : previewOf(settled, schemaVersion)),
    [settled, schemaVersion, initialMarkdown, initialPreview],
  );
  const list = usePreviewWidth("slides" in preview);
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
        <ol
          ref={list.ref}
          className={`editor-preview__slides ${slideThemeClass(theme)}`}
          style={list.width ? { ["--preview-width" as string]: list.width } : undefined}
        >
          {preview.slides.map((slide, index) => (
            <li key={slide.id} className="preview-slide">
              <span className="preview-slide__number">
                <FormattedMessage id="editor.preview.slide" values={{ number: index + 1 }} />
              </span>
              <PreviewCanvas slide={slide} />
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
