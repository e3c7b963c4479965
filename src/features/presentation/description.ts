import createDOMPurify, { type DOMPurify } from "dompurify";
import { JSDOM } from "jsdom";

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

function getPurifier(): DOMPurify {
  if (purifier) return purifier;
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

export function sanitizeDescription(html: string): string {
  return getPurifier()
    .sanitize(html, {
      ALLOWED_TAGS: DESCRIPTION_ALLOWED_TAGS,
      ALLOWED_ATTR: ["href", "title", "target", "rel"],
      ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
      ALLOW_DATA_ATTR: false,
    })
    .trim();
}
