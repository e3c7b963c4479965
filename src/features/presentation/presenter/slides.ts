import type { PresentationDocument, Topic } from "../document/schema";

/** Every topic of the document by id (a path step names one). */
export function topicsById(document: PresentationDocument): Map<string, Topic> {
  const byId = new Map<string, Topic>();
  const visit = (topics: Topic[]) => {
    for (const topic of topics) {
      byId.set(topic.id, topic);
      visit(topic.topics);
    }
  };
  visit(document.topics);
  return byId;
}

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
