import { type CanvasRect, cameraTransform } from "../../../document/camera";
import { type Topic, topicsById } from "../../../document/schema";

export { topicsById };

/** A slide's headline for screen readers: its title text, else its first words, else nothing. */
export function slideHeadline(topic: Topic | undefined, max = 120): string {
  if (!topic) return "";
  const texts = [...topic.texts].sort(
    (a, b) => Number(b.styleClasses.includes("title")) - Number(a.styleClasses.includes("title")),
  );
  for (const text of texts) {
    for (const paragraph of text.paragraphs) {
      const words = paragraph.text.replace(/\s+/g, " ").trim();
      if (words) return words.length > max ? `${words.slice(0, max - 1).trimEnd()}…` : words;
    }
  }
  return "";
}

/**
 * Where one slide goes in a box: a frame of the slide's shape, as large as fits (less a margin),
 * centred, and the camera transform that shows exactly that slide in the frame (the frame
 * clips the canvas, so neighbouring topics never peek in).
 */
export function fitSlide(
  rect: CanvasRect,
  box: { width: number; height: number },
  margin = 0.03,
): { left: number; top: number; width: number; height: number; transform: string } | null {
  if (box.width <= 0 || box.height <= 0 || rect.width <= 0 || rect.height <= 0) return null;
  const scale = Math.min(box.width / rect.width, box.height / rect.height) * (1 - margin * 2);
  const width = rect.width * scale;
  const height = rect.height * scale;
  const round = (n: number) => Number(n.toFixed(2));
  return {
    left: round((box.width - width) / 2),
    top: round((box.height - height) / 2),
    width: round(width),
    height: round(height),
    transform: cameraTransform(rect, { width, height }, 0),
  };
}
