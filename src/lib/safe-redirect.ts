/**
 * Redirects stay on our origin (spec §2 `next`): only a plain same-origin path is honoured.
 * Anything that a browser could read as another host (`//evil`, `/\evil`, `https://…`,
 * `javascript:…`, control characters and encoded tricks) gives the fallback. The same checks
 * apply to what goes in and to what comes out: resolving dot segments can turn a harmless
 * looking path into one a browser reads as another host (`/.//evil` → `//evil`).
 */
export function safeNextPath(next: unknown, fallback = "/"): string {
  if (typeof next !== "string" || next.length > 2000 || !isPlainPath(next)) return fallback;
  let path: string;
  try {
    const resolved = new URL(next, DUMMY_ORIGIN);
    if (resolved.origin !== DUMMY_ORIGIN) return fallback;
    path = `${resolved.pathname}${resolved.search}${resolved.hash}`;
  } catch {
    return fallback;
  }
  return isPlainPath(path) && new URL(path, DUMMY_ORIGIN).origin === DUMMY_ORIGIN ? path : fallback;
}

const DUMMY_ORIGIN = "http://podium.invalid";

/** One leading slash, not two (raw or percent-decoded), and nothing a browser drops or turns into a slash. */
function isPlainPath(path: string): boolean {
  if (hasControlOrBackslash(path)) return false;
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return false;
  }
  if (hasControlOrBackslash(decoded)) return false;
  return [path, decoded].every((form) => form.startsWith("/") && !form.startsWith("//"));
}

function hasControlOrBackslash(text: string): boolean {
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x20 || code === 0x7f || char === "\\") return true;
  }
  return false;
}
