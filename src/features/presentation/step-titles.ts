import { type PresentationDocument, type Topic, topicsById } from "../../document/schema";

/** Issue 34: the longest step title the embed API and link previews give. */
export const STEP_TITLE_MAX_LENGTH = 200;

/** A topic's title: the first line of text on it (or on a slide nested in it); "" for none. */
function titleOf(topic: Topic): string {
  for (const text of topic.texts) {
    for (const paragraph of text.paragraphs) {
      const line = paragraph.text.replace(/\s+/g, " ").trim();
      if (line) return line.length > STEP_TITLE_MAX_LENGTH ? `${line.slice(0, STEP_TITLE_MAX_LENGTH - 1)}…` : line;
    }
  }
  for (const child of topic.topics) {
    const title = titleOf(child);
    if (title) return title;
  }
  return "";
}

/**
 * Issue 34: each step's title (the first line of its slide), in path order: the embed API's
 * getSteps and a step link's preview. The slide's text only: never its speaker notes.
 */
export function stepTitles(document: PresentationDocument): string[] {
  const byId = topicsById(document);
  return document.path.map((id) => {
    const topic = byId.get(id);
    return topic ? titleOf(topic) : "";
  });
}

/** The topic a step (1-based) shows, or null past the path. */
export function stepTopic(document: PresentationDocument, step: number): Topic | null {
  const id = document.path[step - 1];
  return id === undefined ? null : (topicsById(document).get(id) ?? null);
}
