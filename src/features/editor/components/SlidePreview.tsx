import { useEffect, useMemo, useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import type { Text } from "../../presentation/document/schema";
import { type EditorPreview, previewOf } from "../preview";

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

/**
 * The live preview of the editor's Markdown: each slide's titles, subtitles, text and bullets.
 * The server sends the preview of the stored Markdown (read in a worker thread, never on the
 * request loop); the browser reads what the person types.
 */
export function SlidePreview({
  markdown,
  schemaVersion,
  initialMarkdown,
  initialPreview,
}: {
  markdown: string;
  schemaVersion: "0" | "2";
  initialMarkdown: string;
  initialPreview: EditorPreview;
}) {
  const intl = useIntl();
  const settled = useDebounced(markdown, PREVIEW_DEBOUNCE_MS);
  const preview = useMemo(
    () => (settled === initialMarkdown ? initialPreview : previewOf(settled, schemaVersion)),
    [settled, schemaVersion, initialMarkdown, initialPreview],
  );
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
