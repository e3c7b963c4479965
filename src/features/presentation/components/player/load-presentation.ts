import { documentImageUrls } from "../../../../document/camera";
import type { PresentationDocument } from "../../../../document/schema";
import { onPageOrigin } from "../../../../lib/http-client";

/** Loads an image into the browser cache; a broken image still counts as done (its alt text shows). */
function preloadImage(src: string): Promise<void> {
  return new Promise((resolve) => {
    const image = new Image();
    image.onload = () => resolve();
    image.onerror = () => resolve();
    image.src = src;
  });
}

/**
 * The loading phase: fetches the document, then every image it needs, reporting real
 * progress as items done out of items known (the chunk counts as one more, below).
 */
export async function loadPresentation(
  url: string,
  onProgress: (done: number, total: number) => void,
): Promise<PresentationDocument> {
  let done = 0;
  let total = 1;
  onProgress(done, total);
  const response = await fetch(onPageOrigin(url), {
    credentials: "same-origin",
    headers: { accept: "application/json" },
  });
  if (!response.ok)
    throw new Error(`The presentation could not be loaded (${response.status} ${response.statusText}).`);
  // Validated by the server when it was saved; parsing it again here would put the schema
  // library in the bundle every visitor downloads.
  const document = (await response.json()) as PresentationDocument;
  done += 1;
  const images = documentImageUrls(document);
  total += images.length;
  onProgress(done, total);
  await Promise.all(
    images.map((src) =>
      preloadImage(src).then(() => {
        done += 1;
        onProgress(done, total);
      }),
    ),
  );
  return document;
}
