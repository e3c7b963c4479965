/**
 * The link rule of the document (schema.ts `isSafeLink`), without zod: the renderers run in the
 * browser bundles that must stay free of the schema library. Links go to the web or to an email
 * address, nowhere else (no javascript:, data:, file:). safe-link.test.ts keeps both rules equal.
 */
export function isSafeHref(href: string): boolean {
  if (!/^(https?:\/\/|mailto:)/i.test(href)) return false;
  try {
    const url = new URL(href);
    return url.protocol === "http:" || url.protocol === "https:" || url.protocol === "mailto:";
  } catch {
    return false;
  }
}

/** Longest shown link target, in characters (the rest is cut with an ellipsis). */
export const LINK_TARGET_MAX = 48;

/**
 * A link's address as a reader sees it beside the label: host and path without the scheme,
 * "www." or a lone trailing slash; the address of a mailto link.
 */
export function linkTargetLabel(href: string): string {
  let shown: string;
  try {
    const url = new URL(href);
    if (url.protocol === "mailto:") shown = decodeURIComponent(url.pathname);
    else {
      const path = `${url.pathname}${url.search}${url.hash}`;
      shown = `${url.host.replace(/^www\./i, "")}${path === "/" ? "" : path}`;
    }
  } catch {
    shown = href;
  }
  return shown.length > LINK_TARGET_MAX ? `${shown.slice(0, LINK_TARGET_MAX - 1)}…` : shown;
}

/** Whether a link's label already says where it goes (then its target isn't repeated). */
export function labelShowsTarget(label: string, href: string): boolean {
  const norm = (s: string) =>
    s
      .trim()
      .toLowerCase()
      .replace(/^(https?:\/\/|mailto:)/, "")
      .replace(/^www\./, "")
      .replace(/\/$/, "");
  const l = norm(label);
  return l === norm(href) || l === norm(linkTargetLabel(href));
}
