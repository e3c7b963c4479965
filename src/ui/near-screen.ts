/**
 * Calls `then` once, when `place` comes within `aheadPx` of the screen or is found above it: a
 * visitor who scrolled past a part before its code or watcher was ready (a slow phone reading fast)
 * has passed it on the way down, and finds it loaded on scrolling back. Returns the way to stop
 * watching (when the part goes away first).
 */
export function whenNearScreen(place: Element, aheadPx: number, then: () => void): () => void {
  const observer = new IntersectionObserver(
    (entries) => {
      // Above the screen grown by the margin (the root is the viewport: its top is -aheadPx).
      if (!entries.some((entry) => entry.isIntersecting || entry.boundingClientRect.bottom < -aheadPx)) return;
      observer.disconnect();
      then();
    },
    { rootMargin: `${aheadPx}px` },
  );
  observer.observe(place);
  return () => observer.disconnect();
}
