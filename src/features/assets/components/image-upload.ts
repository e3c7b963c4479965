import { useCallback, useState } from "react";
import type { MessageId } from "../../../i18n/locales";
import { readCookie, XSRF_COOKIE_NAME, XSRF_HEADER_NAME } from "../../../lib/http-client";

/** The browser's side of image uploads (issue 10, item 5): the editor and the dashboard share it. */

/** What the server answers for a stored image (`POST /api/assets`, 201). */
export interface UploadedImage {
  url: string;
  width: number;
  height: number;
  bytes: number;
}

/** The largest image, in MB, as the server counts it (features/assets/service.ts). */
export const IMAGE_LIMIT_MB = 10;

/** A refused or failed upload, as a message the page can say in the person's language. */
export class ImageUploadFailure extends Error {
  override readonly name = "ImageUploadFailure";
  constructor(
    readonly messageId: MessageId,
    readonly values: Record<string, string | number> = {},
  ) {
    super(messageId);
  }
}

const PROBLEM_MESSAGES: Record<string, MessageId> = {
  notImage: "assets.error.notImage",
  svg: "assets.error.svg",
  tooManyPixels: "assets.error.tooManyPixels",
  quota: "assets.error.quota",
  rate: "assets.error.rate",
  busy: "assets.error.busy",
  signedOut: "assets.error.signedOut",
};

/** Sends one image file; resolves with its address or rejects with an ImageUploadFailure. */
export async function uploadImage(file: Blob, csrfToken: string | null, fetchImpl: typeof fetch = fetch) {
  const token = readCookie(typeof document === "undefined" ? "" : document.cookie, XSRF_COOKIE_NAME) ?? csrfToken;
  const body = new FormData();
  body.append("file", file);
  let response: Response;
  try {
    response = await fetchImpl("/api/assets", {
      method: "POST",
      body,
      credentials: "same-origin",
      headers: token ? { [XSRF_HEADER_NAME]: token } : {},
    });
  } catch {
    throw new ImageUploadFailure("assets.error.network");
  }
  const answer = (await response.json().catch(() => null)) as
    | (Partial<UploadedImage> & { problem?: string; limit?: number })
    | null;
  if (response.status === 201 && typeof answer?.url === "string") return answer as UploadedImage;
  const problem = answer?.problem ? PROBLEM_MESSAGES[answer.problem] : undefined;
  // The pixel limit is the server's (features/assets/service.ts MAX_INPUT_PIXELS), said in its answer.
  if (problem === "assets.error.tooManyPixels") {
    throw new ImageUploadFailure(problem, { limit: typeof answer?.limit === "number" ? answer.limit : 50 });
  }
  if (problem) throw new ImageUploadFailure(problem);
  if (response.status === 413) throw new ImageUploadFailure("assets.error.tooLarge", { limit: IMAGE_LIMIT_MB });
  if (response.status === 403) throw new ImageUploadFailure("assets.error.expired");
  throw new ImageUploadFailure("assets.error.other");
}

/** "IMG_2041-sunset.final.jpeg" → "IMG 2041 sunset.final": the file name, read as words. */
export function altFromFileName(name: string): string {
  const base = name.replace(/\.[A-Za-z0-9]{1,5}$/, "");
  const words = base
    .replace(/[_-]+/g, " ")
    .replace(/[[\]()\\`*!<>]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : "";
}

/** The Markdown the importer reads as an image: `![alt](/assets/…)` alone on its line. */
export function imageMarkdown(alt: string, url: string): string {
  return `![${alt}](${url})`;
}

/**
 * Puts a line into text at the cursor (replacing a selection): on a line of its own, so the
 * importer reads it as an image. Says where the cursor goes (after the inserted line).
 */
export function insertLine(text: string, start: number, end: number, line: string): { text: string; cursor: number } {
  const before = text.slice(0, start);
  const after = text.slice(end);
  const lead = before === "" || before.endsWith("\n") ? "" : "\n";
  const trail = after.startsWith("\n") ? "" : "\n";
  const inserted = `${lead}${line}${trail}`;
  return { text: before + inserted + after, cursor: before.length + lead.length + line.length + trail.length };
}

/** The image files among what was pasted or dropped. */
export function imageFilesIn(items: DataTransfer | null): File[] {
  if (!items) return [];
  return [...items.files].filter((file) => file.type.startsWith("image/") || file.type === "");
}

export type UploadState =
  | { kind: "idle" }
  | { kind: "uploading"; name: string }
  | { kind: "done"; image: UploadedImage; alt: string }
  | { kind: "failed"; messageId: MessageId; values: Record<string, string | number> };

/** Uploads files one after another; the state drives an aria-live status line. */
export function useImageUpload(csrfToken: string | null) {
  const [state, setState] = useState<UploadState>({ kind: "idle" });
  const upload = useCallback(
    async (file: File): Promise<{ image: UploadedImage; alt: string } | null> => {
      setState({ kind: "uploading", name: file.name });
      try {
        const image = await uploadImage(file, csrfToken);
        const alt = altFromFileName(file.name);
        setState({ kind: "done", image, alt });
        return { image, alt };
      } catch (error) {
        const failure = error instanceof ImageUploadFailure ? error : new ImageUploadFailure("assets.error.other", {});
        setState({ kind: "failed", messageId: failure.messageId, values: failure.values });
        return null;
      }
    },
    [csrfToken],
  );
  return { state, upload };
}

const PLACE_PROBLEMS: Record<string, MessageId> = {
  notInMarkdown: "localImages.error.notInMarkdown",
  noMarkdown: "localImages.error.notInMarkdown",
  markdown: "localImages.error.markdown",
  signedOut: "assets.error.signedOut",
};

/**
 * Issue 28 item 7: puts an uploaded image where the deck's Markdown names an image file (`src`, as
 * the importer read it); rejects with an ImageUploadFailure.
 */
export async function placeImage(
  oid: string,
  src: string,
  url: string,
  csrfToken: string | null,
  fetchImpl: typeof fetch = fetch,
): Promise<void> {
  const token = readCookie(typeof document === "undefined" ? "" : document.cookie, XSRF_COOKIE_NAME) ?? csrfToken;
  let response: Response;
  try {
    response = await fetchImpl(`/api/presentations/${encodeURIComponent(oid)}/images`, {
      method: "POST",
      body: JSON.stringify({ src, url }),
      credentials: "same-origin",
      headers: { "content-type": "application/json", ...(token ? { [XSRF_HEADER_NAME]: token } : {}) },
    });
  } catch {
    throw new ImageUploadFailure("assets.error.network");
  }
  if (response.ok) return;
  const answer = (await response.json().catch(() => null)) as { problem?: string } | null;
  const problem = answer?.problem ? PLACE_PROBLEMS[answer.problem] : undefined;
  if (problem) throw new ImageUploadFailure(problem);
  if (response.status === 403) throw new ImageUploadFailure("assets.error.expired");
  throw new ImageUploadFailure("assets.error.other");
}

/** An image file's name as a person wrote it (`tide%20chart.png` → `tide chart.png`). */
export function writtenName(src: string): string {
  try {
    return decodeURI(src);
  } catch {
    return src;
  }
}
