import { describe, expect, it } from "vitest";
import { escapeHtml, jsonForScript } from "./html";

describe("escaping page data", () => {
  it("keeps JSON inside a script element from closing it or opening tags", () => {
    const hostile = { title: "</script><script>alert(1)</script><!--", note: "a & b > c\u2028d" };
    const out = jsonForScript(hostile);
    expect(out).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(out)).toEqual(hostile);
  });
  it("escapes HTML special characters in text and attributes", () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe(
      "&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;",
    );
  });
});
