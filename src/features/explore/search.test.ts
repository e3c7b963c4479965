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
  it("R2.4 R5 (search) an empty term goes to /explore/, otherwise the URL-encoded term", () => {
    expect(searchUrl("")).toBe("/explore/");
    expect(searchUrl("   ")).toBe("/explore/");
    expect(searchUrl("sourdough")).toBe("/explore/search/?search=sourdough");
    expect(searchUrl("pitch & deck/2026?")).toBe("/explore/search/?search=pitch%20%26%20deck%2F2026%3F");
    expect(searchUrl("crème brûlée")).toBe("/explore/search/?search=cr%C3%A8me%20br%C3%BBl%C3%A9e");
  });

  it("R3.6 an author segment outside the four counts as other", () => {
    expect(authorSegmentOf("teacher")).toBe("teacher");
    expect(authorSegmentOf("sales-marketing")).toBe("sales-marketing");
    expect(authorSegmentOf("astronaut")).toBe("other");
    expect(authorSegmentOf(undefined)).toBe("other");
  });

  it("issue 15 item 3: web-search syntax becomes a tsquery of quoted lexemes; typed operators stay words", () => {
    expect(tsqueryOf("Sourd bread")).toBe("'sourd':* & 'bread':*");
    expect(tsqueryOf("a & b | !c <-> 'd':*")).toBe("'a' & 'b' & 'c' & 'd'");
    expect(tsqueryOf("  !!! ")).toBeNull();
    expect(tsqueryOf("one two three four five six seven eight nine")?.split("&")).toHaveLength(8);
    expect(tsqueryOf("日本語 テスト")).toBe("'日本語' & 'テスト'");
    expect(tsqueryOf("日本語の旅")).toBe("'日本語の旅':*");
    expect(tsqueryOf('"water cycle" -rain')).toBe("('water' <-> 'cycle') & !'rain':*");
    expect(tsqueryOf("mars OR apollo history")).toBe("('mars':* | 'apollo':*) & 'history':*");
    expect(tsqueryOf('-"water cycle" clouds')).toBe("!('water' <-> 'cycle') & 'clouds':*");
    // OR at either end, or next to an exclusion, is a word; exclusions alone look for nothing.
    expect(tsqueryOf("OR mars")).toBe("'or' & 'mars':*");
    expect(tsqueryOf("mars OR -apollo")).toBe("'mars':* & 'or' & !'apollo':*");
    expect(tsqueryOf("-mars -apollo")).toBeNull();
    // A word with inner punctuation is a phrase of its parts, as web search engines read it.
    expect(tsqueryOf("e-mail")).toBe("('e' <-> 'mail')");
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
