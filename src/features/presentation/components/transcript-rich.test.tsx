// @vitest-environment jsdom
import { cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { parseDocument } from "../../../document/schema";
import { richDeck } from "../../../document/testing/rich-fixture";
import { deriveTranscript, transcriptPlainText } from "../../../document/transcript";
import { messagesFor } from "../../../i18n/catalogues";
import { createPodiumIntl } from "../../../i18n/podium-intl";
import { PodiumApp } from "../../../ui/PodiumApp";
import { TranscriptText } from "./TranscriptText";

afterEach(cleanup);

const deck = parseDocument(richDeck("dark", "/assets/abc.webp"));
const transcript = deriveTranscript(deck);

function draw(language: "en" | "de" = "en") {
  return render(
    <PodiumApp intl={createPodiumIntl(language, messagesFor(language))}>
      <TranscriptText transcript={transcript} />
    </PodiumApp>,
  ).container;
}

describe("issue 10: the transcript reads the rich document", () => {
  it("spec §3: texts keep the entity's fields (styleClasses, paragraphs' text, listType, biggestFontSize)", () => {
    const text = transcript.topics[2]?.texts[1];
    expect(text?.styleClasses).toEqual(["body"]);
    expect(text?.paragraphs[1]).toMatchObject({ text: "Fruit", listType: "BULLET", biggestFontSize: 36, level: 0 });
    // Runs that add nothing to `text` are left out of page data; rich runs stay.
    const plain = parseDocument({
      ...richDeck("light"),
      topics: [
        {
          ...(richDeck("light").topics as object[])[0],
          texts: [
            {
              id: "a",
              styleClasses: ["body"],
              paragraphs: [{ text: "hi", listType: "NONE", biggestFontSize: 36, runs: [{ text: "hi" }] }],
            },
          ],
        },
      ],
      path: ["slide-1"],
    });
    expect(deriveTranscript(plain).topics[0]?.texts[0]?.paragraphs[0]).toEqual({
      text: "hi",
      listType: "NONE",
      biggestFontSize: 36,
    });
    expect(transcript.topics[1]?.texts[1]?.paragraphs[0]?.runs?.[0]).toEqual({ text: "Bold", marks: ["strong"] });
  });

  it("renders marks, and links with rel, titled with their target and nothing drawn after them (issue 28)", () => {
    const container = draw();
    expect(container.querySelector("strong")?.textContent).toBe("Bold");
    const link = container.querySelector('a[href="https://example.com/guide/intro"]') as HTMLAnchorElement;
    expect(link.rel).toBe("noopener noreferrer nofollow");
    expect(link.textContent).toBe("the guide");
    expect(link.title).toBe("example.com/guide/intro");
    expect(link.parentElement?.textContent).not.toContain("(example.com");
  });

  it("titles are headings; R3.7 a text mixing bullets and paragraphs keeps its bullets, nested", () => {
    const container = draw();
    expect([...container.querySelectorAll("h3")].map((h) => h.textContent)).toContain("Nested bullets");
    const text = [...container.querySelectorAll(".transcript__body")].find((t) =>
      t.textContent?.startsWith("Bullets keep"),
    ) as HTMLElement;
    expect(text.querySelector(":scope > p")).not.toBeNull();
    expect(text.querySelector(":scope > ul > li > ul > li > ul > li")?.textContent).toBe("Cox");
  });

  it("numbered lists keep their start, tasks their state, code is a pre, tables are tables", () => {
    const container = draw();
    expect(container.querySelector("ol")?.getAttribute("start")).toBe("3");
    expect([...container.querySelectorAll<HTMLInputElement>("input[type=checkbox]")].map((b) => b.checked)).toEqual([
      true,
      false,
      false,
    ]);
    expect(container.querySelector("blockquote")).not.toBeNull();
    expect(container.querySelector("pre > code .tok-keyword")?.textContent).toBe("export");
    expect(container.querySelectorAll("table th[scope=col]")).toHaveLength(3);
  });

  it("a page topic's text layer is read in the transcript", () => {
    expect(draw().textContent).toContain("This text layer is hidden but read aloud");
  });

  it("speaker notes sit under their slide, labelled in the visitor's language", () => {
    const container = draw();
    const notes = [...container.querySelectorAll(".transcript__notes")];
    expect(notes).toHaveLength(2);
    expect(notes[0]?.querySelector(".transcript__notes-label")?.textContent).toBe("Speaker notes");
    expect([...(notes[0]?.querySelectorAll("p") ?? [])].map((p) => p.textContent)).toEqual([
      "Speaker notes",
      "Welcome everyone.",
      "This deck shows every construct.",
    ]);
    expect(notes[0]?.closest(".transcript__topic")?.textContent).toContain("Rich slides");
    cleanup();
    expect(draw("de").querySelector(".transcript__notes-label")?.textContent).toBe("Sprechernotizen");
  });

  it("the plain-text transcript (meta descriptions) leaves the notes out", () => {
    const plain = transcriptPlainText(transcript);
    expect(plain).toContain("Marks and links");
    expect(plain).not.toContain("Welcome everyone");
  });
});
