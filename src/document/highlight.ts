import type { Element, ElementContent, Root } from "hast";
import { common, createLowlight } from "lowlight";
import type { Run } from "./schema";

/**
 * Code highlighting at import time (issue 10): highlight.js grammars (through lowlight) turn a
 * fenced code block into static tokens stored in the document, so a visitor's browser downloads
 * no highlighter. Server side only: the importer takes it as an option, and the editor's
 * preview in the browser goes without it.
 */

/** Code blocks longer than this are kept as plain text (highlighting is not worth the time). */
export const HIGHLIGHT_MAX_LENGTH = 20_000;

/** Runs of each line of a code block, or null when the language is unknown or the code too long. */
export type CodeHighlighter = (code: string, language: string) => Run[][] | null;

const lowlight = createLowlight(common);

/** A token class as the document stores it: highlight.js's names without the `hljs-` prefix. */
function tokenOf(element: Element): string | undefined {
  const names = (element.properties.className as string[] | undefined) ?? [];
  const token = names
    .map((name) => (name.startsWith("hljs-") ? name.slice("hljs-".length) : name))
    .filter((name) => /^[a-z_][a-z0-9_-]*$/.test(name))
    .join(" ");
  return token === "" ? undefined : token.slice(0, 64);
}

export const highlightCode: CodeHighlighter = (code, language) => {
  if (code.length > HIGHLIGHT_MAX_LENGTH || language === "" || !lowlight.registered(language)) return null;
  let tree: Root;
  try {
    tree = lowlight.highlight(language, code);
  } catch {
    return null;
  }
  const lines: Run[][] = [[]];
  const add = (text: string, token: string | undefined) => {
    const parts = text.split("\n");
    parts.forEach((part, index) => {
      if (index > 0) lines.push([]);
      if (part === "") return;
      const line = lines[lines.length - 1] as Run[];
      const last = line[line.length - 1];
      if (last && last.token === token) last.text += part;
      else line.push(token ? { text: part, token } : { text: part });
    });
  };
  const visit = (nodes: ElementContent[], token: string | undefined) => {
    for (const node of nodes) {
      if (node.type === "text") add(node.value, token);
      else if (node.type === "element") visit(node.children, tokenOf(node) ?? token);
    }
  };
  visit(tree.children as ElementContent[], undefined);
  return lines;
};
