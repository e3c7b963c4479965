import { readFileSync } from "node:fs";
import { type MessageFormatElement, parse, TYPE } from "@formatjs/icu-messageformat-parser";
import { describe, expect, it } from "vitest";
import { LOCALES } from "./locales";
import en from "./messages/en.json";

/** What a message needs from its caller and gives back: argument names, tag names, plural keys. */
function shapeOf(message: string): { args: string[]; tags: string[]; plurals: string[] } {
  const args = new Set<string>();
  const tags = new Set<string>();
  const plurals = new Set<string>();
  const walk = (elements: MessageFormatElement[]) => {
    for (const element of elements) {
      if (element.type === TYPE.argument || element.type === TYPE.number || element.type === TYPE.date) {
        args.add(element.value);
      } else if (element.type === TYPE.plural || element.type === TYPE.select) {
        args.add(element.value);
        for (const [key, option] of Object.entries(element.options)) {
          if (key === "other" || key.startsWith("=")) plurals.add(`${element.value}:${key}`);
          walk(option.value);
        }
      } else if (element.type === TYPE.tag) {
        tags.add(element.value);
        walk(element.children);
      }
    }
  };
  walk(parse(message));
  return { args: [...args].sort(), tags: [...tags].sort(), plurals: [...plurals].sort() };
}

/** R9.15: the labels of spec §9, by message id. */
const SECTION_9_LABELS = [
  "embed.header",
  "embed.width",
  "embed.height",
  "embed.pixels",
  "embed.dimensions",
  "embed.code",
  "embed.copy",
  "embed.copied",
  "share.title",
  "share.link",
  "share.copy",
  "share.copied",
  "transcript.heading",
  "toolbar.report",
  "toolbar.makeCopy",
  "presentation.unlisted",
  "transcript.seeFull",
  "transcript.hideFull",
  "toolbar.createYourOwn",
  "sidebar.moreVideos",
  "sidebar.moreTemplates",
  "sidebar.morePicks",
] as const;

const englishIds = Object.keys(en).sort();

describe("R9.14 R9.15 message catalogues", () => {
  it("R9.15 names a message for every §9 label, in English", () => {
    for (const id of SECTION_9_LABELS) expect(en, id).toHaveProperty(id);
  });

  describe.each(LOCALES.filter((locale) => locale !== "en"))("%s", (locale) => {
    const catalogue = JSON.parse(readFileSync(new URL(`./messages/${locale}.json`, import.meta.url), "utf8")) as Record<
      string,
      string
    >;

    it("R9.14 has exactly the English message ids", () => {
      expect(Object.keys(catalogue).sort()).toEqual(englishIds);
    });

    it("keeps every message's arguments, tags and plural branches, and parses", () => {
      const problems: string[] = [];
      for (const [id, english] of Object.entries(en)) {
        const translated = catalogue[id];
        if (typeof translated !== "string" || translated.trim() === "") {
          problems.push(`${id}: missing or empty`);
          continue;
        }
        try {
          const want = shapeOf(english);
          const got = shapeOf(translated);
          if (JSON.stringify(got.args) !== JSON.stringify(want.args)) problems.push(`${id}: arguments ${got.args}`);
          if (JSON.stringify(got.tags) !== JSON.stringify(want.tags)) problems.push(`${id}: tags ${got.tags}`);
          for (const plural of want.plurals) {
            if (!got.plurals.includes(plural)) problems.push(`${id}: plural branch ${plural} missing`);
          }
        } catch (error) {
          problems.push(`${id}: ${(error as Error).message}`);
        }
      }
      expect(problems).toEqual([]);
    });

    it("R9.15 translates the §9 labels (product names aside)", () => {
      const untranslated = SECTION_9_LABELS.filter(
        (id) => catalogue[id] === en[id] && !/^(Facebook|Twitter|LinkedIn|Google Classroom|Link|Code)$/.test(en[id]),
      );
      // A few words are the same in some languages (German "Link", "Code"); most are not.
      expect(untranslated.length, untranslated.join(", ")).toBeLessThanOrEqual(3);
    });
  });
});
