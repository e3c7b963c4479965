import { describe, expect, it } from "vitest";
import {
  authorSegmentOf,
  excludedTermsOf,
  searchQueriesOf,
  searchTypeOf,
  searchUrl,
  soughtWords,
  tsqueryOf,
} from "./search";

describe("search", () => {
  it.each([
    ["", "/explore/"],
    ["   ", "/explore/"],
    ["sourdough", "/explore/search/?search=sourdough"],
    ["pitch & deck/2026?", "/explore/search/?search=pitch%20%26%20deck%2F2026%3F"],
    ["crème brûlée", "/explore/search/?search=cr%C3%A8me%20br%C3%BBl%C3%A9e"],
  ])("R2.4 R5 (search) an empty term goes to /explore/, otherwise the URL-encoded term: %j → %s", (term, url) => {
    expect(searchUrl(term)).toBe(url);
  });

  it.each([
    ["teacher", "teacher"],
    ["sales-marketing", "sales-marketing"],
    ["astronaut", "other"],
    [undefined, "other"],
  ])("R3.6 an author segment outside the four counts as other: %s → %s", (segment, counted) => {
    expect(authorSegmentOf(segment)).toBe(counted);
  });

  it.each([
    ["Sourd bread", "'sourd':* & 'bread':*"],
    ["a & b | !c <-> 'd':*", "'a' & 'b' & 'c' & 'd'"],
    ["  !!! ", null],
    ["日本語 テスト", "'日本語' & 'テスト'"],
    ["日本語の旅", "'日本語の旅':*"],
    ['"water cycle" -rain', "('water' <-> 'cycle') & !'rain':*"],
    ["mars OR apollo history", "('mars':* | 'apollo':*) & 'history':*"],
    ['-"water cycle" clouds', "!('water' <-> 'cycle') & 'clouds':*"],
    // OR at either end, or next to an exclusion, is a word; exclusions alone look for nothing.
    ["OR mars", "'or' & 'mars':*"],
    ["mars OR -apollo", "'mars':* & 'or' & !'apollo':*"],
    ["-mars -apollo", null],
    // A word with inner punctuation is a phrase of its parts, as web search engines read it.
    ["e-mail", "('e' <-> 'mail')"],
  ])(
    "issue 15 item 3: web-search syntax becomes a tsquery of quoted lexemes; typed operators stay words: %j",
    (terms, tsquery) => {
      expect(tsqueryOf(terms)).toBe(tsquery);
    },
  );

  it("issue 15 item 3: a tsquery takes at most 8 words", () => {
    expect(tsqueryOf("one two three four five six seven eight nine")?.split("&")).toHaveLength(8);
  });

  it("issue 15 item 3: sought words leave out the excluded ones (typo tolerance looks for these)", () => {
    expect(soughtWords('sourdoguh "bread basics" -rye')).toEqual(["sourdoguh", "bread", "basics"]);
    expect(excludedTermsOf('sourdoguh -rye -"wild yeast" -')).toBe('-rye -"wild yeast"');
  });

  it("issue 15 item 3: filters go into the address only when set", () => {
    expect(searchUrl("mars", { type: "all", tag: null })).toBe("/explore/search/?search=mars");
    expect(searchUrl("mars", { type: "video", tag: "space & time", page: 2 })).toBe(
      "/explore/search/?search=mars&type=video&tag=space%20%26%20time&page=2",
    );
    expect(searchTypeOf("template")).toBe("template");
    expect(searchTypeOf("<script>")).toBe("all");
  });

  it("issue 15 item 2: prefixes for titles and tags, whole words for the text, the excluded words alone", () => {
    expect(searchQueriesOf('sourd "wild yeast" -rye')).toEqual({
      titles: "'sourd':* & ('wild' <-> 'yeast') & !'rye'",
      text: "'sourd' & ('wild' <-> 'yeast') & !'rye'",
      exclusions: "!'rye'",
    });
    expect(searchQueriesOf("bread OR pie")).toEqual({
      titles: "('bread':* | 'pie')",
      text: "('bread' | 'pie')",
      exclusions: null,
    });
    expect(searchQueriesOf("  !!! ")).toBeNull();
  });
});
