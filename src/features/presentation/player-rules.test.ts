import { afterEach, describe, expect, it, vi } from "vitest";
import { cameraTransform, topicClipPath, topicRects } from "../../document/camera";
import { importMarkdown } from "../../document/markdown";
import { withChunkTimeout } from "./components/player/load-viewer";
import { commandForKey } from "./components/player/present-viewer";
import { commentUrl, editorUrl, privateHeaderAction, privateHeaderVisible } from "./editor-links";
import {
  CAMERA_PADDING,
  CHUNK_LOAD_TIMEOUT_MS,
  ChunkLoadError,
  clampProgress,
  METADATA_MARGIN,
  OVERLAY_TRANSITION_MS,
  overlayModeFor,
  PROGRESS_SIZE,
  PROGRESS_STROKE_WIDTH,
  stepFromHash,
  visiblePreview,
} from "./player-rules";

describe("overlay modes", () => {
  it("R2.32 large at ≥1024×516, middle at ≥768×236, otherwise small", () => {
    expect(overlayModeFor(1024, 516)).toBe("large");
    expect(overlayModeFor(1023, 516)).toBe("middle");
    expect(overlayModeFor(1024, 515)).toBe("middle");
    expect(overlayModeFor(768, 236)).toBe("middle");
    expect(overlayModeFor(767, 236)).toBe("small");
    expect(overlayModeFor(768, 235)).toBe("small");
    expect(overlayModeFor(2000, 100)).toBe("small");
  });
  it("R9.6 margins 60/30/12, progress 168/168/80, stroke 10; R4.2 R9.1 timings", () => {
    expect(METADATA_MARGIN).toEqual({ large: 60, middle: 30, small: 12 });
    expect(PROGRESS_SIZE).toEqual({ large: 168, middle: 168, small: 80 });
    expect(PROGRESS_STROKE_WIDTH).toBe(10);
    expect(OVERLAY_TRANSITION_MS).toBe(500);
    expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
  });
});

describe("progress", () => {
  it("R5.3 is clamped to 0..100", () => {
    expect(clampProgress(-5)).toBe(0);
    expect(clampProgress(0)).toBe(0);
    expect(clampProgress(42.5)).toBe(42.5);
    expect(clampProgress(100)).toBe(100);
    expect(clampProgress(180)).toBe(100);
    expect(clampProgress(Number.NaN)).toBe(0);
  });
});

describe("preview state", () => {
  const urls = { previewUrl: "/p/x/thumbnail.svg", fallbackPreviewUrl: "/fallback.svg" };
  it("R4.1 shows the preview on show, the fallback on fallback only if it exists, nothing on loading/none", () => {
    expect(visiblePreview("show", urls)).toBe("/p/x/thumbnail.svg");
    expect(visiblePreview("fallback", urls)).toBe("/fallback.svg");
    expect(visiblePreview("fallback", { ...urls, fallbackPreviewUrl: null })).toBeNull();
    expect(visiblePreview("loading", urls)).toBeNull();
    expect(visiblePreview("none", urls)).toBeNull();
  });
});

describe("chunk loading", () => {
  afterEach(() => vi.useRealTimers());
  it("R8.3 ChunkLoadError is named and worded as the spec says", () => {
    const error = new ChunkLoadError("present-viewer", "missing");
    expect(error.name).toBe("ChunkLoadError");
    expect(error.message).toBe("Loading chunk present-viewer failed");
    expect(error.type).toBe("missing");
  });
  it("R9.1 R8.3 a chunk still loading after 120 s fails with type timeout", async () => {
    vi.useFakeTimers();
    const never = new Promise<never>(() => {});
    const loading = withChunkTimeout(never, "present-viewer");
    const outcome = loading.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(119_999);
    let settled = false;
    void outcome.then(() => {
      settled = true;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect(error).toMatchObject({ type: "timeout", message: "Loading chunk present-viewer failed" });
  });
  it("passes a loaded chunk through untouched", async () => {
    await expect(withChunkTimeout(Promise.resolve(42), "x")).resolves.toBe(42);
  });
});

describe("keyboard", () => {
  it("R9.13 → space PageDown go on, ← PageUp go back, Home End jump, Escape (27) leaves full screen", () => {
    expect(commandForKey({ key: "ArrowRight" })).toBe("next");
    expect(commandForKey({ key: " " })).toBe("next");
    expect(commandForKey({ key: "Spacebar", keyCode: 32 })).toBe("next");
    expect(commandForKey({ key: "PageDown" })).toBe("next");
    expect(commandForKey({ key: "ArrowLeft" })).toBe("previous");
    expect(commandForKey({ key: "PageUp" })).toBe("previous");
    expect(commandForKey({ key: "Home" })).toBe("first");
    expect(commandForKey({ key: "End" })).toBe("last");
    expect(commandForKey({ key: "Escape" })).toBe("exitFullscreen");
    expect(commandForKey({ key: "Esc", keyCode: 27 })).toBe("exitFullscreen");
    expect(commandForKey({ key: "a" })).toBeNull();
  });
  it("reads #step=N deep links within the path only", () => {
    expect(stepFromHash("#step=3", 10)).toBe(3);
    expect(stepFromHash("#step=10", 10)).toBe(10);
    expect(stepFromHash("#step=11", 10)).toBeNull();
    expect(stepFromHash("#step=0", 10)).toBeNull();
    expect(stepFromHash("#step=abc", 10)).toBeNull();
    expect(stepFromHash("", 10)).toBeNull();
  });
});

describe("camera", () => {
  it("fits a step's topic in the viewport, centred, using absolute canvas positions", () => {
    const doc = importMarkdown("# One\n---\n# Two\n---\n# Three\n---\n# Four", "0");
    const rects = topicRects(doc);
    const slide = rects.get("slide-2");
    expect(slide).toMatchObject({ x: 300 + 1600 + 200, y: 300, width: 1600, height: 900 });
    const transform = cameraTransform(
      slide ?? { x: 0, y: 0, width: 1, height: 1, rotation: 0 },
      { width: 800, height: 450 },
      0,
    );
    expect(transform).toBe("translate(400px, 225px) scale(0.5) rotate(0deg) translate(-2900px, -750px)");
  });
});

describe("issue 12, issue 28: every stage shows one page", () => {
  it("the camera fills the stage with the page, on a phone and on a wide stage alike", () => {
    const slide = { x: 0, y: 0, width: 1600, height: 900, rotation: 0 };
    const page = { x: 0, y: 0, width: 1600, height: 2071, rotation: 0 };
    const scaleOf = (transform: string) => Number(/scale\(([\d.]+)\)/.exec(transform)?.[1]);
    // A 16:9 slide on a phone's 16:9 stage, a portrait page on a 1440 px full screen (by its height).
    expect(
      (1600 * scaleOf(cameraTransform(slide, { width: 375, height: 210.9375 }, CAMERA_PADDING))) / 375,
    ).toBeGreaterThanOrEqual(0.98);
    expect(
      (2071 * scaleOf(cameraTransform(page, { width: 1440, height: 844 }, CAMERA_PADDING))) / 844,
    ).toBeGreaterThanOrEqual(0.98);
    expect(CAMERA_PADDING).toBeLessThanOrEqual(0.01);
  });
  it("clips the canvas to the step's topic, turned as the topic is", () => {
    expect(topicClipPath({ x: 100, y: 50, width: 1600, height: 900, rotation: 0 })).toBe(
      "polygon(100px 50px, 1700px 50px, 1700px 950px, 100px 950px)",
    );
    // A quarter turn about the centre (900, 500): the corners swap sides.
    expect(topicClipPath({ x: 100, y: 50, width: 1600, height: 900, rotation: 90 })).toBe(
      "polygon(1350px -300px, 1350px 1300px, 450px 1300px, 450px -300px)",
    );
  });
});

describe("editor links and the private header", () => {
  it("R2.12 classic edits at /{oid}/edit/, pitch at /p/edit/{oid}/, commenting appends #present", () => {
    expect(editorUrl("abcdefghijkl", "0")).toBe("/abcdefghijkl/edit/");
    expect(editorUrl("abcdefghijkl", "2")).toBe("/p/edit/abcdefghijkl/");
    expect(commentUrl("abcdefghijkl")).toBe("/p/edit/abcdefghijkl/#present");
  });
  it("R6.2 the private header shows only for pitch, with edit or comment rights, outside embed mode", () => {
    const edit = { edit: true, comment: false };
    const comment = { edit: false, comment: true };
    const none = { edit: false, comment: false };
    expect(privateHeaderVisible({ schemaVersion: "2", viewerRights: edit, embedMode: false })).toBe(true);
    expect(privateHeaderVisible({ schemaVersion: "2", viewerRights: comment, embedMode: false })).toBe(true);
    expect(privateHeaderVisible({ schemaVersion: "2", viewerRights: none, embedMode: false })).toBe(false);
    expect(privateHeaderVisible({ schemaVersion: "0", viewerRights: edit, embedMode: false })).toBe(false);
    expect(privateHeaderVisible({ schemaVersion: "2", viewerRights: edit, embedMode: true })).toBe(false);
  });
  it("R6.1 edit right → Edit; comment without edit → Comment", () => {
    expect(privateHeaderAction({ edit: true, comment: true })).toBe("edit");
    expect(privateHeaderAction({ edit: true, comment: false })).toBe("edit");
    expect(privateHeaderAction({ edit: false, comment: true })).toBe("comment");
    expect(privateHeaderAction({ edit: false, comment: false })).toBeNull();
  });
});
