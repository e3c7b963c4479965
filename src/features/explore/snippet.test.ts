import { describe, expect, it } from "vitest";
import { MARK_END, MARK_START } from "../../lib/card";
import {
  markedSnippet,
  markedWords,
  nextWord,
  SNIPPET_PASSAGES,
  SNIPPET_TEXT_MAX_CHARS,
  SNIPPET_WORDS,
  snippetWordsOf,
} from "./snippet";

/** Marked runs as [word] for reading. */
const shown = (snippet: string) => snippet.replaceAll(MARK_START, "[").replaceAll(MARK_END, "]");
const filler = (count: number, word = "filler") => Array.from({ length: count }, (_, i) => `${word}${i}`).join(" ");

describe("issue 15 item 3: search snippets (highlighting)", () => {
  it("marks the words searched for, whatever their case, as whole words or as the start of a word (4 letters or more), never the excluded ones", () => {
    const words = snippetWordsOf("sourd bread -rye");
    expect(shown(markedSnippet("Sourdough and BREAD, breadth, shortbread and rye bread.", words))).toBe(
      "[Sourdough] and [BREAD], [breadth], shortbread and rye [bread].",
    );
  });

  it("marks a title whole, every sought word in it, as the snippet marks them, keeping its text as written", () => {
    expect(shown(markedWords("Sourdough  basics: the SOURDOUGH way (rye-free)", snippetWordsOf("sourd -rye")))).toBe(
      "[Sourdough]  basics: the [SOURDOUGH] way (rye-free)",
    );
    expect(shown(markedWords("The theory of the tea", snippetWordsOf("the")))).toBe("[The] theory of [the] tea");
    expect(shown(markedWords("<script>alert(1)</script> Marmalade tips", snippetWordsOf("marmalade")))).toBe(
      "<script>alert(1)</script> [Marmalade] tips",
    );
    expect(markedWords("Nothing sought here", snippetWordsOf("quince"))).toBe("Nothing sought here");
    expect(shown(markedWords("Crème brûlée für Bäcker", snippetWordsOf("brûlée bäck")))).toBe(
      "Crème [brûlée] für [Bäcker]",
    );
  });

  it("marks words of three letters only whole, and the words of a quoted phrase whole", () => {
    expect(shown(markedSnippet("the theory of the tea", snippetWordsOf("the")))).toBe("[the] theory of [the] tea");
    expect(shown(markedSnippet("wild yeast and wilder yeasts", snippetWordsOf('"wild yeast"')))).toBe(
      "[wild] [yeast] and wilder yeasts",
    );
  });

  it("shows a passage starting a few words before the first match, and a second one at the next match, with ellipses where text was left out", () => {
    const text = `${filler(40)} starter ${filler(60, "more")} starter ${filler(30, "end")}`;
    const snippet = shown(markedSnippet(text, snippetWordsOf("starter")));
    expect(snippet.startsWith("… filler34 ")).toBe(true);
    expect(snippet.endsWith(" …")).toBe(true);
    const passages = snippet.slice(2, -2).split(" … ");
    expect(passages).toHaveLength(SNIPPET_PASSAGES);
    for (const passage of passages) {
      expect(passage).toContain("[starter]");
      expect(passage.split(" ")).toHaveLength(SNIPPET_WORDS);
    }
  });

  it("starts a passage at a sentence's first word when one is near, and never inside a word such as baker's", () => {
    const words = snippetWordsOf("sourdough");
    const sentence = `${filler(30)}. Good sourdough needs time`;
    expect(shown(markedSnippet(sentence, words))).toBe("… Good [sourdough] needs time");
    const possessive = `${filler(30)} of baker's famous percentages and the timeline sourdough needs`;
    expect(shown(markedSnippet(possessive, words))).toBe("… famous percentages and the timeline [sourdough] needs");
  });

  it("without a match (a hit found by its title), shows the text's first words", () => {
    const snippet = markedSnippet(`Intro\n\n  to   ${filler(50)}`, snippetWordsOf("nowhere"));
    expect(snippet.startsWith("Intro to filler0 ")).toBe(true);
    expect(snippet.endsWith(" …")).toBe(true);
    expect(snippet.split(" ")).toHaveLength(SNIPPET_WORDS + 1);
    expect(snippet).not.toContain(MARK_START);
  });

  it("starts without an ellipsis when only space or a stripped tag comes before the first word", () => {
    expect(shown(markedSnippet("  How to set marmalade every time.", snippetWordsOf("marmalade")))).toBe(
      "How to set [marmalade] every time.",
    );
  });

  it("reads the words sought literally, whatever characters they hold", () => {
    const sought = { whole: new Set(["a.b", "c++", "(x"]), prefixes: ["a.b"] };
    expect(shown(markedSnippet("axb a.b c++ (x", sought))).toBe("axb a.b c++ (x");
    expect(shown(markedSnippet("axb a c", snippetWordsOf("a.b")))).not.toContain("[axb]");
  });

  it("marks each whole word searched for, when one is the start of another (an, and)", () => {
    expect(shown(markedSnippet("An apple and an answer, and more", snippetWordsOf("an and")))).toBe(
      "[An] apple [and] [an] answer, [and] more",
    );
  });

  it("issue 28 item 5: the first passage is where the words are found together, not the first place one of them is", () => {
    // "of" is everywhere; "rule" and "twelfths" together only on a late slide.
    const deck = `Tides of the coast. ${filler(30)} A rule of thumb for ${filler(40, "pad")}. The rule of twelfths says the tide rises a twelfth in the first hour. ${filler(30, "end")}`;
    const snippet = shown(markedSnippet(deck, snippetWordsOf("rule of twelfths")));
    expect(snippet.startsWith("… The [rule] [of] [twelfths] says the tide rises")).toBe(true);
    // Written together beats written apart, though apart comes first.
    const apart = `Sleep well. ${filler(5)} pressure at sea level. ${filler(40)}. Sleep pressure builds while we are awake.`;
    expect(shown(markedSnippet(apart, snippetWordsOf("sleep pressure")))).toBe(
      "… [Sleep] [pressure] builds while we are awake.",
    );
    // A quoted phrase the same.
    expect(shown(markedSnippet(apart, snippetWordsOf('"sleep pressure"')))).toBe(
      "… [Sleep] [pressure] builds while we are awake.",
    );
    // Where they are not together, the place that holds most of them, closest together.
    const near = `kill ${filler(40)} the switches ${filler(40, "mid")} kill the switches now ${filler(40, "end")}`;
    expect(shown(markedSnippet(near, snippetWordsOf("kill switches")))).toContain("[kill] the [switches] now");
    // A single word: its first match, as before.
    expect(shown(markedSnippet(apart, snippetWordsOf("pressure")))).toMatch(
      /^… filler0 filler1 filler2 filler3 filler4 \[pressure\]/,
    );
  });

  it("issue 28 item 5: a passage read from the middle of a text starts at a sentence or a space, never inside a word", () => {
    const long = `${"Preamble words here. ".repeat(40)}Sentence start and then the needle appears`;
    expect(shown(markedSnippet(long, snippetWordsOf("needle appears")))).toBe(
      "… Sentence start and then the [needle] [appears]",
    );
    const noSentence = `${"wordy ".repeat(60)}supercalifragilistic needle`;
    const snippet = shown(markedSnippet(noSentence, snippetWordsOf("needle")));
    expect(snippet).toBe("… wordy wordy wordy wordy wordy supercalifragilistic [needle]");
  });

  it("reads at most the start of a very long text", () => {
    const text = `${"word ".repeat(SNIPPET_TEXT_MAX_CHARS / 5)} needle`;
    expect(markedSnippet(text, snippetWordsOf("needle"))).not.toContain(MARK_START);
  });

  it("keeps text as text: markup characters are left for the page to escape", () => {
    expect(shown(markedSnippet("Try <script>alert(1)</script> marmalade & jam", snippetWordsOf("marmalade")))).toBe(
      "Try <script>alert(1)</script> [marmalade] & jam",
    );
  });
});

describe("nextWord (issue 32 item 3: the snippets' words read without an expression)", () => {
  it("finds what /[\\p{L}\\p{M}\\p{N}]+/gu finds from every start, in ASCII, accents, marks, astral letters and lone surrogates", () => {
    const expression = /[\p{L}\p{M}\p{N}]+/gu;
    // Letters, digits, a combining mark, spaces and punctuation, astral letters and a non-letter
    // emoji, CJK, and lone surrogates.
    const alphabet = [
      "a",
      "Z",
      "7",
      "é",
      "\u0301",
      " ",
      "-",
      "'",
      "\n",
      "𝐀",
      "😀",
      "字",
      "٣",
      "\ud835",
      "\udc00",
      "_",
      "ß",
    ];
    let seed = 11;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed;
    };
    const span = { start: 0, end: 0 };
    for (let round = 0; round < 3_000; round += 1) {
      let text = "";
      const length = next() % 16;
      for (let i = 0; i < length; i += 1) text += alphabet[next() % alphabet.length];
      for (let from = 0; from <= text.length + 1; from += 1) {
        expression.lastIndex = from;
        const expected = expression.exec(text);
        const found = nextWord(text, from, span);
        expect(found ? [span.start, span.end] : null).toEqual(
          expected ? [expected.index, expected.index + expected[0].length] : null,
        );
      }
    }
  });
});
