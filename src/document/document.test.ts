import { describe, expect, it } from "vitest";
import { importMarkdown, MARKDOWN_MAX_LENGTH, MarkdownImportError } from "./markdown";
import { InvalidDocumentError, parseDocument, walkTopics } from "./schema";
import { deriveTranscript, transcriptPlainText } from "./transcript";

const DECK = `# Sourdough basics
## From flour to loaf
---
# The starter
- Flour and water
- Wild yeast and **lactic** bacteria
Feed it daily.
---
# Baking
Hot oven, steam, patience.
`;

describe("Markdown import", () => {
  it("makes one topic per slide inside an overview topic, with the spec's text shapes", () => {
    const doc = importMarkdown(DECK, "0");
    expect(doc.topics).toHaveLength(1);
    const [overview] = doc.topics;
    expect(overview?.topics.map((t) => t.id)).toEqual(["slide-1", "slide-2", "slide-3"]);
    const starter = overview?.topics[1];
    expect(starter?.texts.map((t) => t.styleClasses)).toEqual([["title"], ["body"]]);
    expect(starter?.texts[1]?.paragraphs).toEqual([
      { text: "Flour and water", listType: "BULLET", biggestFontSize: 36 },
      {
        text: "Wild yeast and lactic bacteria",
        listType: "BULLET",
        biggestFontSize: 36,
        runs: [{ text: "Wild yeast and " }, { text: "lactic", marks: ["strong"] }, { text: " bacteria" }],
      },
      { text: "Feed it daily.", listType: "NONE", biggestFontSize: 36 },
    ]);
    expect(overview?.topics[0]?.texts.map((t) => t.styleClasses[0])).toEqual(["title", "subtitle"]);
  });

  it("classic decks start on the overview; pitch decks go slide to slide", () => {
    expect(importMarkdown(DECK, "0").path).toEqual(["overview", "slide-1", "slide-2", "slide-3"]);
    expect(importMarkdown(DECK, "2").path).toEqual(["slide-1", "slide-2", "slide-3"]);
  });

  it("keeps HTML in Markdown as literal text, never markup", () => {
    const doc = importMarkdown("# <script>alert(1)</script>\n<img src=x onerror=alert(1)>", "2");
    const texts = [...walkTopics(doc.topics)].flatMap(({ topic }) => topic.texts.flatMap((t) => t.paragraphs));
    expect(texts.map((p) => p.text)).toEqual(["<script>alert(1)</script>", "<img src=x onerror=alert(1)>"]);
  });

  it("refuses a file over the size limit (10 MB of text) with a clear message, quickly", () => {
    const huge = "word ".repeat((10 * 1024 * 1024) / 5);
    expect(huge.length).toBeGreaterThan(MARKDOWN_MAX_LENGTH);
    expect(() => importMarkdown(huge, "2")).toThrow(MarkdownImportError);
    expect(() => importMarkdown(huge, "2")).toThrow(/too large/);
  });

  it("refuses a file with no text", () => {
    expect(() => importMarkdown("\n---\n   \n---\n", "2")).toThrow(/no slides/);
  });

  it("flattens deeply nested lists into bullets", () => {
    const nested = Array.from({ length: 200 }, (_, i) => `${"  ".repeat(i)}- level ${i}`).join("\n");
    const doc = importMarkdown(nested, "2");
    const paragraphs = doc.topics[0]?.topics[0]?.texts[0]?.paragraphs ?? [];
    expect(paragraphs).toHaveLength(200);
    expect(paragraphs.every((p) => p.listType === "BULLET")).toBe(true);
  });
});

describe("document schema", () => {
  it("accepts what the importer makes, and round-trips through JSON", () => {
    const doc = importMarkdown(DECK, "0");
    expect(parseDocument(JSON.parse(JSON.stringify(doc)))).toEqual(doc);
  });

  it("names the first invalid field", () => {
    const doc = JSON.parse(JSON.stringify(importMarkdown(DECK, "0")));
    doc.topics[0].topics[1].texts[0].styleClasses = ["headline"];
    try {
      parseDocument(doc);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidDocumentError);
      expect((error as InvalidDocumentError).field).toBe("topics.0.topics.1.texts.0.styleClasses.0");
    }
  });

  it("rejects a path step that names no topic, and duplicate topic ids", () => {
    const doc = JSON.parse(JSON.stringify(importMarkdown(DECK, "0")));
    doc.path.push("nowhere");
    expect(() => parseDocument(doc)).toThrow(/path\.4: step "nowhere" names no topic/);
    const dup = JSON.parse(JSON.stringify(importMarkdown(DECK, "0")));
    dup.topics[0].topics[2].id = "slide-1";
    expect(() => parseDocument(dup)).toThrow(/duplicate topic id "slide-1"/);
  });

  it("rejects remote images: documents only use Podium's own assets", () => {
    const doc = JSON.parse(JSON.stringify(importMarkdown(DECK, "0")));
    doc.topics[0].topics[0].images.push({
      id: "i1",
      src: "https://evil.test/x.png",
      alt: "",
      x: 0,
      y: 0,
      width: 1,
      height: 1,
    });
    expect(() => parseDocument(doc)).toThrow(/images must be Podium assets/);
  });
});

describe("transcript", () => {
  it("R3.7 is derived from the document: path order, texts with paragraphs, nested topics", () => {
    const transcript = deriveTranscript(importMarkdown(DECK, "0"));
    // The text-less overview gives its place to its slides.
    expect(transcript.topics.map((t) => t.id)).toEqual(["slide-1", "slide-2", "slide-3"]);
    expect(transcript.topics[1]?.texts[0]).toMatchObject({
      styleClasses: ["title"],
      paragraphs: [{ text: "The starter", listType: "NONE" }],
    });
    expect(transcriptPlainText(transcript)).toContain("Wild yeast and lactic bacteria");
  });

  it("R3.7 follows the path's order, not the canvas order, and keeps nesting", () => {
    const doc = importMarkdown(DECK, "2");
    const reordered = { ...doc, path: ["slide-3", "slide-1"] };
    expect(deriveTranscript(reordered).topics.map((t) => t.id)).toEqual(["slide-3", "slide-1"]);
    const nested = JSON.parse(JSON.stringify(doc));
    const child = nested.topics[0].topics.pop();
    nested.topics[0].topics[0].topics.push(child);
    const tree = deriveTranscript(nested).topics;
    expect(tree[0]?.id).toBe("slide-1");
    expect(tree[0]?.topics.map((t) => t.id)).toEqual(["slide-3"]);
  });

  it("R3.7 keeps the text of a nested topic that is no step of its own (JSON import), as the slide shows it", () => {
    const doc = JSON.parse(JSON.stringify(importMarkdown(DECK, "2")));
    const slide = doc.topics[0].topics[0];
    slide.topics.push({
      ...slide,
      id: "callout",
      topics: [],
      texts: [
        {
          id: "callout-text",
          styleClasses: ["body"],
          paragraphs: [{ text: "Only on the slide", listType: "NONE", biggestFontSize: 36 }],
        },
      ],
    });
    expect(doc.path).not.toContain("callout");
    const transcript = deriveTranscript(doc);
    const first = transcript.topics.find((t) => t.id === slide.id);
    expect(first?.topics.map((t) => t.id)).toEqual(["callout"]);
    expect(transcriptPlainText(transcript)).toContain("Only on the slide");
    // A topic no step shows, nested in nothing shown, stays out.
    const hidden = { ...doc, path: doc.path.filter((id: string) => id !== slide.id) };
    expect(transcriptPlainText(deriveTranscript(hidden))).not.toContain("Only on the slide");
  });
});
