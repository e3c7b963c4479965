import { describe, expect, it } from "vitest";
import { bulkDeck, SKEWED_TAG } from "./bulk";

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

  it("issue 32: the skewed shape: newer than anything before, no views or likes, one tag and one owner on every other deck", () => {
    const now = new Date("2026-11-23T12:00:00Z");
    const decks = Array.from({ length: 40 }, (_, n) => bulkDeck("skew", n, 10, now, undefined, true));
    expect(decks.every((deck) => new Date(deck.lastModified) >= now)).toBe(true);
    expect(decks.every((deck) => deck.viewCount === 0 && deck.likes === 0)).toBe(true);
    expect(decks.filter((deck) => deck.tags.includes(SKEWED_TAG))).toHaveLength(20);
    expect(decks.filter((_deck, n) => n % 2 === 0).every((deck) => deck.owner === 0)).toBe(true);
    // Otherwise the run's own decks: titles and slides as without the skew.
    expect(decks[3]?.title).toBe(bulkDeck("skew", 3, 10, now).title);
  });
});
