import { describe, expect, it } from "vitest";
import { bulkDeck } from "./bulk";

const deckSources = import.meta.glob<string>("./content/decks/*.md", { query: "?raw", import: "default", eager: true });
const allSources = Object.values(deckSources).join("\n");

interface Paragraph {
  text: string;
  listType: string;
}
interface Topic {
  texts: { paragraphs: Paragraph[] }[];
  topics: Topic[];
}

const paragraphsOf = (topic: Topic): Paragraph[] => [
  ...topic.texts.flatMap((text) => text.paragraphs),
  ...topic.topics.flatMap(paragraphsOf),
];

describe("issue 15 item 1: seed:bulk decks", () => {
  it("are made of the demo decks' own headings and bullet items, read with a Markdown parser", () => {
    const now = new Date("2026-11-23T12:00:00Z");
    for (let n = 0; n < 40; n += 1) {
      const deck = bulkDeck("vocab", n, 10, now);
      const paragraphs = (JSON.parse(deck.document) as { topics: Topic[] }).topics.flatMap(paragraphsOf);
      const bullets = paragraphs.filter((p) => p.listType === "BULLET");
      expect(bullets.length, deck.title).toBeGreaterThan(0);
      for (const bullet of bullets) {
        // A bullet item as written in a demo deck, without its "- " marker and never a heading.
        expect(allSources, bullet.text).toContain(`- ${bullet.text}\n`);
        expect(bullet.text.startsWith("#")).toBe(false);
      }
      expect(deck.tags.length).toBeGreaterThan(0);
      // The same deck on every run with this id.
      expect(bulkDeck("vocab", n, 10, now)).toEqual(deck);
    }
  });
});
