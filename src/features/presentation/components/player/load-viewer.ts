import { CHUNK_LOAD_TIMEOUT_MS, ChunkLoadError } from "../../player-rules";
import type * as PresentViewerModule from "./present-viewer";

export type PresentViewerChunk = typeof PresentViewerModule;

/** The chunk's name, as spec §2 calls the viewer's lazy chunk. */
export const PRESENT_VIEWER_CHUNK = "present-viewer";

/** Chromium names the module it failed to fetch; a retry must use another URL (the failure is cached). */
function failedModuleUrl(error: unknown): string | null {
  const match = /(https?:\/\/\S+?\.js)(?:\?\S*)?$/.exec(String((error as Error)?.message ?? ""));
  return match?.[1] ?? null;
}

async function classify(error: unknown): Promise<ChunkLoadError> {
  const url = failedModuleUrl(error);
  if (url) {
    try {
      const response = await fetch(url, { method: "HEAD", cache: "no-store" });
      if (response.status === 404 || response.status === 410)
        return new ChunkLoadError(PRESENT_VIEWER_CHUNK, "missing", url);
    } catch {
      // The network is down: an error, not a missing file.
    }
  }
  return new ChunkLoadError(PRESENT_VIEWER_CHUNK, "error", url);
}

/** Rejects with a timeout ChunkLoadError when the promise has not settled in time (spec §9: 120 s). */
export function withChunkTimeout<T>(promise: Promise<T>, chunk: string, timeoutMs = CHUNK_LOAD_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError(chunk, "timeout")), timeoutMs);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * A retry imports the chunk's file itself, whose exports carry the bundler's names (minified, the
 * chunk being shared with the presenter view), not the module's: the viewer's module is the
 * namespace among them that has PresentViewer. (Before issue 30 a retry found no PresentViewer and
 * played nothing while the player said it was playing.)
 */
function viewerModuleIn(loaded: Record<string, unknown>, url: string): PresentViewerChunk {
  if ("PresentViewer" in loaded) return loaded as unknown as PresentViewerChunk;
  for (const value of Object.values(loaded))
    if (typeof value === "object" && value !== null && "PresentViewer" in value) return value as PresentViewerChunk;
  throw new ChunkLoadError(PRESENT_VIEWER_CHUNK, "error", url);
}

let retryUrl: string | null = null;
let attempts = 0;

/**
 * Loads the present-viewer chunk on demand. A failure becomes a ChunkLoadError (spec §8:
 * missing, timeout or error); calling again retries with a fresh URL.
 */
export async function loadPresentViewer(): Promise<PresentViewerChunk> {
  attempts += 1;
  const url = retryUrl;
  const importing: Promise<PresentViewerChunk> = url
    ? import(/* @vite-ignore */ `${url}?retry=${attempts}`).then((loaded: Record<string, unknown>) =>
        viewerModuleIn(loaded, url),
      )
    : import("./present-viewer");
  try {
    return await withChunkTimeout(importing, PRESENT_VIEWER_CHUNK);
  } catch (error) {
    if (error instanceof ChunkLoadError) throw error;
    const chunkError = await classify(error);
    retryUrl = chunkError.url ?? retryUrl;
    throw chunkError;
  }
}

/**
 * Issue 30 item 1: on intent to present (a pointer over, or focus on, Present), the viewer's chunk
 * and the document's loader start loading, so the click finds them there. A failure here is
 * quiet: the click's own load reports it (and retries with a fresh URL).
 */
export function prefetchPresentViewer(): void {
  if (retryUrl) return;
  void import("./present-viewer").catch(() => {});
  void import("./load-presentation").catch(() => {});
}
