/** The player's rules and constants (spec §2 Overlays and Responsive modes, §4, §8, §9). */

/** §4, §9: overlay changes transition over 0.5 s. */
export const OVERLAY_TRANSITION_MS = 500;
/** §9: a lazy chunk that has not loaded after 120 s has failed. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/** §2 Responsive modes: large at ≥1024×516, middle at ≥768×236, otherwise small. */
export const OVERLAY_MODE_THRESHOLDS = {
  large: { minWidth: 1024, minHeight: 516 },
  middle: { minWidth: 768, minHeight: 236 },
} as const;
export type OverlayMode = "large" | "middle" | "small";

/** §9: metadata margin per overlay mode, in px. */
export const METADATA_MARGIN: Record<OverlayMode, number> = { large: 60, middle: 30, small: 12 };
/** §9: progress indicator size per overlay mode, and its default stroke width, in px. */
export const PROGRESS_SIZE: Record<OverlayMode, number> = { large: 168, middle: 168, small: 80 };
export const PROGRESS_STROKE_WIDTH = 10;

/** How long a camera move between steps takes: classic zooms, pitch slides more softly. */
export const STEP_TRANSITION_MS = { classic: 900, pitch: 600 } as const;
/** A horizontal swipe shorter than this (px) is a tap, not a swipe. */
export const SWIPE_MIN_DISTANCE = 50;

/**
 * Room the camera leaves around a step's topic, as a share of the stage on each side. Issue 28: the
 * stage has the deck's page shape and the canvas is clipped to the topic, so the page takes all
 * of it (issue 12 did so on phones; wider stages had 4 % and showed the neighbours in it).
 */
export const CAMERA_PADDING = 0.005;

export function overlayModeFor(width: number, height: number): OverlayMode {
  const { large, middle } = OVERLAY_MODE_THRESHOLDS;
  if (width >= large.minWidth && height >= large.minHeight) return "large";
  if (width >= middle.minWidth && height >= middle.minHeight) return "middle";
  return "small";
}

/** §5: the progress percentage is clamped to 0..100 (and a non-number counts as 0). */
export function clampProgress(percent: number): number {
  if (!Number.isFinite(percent)) return 0;
  return Math.min(100, Math.max(0, percent));
}

/** §4 Overlay mode and Preview state. */
export type OverlayState = "start" | "loading" | "restart";
export type PreviewState = "none" | "loading" | "show" | "fallback";
export type LoadStatus = "none" | "loading" | "success" | "error";

/** §4: which preview image shows, if any: on show the preview; on fallback only a fallback URL. */
export function visiblePreview(
  state: PreviewState,
  urls: { previewUrl: string; fallbackPreviewUrl: string | null },
): string | null {
  if (state === "show") return urls.previewUrl;
  if (state === "fallback") return urls.fallbackPreviewUrl;
  return null;
}

/**
 * The preview image's address: the fallback once the preview failed, and none at all once that
 * failed too, so a browser never asks for either again.
 */
export function previewSource(
  state: PreviewState,
  urls: { previewUrl: string; fallbackPreviewUrl: string | null },
): string | undefined {
  if (state === "none") return undefined;
  return state === "fallback" && urls.fallbackPreviewUrl ? urls.fallbackPreviewUrl : urls.previewUrl;
}

/** §4 (R4.1): after a failed image, the fallback is tried once (when there is one), then no image. */
export function afterPreviewError(state: PreviewState, fallbackPreviewUrl: string | null): PreviewState {
  return state === "fallback" || state === "none" || !fallbackPreviewUrl ? "none" : "fallback";
}

/** Spec §8: a lazy chunk that failed to load. */
export type ChunkLoadErrorType = "missing" | "timeout" | "error";
export class ChunkLoadError extends Error {
  override readonly name = "ChunkLoadError";
  constructor(
    readonly chunk: string,
    readonly type: ChunkLoadErrorType,
    readonly url: string | null = null,
  ) {
    super(`Loading chunk ${chunk} failed`);
  }
}

/** `#step=N` (1-based) deep links to a step; anything else is no step. */
export function stepFromHash(hash: string, stepCount: number): number | null {
  const match = /(?:^#|&)step=(\d{1,6})(?:&|$)/.exec(hash);
  if (!match?.[1]) return null;
  const step = Number(match[1]);
  return step >= 1 && step <= stepCount ? step : null;
}
