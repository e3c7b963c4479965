import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { importMarkdown, MarkdownImportError, stripInlineMarks } from "./markdown";
import { documentToMarkdown } from "./markdown-export";
import type { PresentationDocument, Topic } from "./schema";

/** Text and image ids are generated from positions in the source; compare documents without them. */
function withoutGeneratedIds(document: PresentationDocument): unknown {
  const strip = (topic: Topic): unknown => ({
    ...topic,
    texts: topic.texts.map(({ id: _id, ...text }) => text),
    images: topic.images.map(({ id: _id, ...image }) => image),
    topics: topic.topics.map(strip),
  });
  return { ...document, topics: document.topics.map(strip) };
}

/** Characters that mean something to the importer, mixed with plain ones. */
const CHARACTERS = [..."ab Z9 *_`[]()\\#-+!.)é\u00a0\t", "\u2028", "😀"];
const words = fc.array(fc.constantFrom(...CHARACTERS), { maxLength: 24 }).map((chars) => chars.join(""));
const line = fc.oneof(
  words,
  fc.tuple(fc.integer({ min: 1, max: 7 }), words).map(([level, text]) => `${"#".repeat(level)} ${text}`),
  fc.tuple(fc.constantFrom("-", "*", "+", "1.", "2)"), words).map(([marker, text]) => `${marker} ${text}`),
  fc.tuple(words, fc.constantFrom("/assets/a.png", "/assets/x/y-1.svg")).map(([alt, src]) => `![${alt}](${src})`),
  fc.constantFrom("", "   ", "---", " ----- ", "`` ``", "**bold** and _em_", "[label](https://x.test)"),
);
const markdownSource = fc.array(line, { minLength: 1, maxLength: 30 }).map((lines) => lines.join("\n"));

function importOrNull(source: string, schemaVersion: "0" | "2"): PresentationDocument | null {
  try {
    return importMarkdown(source, schemaVersion);
  } catch (error) {
    if (error instanceof MarkdownImportError) return null;
    throw error;
  }
}

describe("documentToMarkdown", () => {
  it("round-trips Markdown-made decks: importing its output gives the same document (up to generated ids)", () => {
    fc.assert(
      fc.property(markdownSource, fc.constantFrom("0" as const, "2" as const), (source, schemaVersion) => {
        const document = importOrNull(source, schemaVersion);
        fc.pre(document !== null);
        if (!document) return;
        const again = importMarkdown(documentToMarkdown(document), schemaVersion);
        expect(withoutGeneratedIds(again)).toEqual(withoutGeneratedIds(document));
      }),
      { numRuns: 1500 },
    );
  });

  it("writes ordinary decks as the Markdown people write", () => {
    const source =
      "# Tide pools\n## Life between the waves\n---\n# Who lives there\n- Anemones\n- Hermit crabs\n\nLook, don't lift.\n---\n![A crab](/assets/crab.png)\n";
    const document = importMarkdown(source, "2");
    expect(documentToMarkdown(document)).toBe(source);
  });

  it("escapes what would otherwise read as Markdown", () => {
    const document = importMarkdown("# Title\n\\# not a heading\n\\- not a bullet\n2 \\* 3 \\* 4 = 24\n", "2");
    const paragraphs = document.topics[0]?.topics[0]?.texts[1]?.paragraphs.map((p) => p.text);
    expect(paragraphs).toEqual(["# not a heading", "- not a bullet", "2 * 3 * 4 = 24"]);
    const markdown = documentToMarkdown(document);
    expect(withoutGeneratedIds(importMarkdown(markdown, "2"))).toEqual(withoutGeneratedIds(document));
  });
});

describe("stripInlineMarks", () => {
  it("reads marks as plain words, and backslash escapes as the literal character", () => {
    expect(stripInlineMarks("**bold** _em_ `code` [label](https://x.test)")).toBe("bold em code label");
    expect(stripInlineMarks("\\*not em\\* and \\\\ and C:\\path")).toBe("*not em* and \\ and C:\\path");
  });
});
