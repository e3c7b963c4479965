/** Escaping for the places the server writes into HTML by hand. */

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Most texts need nothing: a test is cheaper than a replace that finds nothing (a card list escapes ~150 texts). */
const NEEDS_ESCAPING = /[&<>"']/;

export function escapeHtml(text: string): string {
  return NEEDS_ESCAPING.test(text) ? text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char) : text;
}

/**
 * JSON that is safe inside <script type="application/json">: `<` can't open a tag or close
 * the script, `>` and `&` can't form one, and U+2028/2029 can't end a line early.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}
