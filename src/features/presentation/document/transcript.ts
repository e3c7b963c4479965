import type { PresentationDocument, Text, Topic } from "./schema";

/** Spec §3 Transcript: a topic has texts and nested topics. */
export interface TranscriptTopic {
  id: string;
  texts: Text[];
  topics: TranscriptTopic[];
}

export interface Transcript {
  topics: TranscriptTopic[];
}

/**
 * The transcript is derived, never stored (product brief): the topics the path visits, in
 * the order it first visits them, keeping their nesting. A topic without texts (an
 * overview frame) gives its place to its children, so depth follows the content.
 */
export function deriveTranscript(document: PresentationDocument): Transcript {
  const firstVisit = new Map<string, number>();
  document.path.forEach((step, index) => {
    if (!firstVisit.has(step)) firstVisit.set(step, index);
  });
  const order = (topic: Topic): number => {
    let best = firstVisit.get(topic.id) ?? Number.POSITIVE_INFINITY;
    for (const child of topic.topics) best = Math.min(best, order(child));
    return best;
  };
  const build = (topics: Topic[]): TranscriptTopic[] =>
    topics
      .map((topic) => ({ topic, at: order(topic) }))
      .filter(({ at }) => Number.isFinite(at))
      .sort((a, b) => a.at - b.at)
      .flatMap(({ topic }): TranscriptTopic[] => {
        const children = build(topic.topics);
        const visited = firstVisit.has(topic.id);
        if (!visited || topic.texts.length === 0) return children;
        return [{ id: topic.id, texts: topic.texts, topics: children }];
      });
  return { topics: build(document.topics) };
}

/** The transcript as plain text (search, descriptions, no-JavaScript readers). */
export function transcriptPlainText(transcript: Transcript): string {
  const lines: string[] = [];
  const visit = (topics: TranscriptTopic[]) => {
    for (const topic of topics) {
      for (const text of topic.texts) for (const p of text.paragraphs) lines.push(p.text);
      visit(topic.topics);
    }
  };
  visit(transcript.topics);
  return lines.join("\n");
}
