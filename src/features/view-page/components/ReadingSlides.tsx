import { type CanvasRect, cameraTransform, firstStepNumbers, topicRects } from "../../../document/camera";
import type { PresentationDocument, Theme, Topic } from "../../../document/schema";
import { FormattedMessage } from "../../../i18n/intl";
import { Icon } from "../../../ui/Icon";
import { slideThemeClass, TopicView } from "../../presentation/components/slide/SlideView";
import { SpeakerNotes, TranscriptTextView } from "../../presentation/components/TranscriptText";
import { topicsById } from "../../presentation/presenter/slides";

/**
 * Issue 12, reading mode: each step of the path as a section — a heading "Slide N of M", the slide
 * drawn by the shared renderer (TopicView, real DOM text, scaled to the column by CSS), its text at a
 * readable size with its speaker notes, and a link to play from there. Drawn on the server only: the
 * browser keeps this markup (ServerMarkup), so the renderer isn't among the page's scripts.
 */
export function ReadingSlides({ document, playerPath }: { document: PresentationDocument; playerPath: string }) {
  const topics = topicsById(document);
  const rects = topicRects(document);
  const firstSteps = firstStepNumbers(document);
  const total = document.path.length;
  return (
    <>
      {document.path.map((topicId, index) => {
        const step = index + 1;
        const topic = topics.get(topicId);
        const rect = rects.get(topicId);
        if (!topic || !rect) return null;
        const firstStep = firstSteps.get(topicId) ?? step;
        return (
          <section key={step} id={`step-${step}`} className="reading-slide" aria-labelledby={`step-${step}-heading`}>
            <h2 id={`step-${step}-heading`} className="reading-slide__heading">
              <FormattedMessage id="reading.slideOf" values={{ number: step, total }} />
            </h2>
            <SlideFrame topic={topic} rect={rect} theme={document.theme} />
            <div className="reading-slide__text transcript">
              {firstStep === step ? (
                <>
                  {topic.layout === "page" || topic.texts.length > 0 ? null : <ImageDescriptions topic={topic} />}
                  {topic.texts.map((text) => (
                    <TranscriptTextView key={text.id} text={text} />
                  ))}
                  {topic.notes?.trim() ? <SpeakerNotes notes={topic.notes.trim()} /> : null}
                </>
              ) : (
                <p className="reading-slide__again">
                  <a href={`#step-${firstStep}`}>
                    <FormattedMessage id="reading.shownBefore" values={{ number: firstStep }} />
                  </a>
                </p>
              )}
            </div>
            <a className="reading-slide__play" href={`${playerPath}#step=${step}`}>
              <Icon size={16} path="M8 5v14l11-7z" />
              <FormattedMessage id="reading.playFrom" values={{ number: step }} />
            </a>
          </section>
        );
      })}
    </>
  );
}

/**
 * The slide as the player frames it: the camera's transform for this step maps the topic onto a
 * box of its own size, and CSS scales that box to the column (`--frame` ÷ `--w`). Its text is in
 * the section below, so the picture is hidden from assistive technology and can't take focus.
 */
function SlideFrame({ topic, rect, theme }: { topic: Topic; rect: CanvasRect; theme: Theme | undefined }) {
  const local = { ...rect, x: topic.x, y: topic.y };
  return (
    <div
      className={`reading-slide__frame ${slideThemeClass(theme)}`}
      style={{ aspectRatio: `${rect.width} / ${rect.height}`, ["--w" as string]: rect.width }}
      aria-hidden="true"
      inert
    >
      <div
        className="reading-slide__canvas slide-canvas"
        style={{ transform: cameraTransform(local, { width: rect.width, height: rect.height }, 0) }}
      >
        <TopicView topic={topic} lazyImages />
      </div>
    </div>
  );
}

/** A slide of pictures only: what the pictures show, from their alternative text. */
function ImageDescriptions({ topic }: { topic: Topic }) {
  const alts = topic.images.map((image) => image.alt.trim()).filter(Boolean);
  if (alts.length === 0) return null;
  return (
    <ul className="reading-slide__images">
      {alts.map((alt, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static content, never reordered
        <li key={index}>{alt}</li>
      ))}
    </ul>
  );
}
