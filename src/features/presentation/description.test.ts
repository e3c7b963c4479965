import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildServer } from "../../server/testing/server-build";
import { sanitizeDescription } from "./description";

describe("issue 32 item 4: jsdom is loaded by the first description sanitised, not by the server", () => {
  it("importing the built sanitiser loads none of jsdom's modules (about 30 MB of heap); sanitising loads them", async () => {
    // Built as the server is (Vite, SSR, dependencies left to node_modules) and run in a process of
    // its own, which has loaded nothing else; inside node_modules so that its imports resolve.
    const outDir = join(
      process.cwd(),
      "node_modules",
      ".cache",
      `podium-description-${randomBytes(4).toString("hex")}`,
    );
    try {
      await buildServer(outDir, { input: { description: "src/features/presentation/description.ts" } });
      const script = `
        import { createRequire } from "node:module";
        const cache = createRequire(${JSON.stringify(`${outDir}/`)}).cache;
        const jsdomLoaded = () => Object.keys(cache).some((path) => path.includes("/node_modules/jsdom/"));
        const { sanitizeDescription } = await import(${JSON.stringify(pathToFileURL(join(outDir, "description.js")).href)});
        const before = jsdomLoaded();
        const clean = sanitizeDescription("<p>Hi <script>x</script></p>");
        console.log(JSON.stringify({ before, after: jsdomLoaded(), clean }));`;
      const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
      expect(JSON.parse(output)).toEqual({ before: false, after: true, clean: "<p>Hi </p>" });
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("description sanitiser (owner-supplied HTML)", () => {
  it("keeps simple text markup and safe links", () => {
    expect(sanitizeDescription("<p>Hello <strong>bold</strong> <em>it</em></p><ul><li>one</li></ul>")).toBe(
      "<p>Hello <strong>bold</strong> <em>it</em></p><ul><li>one</li></ul>",
    );
    expect(sanitizeDescription('<a href="https://example.org/x">link</a>')).toBe(
      '<a href="https://example.org/x" rel="noopener noreferrer nofollow ugc" target="_blank">link</a>',
    );
  });

  it("removes scripts, event handlers, javascript: links, styles and frames", () => {
    const cases = [
      "<script>alert(1)</script>",
      '<img src=x onerror="alert(1)">',
      '<p onclick="alert(1)">x</p>',
      '<a href="javascript:alert(1)">x</a>',
      '<a href="JaVaScRiPt:alert(1)">x</a>',
      '<a href="  javascript:alert(1)">x</a>',
      '<a href="data:text/html,<script>alert(1)</script>">x</a>',
      '<a href="vbscript:msgbox(1)">x</a>',
      '<iframe src="https://evil.example"></iframe>',
      '<object data="x"></object><embed src="x">',
      '<p style="background:url(javascript:alert(1))">x</p>',
      '<form action="https://evil.example"><input name="p"></form>',
      '<meta http-equiv="refresh" content="0;url=https://evil.example">',
      '<base href="https://evil.example/">',
    ];
    for (const html of cases) {
      const clean = sanitizeDescription(html);
      expect(clean, html).not.toMatch(
        /<script|onerror|onclick|javascript:|vbscript:|data:|<iframe|<object|<embed|style=|<form|<meta|<base/i,
      );
    }
  });

  it("defuses <svg> and <math> mutation tricks", () => {
    const cases = [
      "<svg><script>alert(1)</script></svg>",
      '<svg onload="alert(1)"><circle r="1"/></svg>',
      '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
      "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>",
      '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
      '<svg></p><style><a id="</style><img src=1 onerror=alert(1)>">',
      '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
      "<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>",
    ];
    for (const html of cases) {
      const clean = sanitizeDescription(html);
      expect(clean, html).not.toMatch(/onerror|onload|javascript:|<svg|<math|<script|<style|<img/i);
    }
  });

  it("is idempotent even for nested links torn apart by tables (found by the property below)", () => {
    const once = sanitizeDescription("<a href='javascript:alert(1)'><table><a href='https://x.test'>");
    expect(sanitizeDescription(once)).toBe(once);
  });

  it("is idempotent: sanitising twice equals sanitising once (property)", () => {
    const fragment = fc.constantFrom(
      "<p>",
      "</p>",
      "<strong>",
      "</strong>",
      "<a href='https://x.test'>",
      "<a href='javascript:alert(1)'>",
      "</a>",
      "<img src=x onerror=alert(1)>",
      "<svg>",
      "</svg>",
      "<math>",
      "<mtext>",
      "<style>",
      "</style>",
      "<script>",
      "</script>",
      "<ul><li>",
      "</li></ul>",
      "<!--",
      "-->",
      "<noscript>",
      "<table>",
      "&lt;",
      "&amp;",
      '"',
      "'",
      "text ",
      "é ",
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(fragment, fc.string({ maxLength: 8 })), { maxLength: 30 }), (parts) => {
        const once = sanitizeDescription(parts.join(""));
        expect(sanitizeDescription(once)).toBe(once);
        expect(once).not.toMatch(/<script|onerror=|javascript:/i);
      }),
      { numRuns: 500 },
    );
  });
});
