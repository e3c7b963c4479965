import { createRequire } from "node:module";
import createDOMPurify, { type DOMPurify } from "dompurify";
import type * as Jsdom from "jsdom";

/**
 * Owner-supplied description HTML is sanitised on save (spec §2: the description is
 * rendered as HTML). Only simple text markup survives; links keep http(s) and mailto only.
 */
export const DESCRIPTION_ALLOWED_TAGS = [
  "p",
  "br",
  "strong",
  "b",
  "em",
  "i",
  "u",
  "a",
  "ul",
  "ol",
  "li",
  "blockquote",
  "code",
];
export const DESCRIPTION_MAX_LENGTH = 20_000;

let purifier: DOMPurify | null = null;

/**
 * jsdom is loaded with the first description sanitised, not with the server (issue 32 item 4):
 * its modules hold about 30 MB of heap, a third to a half of a web process's old generation, which
 * every process would otherwise carry, and mark in each major collection, without ever saving a
 * description (most never do: descriptions are sanitised when an owner saves one, or at seeding).
 */
const require = createRequire(import.meta.url);

function getPurifier(): DOMPurify {
  if (purifier) return purifier;
  const { JSDOM } = require("jsdom") as typeof Jsdom;
  const { window } = new JSDOM("");
  const instance = createDOMPurify(window);
  instance.addHook("afterSanitizeAttributes", (node) => {
    if (node.tagName === "A") {
      node.setAttribute("rel", "noopener noreferrer nofollow ugc");
      node.setAttribute("target", "_blank");
    }
  });
  purifier = instance;
  return instance;
}

/** At most this many passes to reach a fixed point (in practice one or two). */
const MAX_PASSES = 5;

function sanitizeOnce(html: string): string {
  return getPurifier()
    .sanitize(html, {
      ALLOWED_TAGS: DESCRIPTION_ALLOWED_TAGS,
      ALLOWED_ATTR: ["href", "title", "target", "rel"],
      ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
      ALLOW_DATA_ATTR: false,
    })
    .trim();
}

/**
 * Sanitises until the output no longer changes: some malformed markup (nested links torn
 * apart by the parser) serialises to HTML that parses differently, so one pass is not always
 * stable. Stored descriptions are fixed points: saving one again changes nothing.
 */
export function sanitizeDescription(html: string): string {
  let current = sanitizeOnce(html);
  for (let pass = 1; pass < MAX_PASSES; pass += 1) {
    const next = sanitizeOnce(current);
    if (next === current) return current;
    current = next;
  }
  return current;
}
