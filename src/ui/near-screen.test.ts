// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { whenNearScreen } from "./near-screen";

/** An IntersectionObserver that reports what the test says, where the browser would. */
class ReportingObserver {
  static last: ReportingObserver | null = null;
  watching = false;
  readonly rootMargin: string;
  constructor(
    private readonly callback: IntersectionObserverCallback,
    options: IntersectionObserverInit,
  ) {
    this.rootMargin = options.rootMargin ?? "";
    ReportingObserver.last = this;
  }
  observe() {
    this.watching = true;
  }
  unobserve() {}
  disconnect() {
    this.watching = false;
  }
  /** The place's box (viewport coordinates) against the screen grown by the margin (812 px tall, 300 around). */
  report(top: number, bottom: number) {
    if (!this.watching) return;
    const root = { top: -300, bottom: 1112 };
    const entry = {
      isIntersecting: bottom >= root.top && top <= root.bottom,
      boundingClientRect: { top, bottom },
      rootBounds: root,
    };
    this.callback([entry as unknown as IntersectionObserverEntry], this as unknown as IntersectionObserver);
  }
}

const original = globalThis.IntersectionObserver;
beforeEach(() => {
  globalThis.IntersectionObserver = ReportingObserver as unknown as typeof IntersectionObserver;
});
afterEach(() => {
  globalThis.IntersectionObserver = original;
});

describe("issue 30 whenNearScreen: a part loads once near the screen, or once passed", () => {
  const watch = () => {
    let calls = 0;
    const stop = whenNearScreen(document.createElement("div"), 300, () => {
      calls += 1;
    });
    const observer = ReportingObserver.last as ReportingObserver;
    return { observer, stop, calls: () => calls };
  };

  it("issue 30 waits while the place is below the screen, then loads once as it comes within the margin", () => {
    const { observer, calls } = watch();
    expect(observer.rootMargin).toBe("300px");
    observer.report(2000, 2400);
    expect(calls()).toBe(0);
    observer.report(1000, 1400);
    expect(calls()).toBe(1);
    observer.report(500, 900);
    expect(calls()).toBe(1);
  });

  it("issue 30 loads when first found above the screen: the visitor scrolled past before it was watched", () => {
    const { observer, calls } = watch();
    observer.report(-1500, -1100);
    expect(calls()).toBe(1);
  });

  it("issue 30 stops watching when asked, before the place came near", () => {
    const { observer, stop, calls } = watch();
    stop();
    observer.report(100, 400);
    expect(calls()).toBe(0);
  });
});
