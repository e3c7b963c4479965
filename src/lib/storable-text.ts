/**
 * One rule for every text that comes in (form fields, JSON, query strings, path segments,
 * imported files): Podium stores only well-formed Unicode without NUL. PostgreSQL can't hold
 * U+0000 in text or JSONB, and a lone UTF-16 surrogate is half a character that no encoder can
 * write; both are refused at the edge with a message, never met first by the database.
 */

/** Why a text can't be stored, or null when it can. */
export type UnstorableText = "nul" | "loneSurrogate";

export function unstorableCharacterIn(text: string): UnstorableText | null {
  if (text.includes("\u0000")) return "nul";
  // isWellFormed (Node 20, ES2024) finds unpaired surrogates in one pass.
  return (text as string & { isWellFormed(): boolean }).isWellFormed() ? null : "loneSurrogate";
}

/**
 * The first unstorable text in a value (strings, arrays and plain objects, keys included), as
 * its path (`body.title`, `query.search`), or null. Other values (numbers, Buffers) pass.
 * Parsed bodies and query strings are trees (no cycles); the depth bound keeps it so.
 */
export function findUnstorableText(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === "string") return unstorableCharacterIn(value) ? path : null;
  if (value === null || typeof value !== "object" || depth > 64) return null;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const found = findUnstorableText(value[index], `${path}[${index}]`, depth + 1);
      if (found) return found;
    }
    return null;
  }
  if (ArrayBuffer.isView(value)) return null;
  for (const [key, inner] of Object.entries(value)) {
    if (unstorableCharacterIn(key)) return `${path}.${JSON.stringify(key)}`;
    const found = findUnstorableText(inner, `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return null;
}
