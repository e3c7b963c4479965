import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import { testDatabaseTargets } from "../../db/testing";
import { cardCount, cardSlice, keptCards } from "../../lib/card";
import { useTestApp } from "../../server/testing";

/**
 * Issue 32: the cards of home, explore and search travel once, as the page's markup. The boot JSON
 * says how many each list holds ({ kept: n }) and the browser keeps the server's markup
 * (ui/ServerMarkup): before, every card went out twice, and a search page's JSON was 18 KB of its 48.
 */
const PAGES = [
  { name: "home", path: "/", lists: ["recent"] },
  { name: "explore", path: "/explore/", lists: ["popular", "recent"] },
  { name: "search", path: "/explore/search/?search=bread", lists: ["results"] },
] as const;

function read(html: string) {
  const document = new JSDOM(html).window.document;
  const boot = JSON.parse(document.getElementById("podium-boot")?.textContent ?? "null") as { data: unknown };
  const lists = [...document.querySelectorAll(".card-list")].map((list) => ({
    cards: list.querySelectorAll(".card").length,
    titles: [...list.querySelectorAll(".card__title")].map((title) => title.textContent ?? ""),
    paths: [...list.querySelectorAll("a.card")].map((card) => card.getAttribute("href") ?? ""),
  }));
  return { boot: boot.data as Record<string, unknown>, bootText: JSON.stringify(boot.data), lists };
}

describe("issue 32 kept cards: counts and slices", () => {
  it("issue 32 counts and slices cards drawn and kept alike", () => {
    const cards = ["a", "b", "c"].map((title) => ({
      title,
      subTitle: "",
      path: `/p/${title}/`,
      thumbnail: "",
      type: "PRESENTATION" as const,
      previewAnimation: null,
      titleLines: 2,
      subTitleLines: 1,
    }));
    const kept = keptCards(cards);
    expect(kept).toEqual({ kept: 3 });
    for (const [start, end] of [
      [0, 3],
      [0, 1],
      [1, 3],
      [3, 3],
      [2, 5],
    ] as const) {
      expect(cardCount(cardSlice(kept, start, end))).toBe(cardCount(cardSlice(cards, start, end)));
    }
  });
});

describe.each(testDatabaseTargets())("issue 32 kept cards on $name", (target) => {
  const made = useTestApp(target, { seeded: true });

  it.each(PAGES)(
    "issue 32 the $name page's cards are in its markup once, the boot JSON holds their count only",
    async ({ path, lists }) => {
      const response = await made.app.inject({ method: "GET", url: path });
      expect(response.statusCode).toBe(200);
      const page = read(response.body);
      expect(page.lists.length).toBe(lists.length);
      lists.forEach((name, index) => {
        const shown = page.lists[index];
        expect(shown?.cards).toBeGreaterThan(0);
        expect(page.boot[name]).toEqual({ kept: shown?.cards });
        // No card's address or title travels a second time in the JSON.
        for (const cardPath of shown?.paths ?? []) expect(page.bootText).not.toContain(cardPath);
      });
    },
  );
});
