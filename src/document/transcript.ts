import type { Paragraph, PresentationDocument, Text, Topic } from "./schema";

/** Spec §3 Transcript: a topic has texts and nested topics (and, Podium, its speaker notes). */
export interface TranscriptTopic {
  id: string;
  texts: Text[];
  topics: TranscriptTopic[];
  /** Podium (document version 2): the topic's speaker notes, shown under its slide. */
  notes?: string;
  /** Issue 12: the step (1-based) where the path first shows this topic: its section links to `#step=N`. */
  step?: number;
  /**
   * Issue 28 item 6: what the slide's images show, their alt text (Markdown `![alt](…)`), read
   * after its texts. None for a PDF page: its image is the page, whose text is the texts.
   */
  images?: string[];
}

export interface Transcript {
  topics: TranscriptTopic[];
}

/**
 * The transcript is derived, never stored (product brief): the topics the path visits, in
 * the order it first visits them, keeping their nesting. A topic without texts (an
 * overview frame) gives its place to its children, so depth follows the content.
 * R3.7: a topic nested in one the path shows is on that slide even when it is no step of its
 * own (a JSON import may nest such topics), so its text is in the transcript too, after the
 * siblings the path visits, in the document's order.
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
  const build = (topics: Topic[], onShownSlide: boolean): TranscriptTopic[] =>
    topics
      .map((topic) => ({ topic, at: order(topic) }))
      .filter(({ at }) => onShownSlide || Number.isFinite(at))
      // Stable: topics no step visits keep the document's order, after the visited ones.
      .sort((a, b) => (a.at === b.at ? 0 : a.at < b.at ? -1 : 1))
      .flatMap(({ topic }): TranscriptTopic[] => {
        const visited = onShownSlide || firstVisit.has(topic.id);
        const children = build(topic.topics, visited);
        const images = topic.layout === "page" ? [] : topic.images.map((image) => image.alt.trim()).filter(Boolean);
        if (!visited || (topic.texts.length === 0 && images.length === 0)) return children;
        const entry: TranscriptTopic = {
          id: topic.id,
          texts: topic.texts.map(leanText),
          topics: children,
          step: (firstVisit.get(topic.id) ?? 0) + 1,
        };
        if (images.length > 0) entry.images = images;
        const notes = topic.notes?.trim();
        if (notes) entry.notes = notes;
        return [entry];
      });
  return { topics: build(document.topics, false) };
}

/**
 * A text as the transcript carries it in page data: every field of the spec's entity (text,
 * listType, biggestFontSize, styleClasses) and the rich fields, minus runs that say nothing
 * the paragraph's `text` doesn't (no marks, link or token): the page data stays lean.
 */
function leanText(text: Text): Text {
  if (!text.paragraphs.some((p) => p.runs !== undefined && isPlain(p))) return text;
  return { ...text, paragraphs: text.paragraphs.map((p) => (p.runs !== undefined && isPlain(p) ? withoutRuns(p) : p)) };
}

function isPlain(paragraph: Paragraph): boolean {
  return (paragraph.runs ?? []).every((run) => !run.href && !run.token && !(run.marks && run.marks.length > 0));
}

function withoutRuns(paragraph: Paragraph): Paragraph {
  const { runs: _runs, ...rest } = paragraph;
  return rest;
}

/** The transcript as plain text (search, descriptions, no-JavaScript readers); none in the browser (page-data.ts). */
export function transcriptPlainText(transcript: Transcript | null): string {
  if (!transcript) return "";
  const lines: string[] = [];
  const visit = (topics: TranscriptTopic[]) => {
    for (const topic of topics) {
      for (const text of topic.texts) for (const p of text.paragraphs) lines.push(p.text);
      for (const alt of topic.images ?? []) lines.push(alt);
      visit(topic.topics);
    }
  };
  visit(transcript.topics);
  return lines.join("\n");
}
