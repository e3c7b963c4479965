import { useEffect, useRef, useState } from "react";
import { BREAKPOINTS } from "../../../lib/constants";

/** Spec §9: thumbnails load 200 px before they scroll into view above the small breakpoint, else 10 px. */
export const LAZY_OFFSET_PX = { wide: 200, narrow: 10 } as const;
/** Spec §9: default lazy-load throttle and debounce. */
export const LAZY_THROTTLE_MS = 300;

export function lazyOffsetFor(windowWidth: number): number {
  return windowWidth > BREAKPOINTS.small ? LAZY_OFFSET_PX.wide : LAZY_OFFSET_PX.narrow;
}

/**
 * An image that loads only when it comes near the viewport (and as a plain image without JavaScript).
 * Until then it is an empty box of the image's size carrying the image's addresses (issue 12: an
 * <img> without a src is invalid HTML, and native loading="lazy" can't keep the spec's offsets).
 * The width and height attributes are whole pixels, as HTML asks; the CSS gives the exact size.
 */
export function LazyThumbnail({
  src,
  width,
  height,
  className,
  hoverSrc,
}: {
  src: string;
  width: number;
  height: number;
  className?: string;
  /** Spec §3 previewAnimation: shown while hovered or focused. */
  hoverSrc?: string | null;
}) {
  const ref = useRef<HTMLElement>(null);
  const [visible, setVisible] = useState(false);
  const [hovered, setHovered] = useState(false);

  useEffect(() => {
    const box = ref.current;
    if (!box || visible) return;
    let observer: IntersectionObserver | null = null;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const watch = () => {
      observer?.disconnect();
      observer = new IntersectionObserver(
        (entries) => {
          if (entries.some((entry) => entry.isIntersecting)) {
            setVisible(true);
            observer?.disconnect();
          }
        },
        { rootMargin: `${lazyOffsetFor(window.innerWidth)}px` },
      );
      observer.observe(box);
    };
    watch();
    // The offset depends on the window's width: re-watch after resizing settles (debounced).
    const onResize = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(watch, LAZY_THROTTLE_MS);
    };
    window.addEventListener("resize", onResize);
    return () => {
      observer?.disconnect();
      if (timer) clearTimeout(timer);
      window.removeEventListener("resize", onResize);
    };
  }, [visible]);

  useEffect(() => {
    const card = ref.current?.closest("a");
    if (!card || !hoverSrc) return;
    const on = () => setHovered(true);
    const off = () => setHovered(false);
    card.addEventListener("mouseenter", on);
    card.addEventListener("mouseleave", off);
    card.addEventListener("focus", on);
    card.addEventListener("blur", off);
    return () => {
      card.removeEventListener("mouseenter", on);
      card.removeEventListener("mouseleave", off);
      card.removeEventListener("focus", on);
      card.removeEventListener("blur", off);
    };
  }, [hoverSrc]);

  const shown = hovered && hoverSrc ? hoverSrc : src;
  // The box carries its addresses until it becomes the image (e2e tests find thumbnails by them).
  const fields = { "data-src": src, "data-hover-src": hoverSrc ?? undefined };
  const attributeWidth = Math.round(width);
  const attributeHeight = Math.round(height);
  return (
    <>
      {visible ? (
        <img
          ref={(image) => {
            ref.current = image;
          }}
          className={className}
          src={shown}
          {...fields}
          alt=""
          width={attributeWidth}
          height={attributeHeight}
          data-loaded="true"
        />
      ) : (
        <span
          ref={(box) => {
            ref.current = box;
          }}
          className={className}
          {...fields}
          data-loaded="false"
        />
      )}
      <noscript>
        <img className={className} src={src} alt="" width={attributeWidth} height={attributeHeight} />
      </noscript>
    </>
  );
}
