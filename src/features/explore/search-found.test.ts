import type { FastifyInstance } from "fastify";
import { JSDOM } from "jsdom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "../../db/testing";
import { importMarkdown } from "../../document/markdown";
import { stableOid } from "../../lib/ids";
import { createTestApp, insertTestDeck } from "../../server/testing";

/**
 * Issue 28 item 5: a phrase written in a deck is reported as found. Each phrase below is in one
 * deck only, so the words find one hit and typo tolerance (fewer than 3) adds alike decks, those
 * that hold one of the words: before, the whole page then said "No exact matches" above the deck
 * that holds the phrase.
 */
const TIDES = `# Tides for Small Boats
---
## Before you sail
- Most of the coast of the bay is shallow; a rule of thumb is to leave an hour of margin
- The depth of water on the chart is the depth of the sea at its lowest
---
## Heights
- Tide heights are given above chart datum, the lowest tide expected in a normal year
---
## The rule of twelfths
- The tide rises a twelfth in the first hour, two twelfths in the second and three in the third
`;
const WORKSHOP = `# Running a Safe Workshop
---
## Machines
- Kill the power before you change a blade
- Every machine has kill switches within reach of where you stand
`;
const SLEEP = `# Why We Nap
---
## Two systems
- Sleep pressure builds the longer we are awake, through adenosine
`;
/** Decks that hold one of the words each: what typo tolerance finds alike. */
const LURES: [string, string][] = [
  ["Rules of the Road", "# Rules of the Road\n---\n## Give way\n- Power gives way to sail\n"],
  ["Reading a Nautical Chart", "# Reading a Nautical Chart\n---\n## Symbols\n- Depths and hazards\n"],
  ["Network Switches Explained", "# Network Switches Explained\n---\n## Frames\n- Switches forward frames\n"],
  ["Pressure Cooking at Home", "# Pressure Cooking at Home\n---\n## Safety\n- Release the steam slowly\n"],
  ["Sleep Hygiene Tips", "# Sleep Hygiene Tips\n---\n## Evenings\n- Dim the lights an hour before bed\n"],
  ["Datum Planes in Surveying", "# Datum Planes in Surveying\n---\n## Levels\n- Heights from a benchmark\n"],
  ["Kill Chains in Security", "# Kill Chains in Security\n---\n## Stages\n- Reconnaissance first\n"],
  ["Twelfths and Other Fractions", "# Twelfths and Other Fractions\n---\n## Parts\n- Cut the cake in twelve\n"],
];

function read(html: string) {
  const document = new JSDOM(html).window.document;
  const cardsIn = (selector: string) =>
    [...document.querySelectorAll(`${selector} .card`)].map((card) => ({
      title: card.querySelector(".card__title")?.textContent ?? "",
      // The snippet's text with its marked words in brackets.
      snippet: [...(card.querySelector(".card__snippet")?.childNodes ?? [])]
        .map((node) => (node.nodeName === "MARK" ? `[${node.textContent}]` : node.textContent))
        .join(""),
    }));
  return {
    status: document.querySelector('main [role="status"]')?.textContent ?? "",
    // The exact hits: the page's list of cards; the alike ones sit in a section of their own.
    exact: cardsIn(".explore > .card-list .card-grid"),
    alike: cardsIn(".search-alike"),
    alikeHeading: document.querySelector(".search-alike h2")?.textContent ?? "",
  };
}

describe.each(testDatabaseTargets())("issue 28 item 5: search says what it found, on $name", (target) => {
  let app: FastifyInstance;
  let close: () => Promise<void>;
  const search = async (term: string) => {
    const response = await app.inject({ method: "GET", url: `/explore/search/?search=${encodeURIComponent(term)}` });
    expect(response.statusCode).toBe(200);
    return read(response.body);
  };

  beforeAll(async () => {
    let db: Awaited<ReturnType<typeof createTestApp>>["db"];
    ({ app, db, close } = await createTestApp(target));
    const [owner] = await db.query<{ id: string }>(
      "insert into users (oid, email, username, first_name) values ('found0000001', 'found@search.test', 'found', 'Fay') returning id::text",
    );
    const decks: [string, string, string][] = [
      ["Tides for Small Boats", TIDES, "<p>Planning a passage with the tide.</p>"],
      ["Running a Safe Workshop", WORKSHOP, "<p>Habits that keep fingers on hands.</p>"],
      ["Why We Nap", SLEEP, "<p>What the body does when it rests.</p>"],
      ...LURES.map(([title, markdown]): [string, string, string] => [title, markdown, ""]),
    ];
    for (const [title, markdown, descriptionHtml] of decks)
      await insertTestDeck(db, {
        oid: stableOid(`search-found:${title}`),
        ownerId: owner?.id ?? "",
        title,
        descriptionHtml,
        document: importMarkdown(markdown, "2"),
      });
  }, 120_000);

  afterAll(async () => {
    await close?.();
  });

  it.each([
    ["rule of twelfths", "Tides for Small Boats", "The [rule] [of] [twelfths]"],
    ["chart datum", "Tides for Small Boats", "above [chart] [datum]"],
    ["kill switches", "Running a Safe Workshop", "has [kill] [switches] within reach"],
    ["sleep pressure", "Why We Nap", "[Sleep] [pressure] builds"],
    ['"rule of twelfths"', "Tides for Small Boats", "The [rule] [of] [twelfths]"],
  ])(
    "%s: the deck that holds it is found, counted and never under “No exact matches”; its snippet shows the phrase",
    async (term, title, passage) => {
      const page = await search(term);
      expect(page.status).toBe("1 result found.");
      expect(page.status).not.toMatch(/No exact matches/);
      expect(page.exact.map((card) => card.title)).toEqual([title]);
      // The snippet starts at the passage that holds the words together, not at the first "of".
      expect(page.exact[0]?.snippet).toContain(passage);
      // Decks holding one of the words are offered apart, said to be alike.
      expect(page.alike.length).toBeGreaterThan(0);
      expect(page.alike.map((card) => card.title)).not.toContain(title);
      expect(page.alikeHeading).toContain("look like");
    },
  );

  it("says “No exact matches” only when no hit holds all the words", async () => {
    const none = await search("twelfths pressure");
    expect(none.status).toMatch(/No exact matches for “twelfths pressure”/);
    expect(none.alike).toEqual([]);
    expect(none.exact.length).toBeGreaterThan(0);
    // Found exactly and nothing alike to add: the plain count.
    const one = await search("adenosine");
    expect(one.status).toBe("1 result found.");
    expect(one.alike).toEqual([]);
  });
});
