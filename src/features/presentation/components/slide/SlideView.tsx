import { useLayoutEffect, useRef, useState } from "react";
import type { Text, Theme, Topic } from "../../document/schema";
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
export function TopicView({ topic, theme }: { topic: Topic; theme?: Theme | undefined }) {
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
          style={
            isPage || topic.texts.length === 0
              ? imageFillStyle(topic, isPage)
              : { left: image.x, top: image.y, width: image.width, height: image.height }
          }
        />
      ))}
      {topic.topics.map((child) => (
        <TopicView key={child.id} topic={child} />
      ))}
    </div>
  );
}

/** The class that gives a canvas, a viewer or a preview the colours of a slide theme. */
export function slideThemeClass(theme: Theme | undefined | null): string {
  return `slide-theme slide-theme--${theme ?? "light"}`;
}

/** Padding of a slide's content, as fractions of the topic (canvas units scale with it). */
export const SLIDE_PADDING = { vertical: 0.08, horizontal: 0.07 } as const;
/** The smallest fit factor: past this the text would be unreadable anyway (it is clipped). */
export const MIN_FIT = 0.3;
/** Space between the texts of a slide, and around images beside text, in canvas units. */
const TEXT_GAP = 28;

/** An image with no text beside it, or a page: it fills the topic (inside the padding for slides). */
function imageFillStyle(topic: Topic, isPage: boolean) {
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
const CODE_SCALE = 0.8;

/** Where a slide's text column ends: before images that stand on the right half, else the padding. */
function textBox(topic: Topic) {
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
  let needed = 0;
  let widest = 0;
  for (const text of topic.texts) {
    const size = fontSizeOf(text);
    if (text.kind === "code") {
      const codeSize = size * CODE_SCALE;
      needed += text.paragraphs.length * codeSize * 1.4 + codeSize * 2.4;
      for (const p of text.paragraphs) widest = Math.max(widest, (p.text.length * 0.6 * codeSize) / width);
    } else if (text.kind === "table") {
      needed += text.paragraphs.length * size * 0.8 * 1.9;
    } else {
      for (const p of text.paragraphs) {
        const indent = p.listType === "NONE" ? 0 : (1.3 + (p.level ?? 0) * 1.3) * size;
        const perLine = Math.max(1, (width - indent) / (size * 0.52));
        needed += Math.max(1, Math.ceil(p.text.length / perLine)) * size * 1.3 + size * 0.3;
      }
    }
    needed += TEXT_GAP;
  }
  let fit = Math.min(1, height / Math.max(1, needed));
  if (widest > 1) fit = Math.min(fit, 1 / widest);
  return Math.max(MIN_FIT, Number(fit.toFixed(3)));
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
    let next = 1;
    box.style.setProperty("--fit", "1");
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const over = overflowOf(flow, box);
      if (over <= 1.002) break;
      next = Math.max(MIN_FIT, next * (attempt === 0 ? 1 / over : 0.97 / over));
      box.style.setProperty("--fit", String(next));
      if (next === MIN_FIT) break;
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
