/**
 * Redirects stay on our origin (spec §2 `next`): only a plain same-origin path is honoured.
 * Anything that a browser could read as another host (`//evil`, `/\evil`, `https://…`,
 * `javascript:…`, control characters and encoded tricks) gives the fallback.
 */
export function safeNextPath(next: unknown, fallback = "/"): string {
  if (typeof next !== "string" || next.length === 0 || next.length > 2000) return fallback;
  // Browsers drop tabs and newlines in URLs and treat backslashes as slashes.
  if (hasControlOrBackslash(next)) return fallback;
  let decoded = next;
  try {
    decoded = decodeURIComponent(next);
  } catch {
    return fallback;
  }
  if (hasControlOrBackslash(decoded)) return fallback;
  if (!next.startsWith("/") || next.startsWith("//") || decoded.startsWith("//")) return fallback;
  // The final say: resolved against a dummy origin, it must stay on that origin.
  try {
    const resolved = new URL(next, "http://podium.invalid");
    if (resolved.origin !== "http://podium.invalid") return fallback;
    return `${resolved.pathname}${resolved.search}${resolved.hash}`;
  } catch {
    return fallback;
  }
}

function hasControlOrBackslash(text: string): boolean {
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x20 || code === 0x7f || char === "\\") return true;
  }
  return false;
}
