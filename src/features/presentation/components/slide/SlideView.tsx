import { useLayoutEffect, useRef, useState } from "react";
import type { Theme, Topic } from "../../../../document/schema";
import { CODE_SCALE, estimateFit, fontSizeOf, imageFillBox, MIN_FIT, textBox } from "../../../../document/slide-layout";
import { RichText } from "./rich-text";
import "./slide.css";

/**
 * How a topic of the canvas is drawn: the one renderer shared by the player, the presenter
 * view and every slide preview (the canvas units of the document, scaled by whoever shows it).
 *
 * - Type scale: each text's size is its paragraphs' biggestFontSize in canvas units (title 96,
 *   subtitle 56, body 36 from the importer), times the topic's fit factor `--fit`.
 * - Fit: content that doesn't fit its topic is scaled down. The server (and the first render)
 *   uses an estimate from the text's length (`estimateFit`); a layout effect then measures the
 *   real layout before the browser paints and sets the exact factor.
 * - Themes: `slideThemeClass(document.theme)` on any ancestor (the viewer, a preview) or the
 *   `theme` prop sets the colours as CSS custom properties (slide.css).
 * - "page" topics (an imported PDF page) draw their images filling the topic; their texts are a
 *   visually hidden text layer that screen readers, search and Ctrl+F still read.
 */
export function TopicView({
  topic,
  theme,
  stepNumbers,
  lazyImages = false,
}: {
  topic: Topic;
  theme?: Theme | undefined;
  /** Issue 12: images load when they come near the screen (the reading mode's long column of slides). */
  lazyImages?: boolean;
  /**
   * Each slide's step number: given, every slide carries a large label of its number and title,
   * shown only while the viewer is on a crowded overview (`.viewer--overview`, camera.ts).
   */
  stepNumbers?: ReadonlyMap<string, number> | undefined;
}) {
  const isFrame = topic.texts.length > 0 || topic.images.length > 0;
  const isPage = topic.layout === "page";
  const themeClass = theme ? ` ${slideThemeClass(theme)}` : "";
  const style: Record<string, string | number | undefined> = {
    left: topic.x,
    top: topic.y,
    width: topic.width,
    height: topic.height,
    transform: topic.rotation ? `rotate(${topic.rotation}deg)` : undefined,
  };
  if (topic.background) style["--topic-bg"] = topic.background.color;
  return (
    <div
      className={`topic${isFrame ? " topic--frame" : ""}${isPage ? " topic--page" : ""}${themeClass}`}
      style={style}
      data-topic-id={topic.id}
    >
      {isFrame && !isPage && topic.texts.length > 0 ? <FlowTexts topic={topic} /> : null}
      {isPage && topic.texts.length > 0 ? (
        <div className="topic__text-layer visually-hidden">
          {topic.texts.map((text) => (
            <RichText key={text.id} text={text} />
          ))}
        </div>
      ) : null}
      {topic.images.map((image) => (
        <img
          key={image.id}
          className="topic__image"
          src={image.src}
          alt={image.alt}
          loading={lazyImages ? "lazy" : undefined}
          style={
            isPage || topic.texts.length === 0
              ? imageFillBox(topic, isPage)
              : { left: image.x, top: image.y, width: image.width, height: image.height }
          }
        />
      ))}
      {isFrame && stepNumbers?.has(topic.id) ? (
        <StepLabel number={stepNumbers.get(topic.id) ?? 0} topic={topic} />
      ) : null}
      {topic.topics.map((child) => (
        <TopicView key={child.id} topic={child} stepNumbers={stepNumbers} lazyImages={lazyImages} />
      ))}
    </div>
  );
}

/** A slide's number and title, drawn large for a crowded overview (hidden from assistive technology: the slide's own text is there). */
function StepLabel({ number, topic }: { number: number; topic: Topic }) {
  const title = topic.texts.find((text) => text.styleClasses.includes("title")) ?? topic.texts[0];
  return (
    <div className="topic__step-label" aria-hidden="true">
      <span className="topic__step-number">{number}</span>
      {title ? <span className="topic__step-title">{title.paragraphs.map((p) => p.text).join(" ")}</span> : null}
    </div>
  );
}

/** The class that gives a canvas, a viewer or a preview the colours of a slide theme. */
export function slideThemeClass(theme: Theme | undefined | null): string {
  return `slide-theme slide-theme--${theme ?? "light"}`;
}

/** How much a laid-out slide overflows its box: 1 fits, 1.25 is a quarter too big. */
function overflowOf(flow: HTMLElement, box: HTMLElement): number {
  const styles = getComputedStyle(box);
  const available =
    box.clientHeight - Number.parseFloat(styles.paddingTop || "0") - Number.parseFloat(styles.paddingBottom || "0");
  let ratio = available > 0 ? flow.scrollHeight / available : 1;
  for (const wide of [flow, ...flow.querySelectorAll<HTMLElement>("pre, .rt-table-wrap")]) {
    if (wide.clientWidth > 0) ratio = Math.max(ratio, wide.scrollWidth / wide.clientWidth);
  }
  return ratio;
}

function FlowTexts({ topic }: { topic: Topic }) {
  const boxRef = useRef<HTMLDivElement>(null);
  const flowRef = useRef<HTMLDivElement>(null);
  const [fit, setFit] = useState(() => estimateFit(topic));

  // Measure before paint: try full size, then shrink by the overflow until it fits.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new topic is new content to measure
  useLayoutEffect(() => {
    const box = boxRef.current;
    const flow = flowRef.current;
    if (!box || !flow) return;
    const fits = (fit: number) => {
      box.style.setProperty("--fit", String(fit));
      return overflowOf(flow, box) <= 1.002;
    };
    // Smaller text wraps less, so the overflow at full size over-shrinks: search between a
    // factor that fits and one that doesn't (a few reflows, only for slides that overflow).
    let next = 1;
    if (!fits(1)) {
      let high = 1;
      let low = Math.max(MIN_FIT, 1 / overflowOf(flow, box));
      if (!fits(low)) low = MIN_FIT;
      for (let step = 0; step < 7 && high - low > 0.005; step += 1) {
        const middle = (low + high) / 2;
        if (fits(middle)) low = middle;
        else high = middle;
      }
      next = low;
    }
    next = Number(next.toFixed(3));
    box.style.setProperty("--fit", String(next));
    setFit(next);
  }, [topic]);

  const box = textBox(topic);
  return (
    <div
      ref={boxRef}
      className="topic__texts"
      style={{ padding: `${box.top}px ${box.right}px ${box.bottom}px ${box.left}px`, ["--fit" as string]: fit }}
      data-fit={fit}
    >
      <div ref={flowRef} className="topic__flow">
        {topic.texts.map((text) => (
          <RichText
            key={text.id}
            text={text}
            className={`slide__text slide__text--${text.styleClasses[0] ?? "body"}`}
            style={{ ["--size" as string]: text.kind === "code" ? fontSizeOf(text) * CODE_SCALE : fontSizeOf(text) }}
          />
        ))}
      </div>
    </div>
  );
}
