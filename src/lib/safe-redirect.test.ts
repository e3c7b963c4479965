import { describe, expect, it } from "vitest";
import { safeNextPath } from "./safe-redirect";

describe("next redirects stay on our origin", () => {
  it("R2.7 R2.8 honours same-origin paths, with their query and fragment", () => {
    expect(safeNextPath("/p/abcdefghijkl/sourdough/")).toBe("/p/abcdefghijkl/sourdough/");
    expect(safeNextPath("/dashboard/next?after_segmentation_url=/v/create/")).toBe(
      "/dashboard/next?after_segmentation_url=/v/create/",
    );
    expect(safeNextPath("/p/x/#step=3")).toBe("/p/x/#step=3");
  });
  it("sends every other origin, scheme or trick to /", () => {
    for (const hostile of [
      "//evil.com",
      "///evil.com",
      "/\\evil.com",
      "\\\\evil.com",
      "https://evil.com",
      "http:evil.com",
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      "data:text/html,hi",
      "/%09/evil.com",
      "/%2F/evil.com",
      "/%5Cevil.com",
      "/\t/evil.com",
      "/\n/evil.com",
      " /evil",
      "evil.com",
      "",
      "%",
      "/%E0%A4%A",
      `/${"a".repeat(3000)}`,
    ]) {
      expect(safeNextPath(hostile), JSON.stringify(hostile)).toBe("/");
    }
    expect(safeNextPath(undefined)).toBe("/");
    expect(safeNextPath("/.//evil.example", "/home/")).toBe("/home/");
    expect(safeNextPath(["/a"])).toBe("/");
    expect(safeNextPath("//evil.com", "/dashboard/next/")).toBe("/dashboard/next/");
  });

  it("hardening 2: a path whose dot segments resolve to //host is refused, not returned", () => {
    for (const hostile of [
      "/.//evil.example",
      "/..//evil.example/x",
      "/%2e//evil.example",
      "/%2E%2E//evil.example",
      "/a/..//evil.example",
      "/a/b/../..//evil.example",
      "/./%2f/evil.example",
    ]) {
      const result = safeNextPath(hostile);
      expect(result, JSON.stringify(hostile)).toBe("/");
    }
    // Every answer is a same-origin path, whatever goes in.
    for (const input of ["/a/./b", "/a/../b", "/%2e/b"]) {
      const result = safeNextPath(input);
      expect(result.startsWith("/") && !result.startsWith("//"), input).toBe(true);
      expect(new URL(result, "http://podium.invalid").origin).toBe("http://podium.invalid");
    }
  });
});
