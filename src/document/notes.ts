import type { PresentationDocument, Topic } from "./schema";

/**
 * Issue 28, item 1: speaker notes are the presenter's. A document as its audience receives it has
 * no notes unless its owner published them; the presenter view, the editor and the owner's own
 * copies read them whole.
 */

/** The document without any topic's speaker notes (a new object; the one given is left as it is). */
export function withoutNotes(document: PresentationDocument): PresentationDocument {
  if (countSlidesWithNotes(document) === 0) return document;
  const strip = (topics: Topic[]): Topic[] =>
    topics.map(({ notes: _notes, ...topic }) => ({ ...topic, topics: strip(topic.topics) }));
  return { ...document, topics: strip(document.topics) };
}

/** How many topics carry speaker notes (the owner is told on the import result and the dashboard). */
export function countSlidesWithNotes(document: PresentationDocument): number {
  let count = 0;
  const visit = (topics: readonly Topic[]) => {
    for (const topic of topics) {
      if ((topic.notes?.trim() ?? "") !== "") count += 1;
      visit(topic.topics);
    }
  };
  visit(document.topics);
  return count;
}

/** The document its audience receives: with its notes only when the owner published them. */
export function audienceDocument(document: PresentationDocument, notesPublic: boolean): PresentationDocument {
  return notesPublic ? document : withoutNotes(document);
}
