import { describe, expect, it } from "vitest";
import { authorSegmentOf, searchUrl, tsqueryOf } from "./search";

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

  it("turns words into prefix queries and drops every operator", () => {
    expect(tsqueryOf("Sourd bread")).toBe("sourd:* & bread:*");
    expect(tsqueryOf("a & b | !c <-> 'd':*")).toBe("a:* & b:* & c:* & d:*");
    expect(tsqueryOf("  !!! ")).toBeNull();
    expect(tsqueryOf("one two three four five six seven eight nine")?.split("&")).toHaveLength(8);
    expect(tsqueryOf("日本語 テスト")).toBe("日本語:* & テスト:*");
  });
});
