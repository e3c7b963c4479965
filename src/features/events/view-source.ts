/**
 * Issue 33 item 2: where a view (or an embed's play, or a share) comes from, as a kind and a host
 * only: never a full URL, its path or its query.
 */
export type SourceKind = "direct" | "search" | "podium" | "site" | "embed" | "share";

export interface ViewSource {
  kind: SourceKind;
  /** A lower-case host without "www.", a share network, or "" (direct). */
  host: string;
}

/** Hosts of search engines (a suffix match on the referrer's host, "www." dropped). */
const SEARCH_ENGINES = [
  /(^|\.)google\.[a-z.]+$/,
  /(^|\.)bing\.com$/,
  /(^|\.)duckduckgo\.com$/,
  /(^|\.)search\.yahoo\.com$/,
  /(^|\.)yandex\.[a-z.]+$/,
  /(^|\.)baidu\.com$/,
  /(^|\.)ecosia\.org$/,
  /(^|\.)search\.brave\.com$/,
  /(^|\.)startpage\.com$/,
  /(^|\.)qwant\.com$/,
];

/** The host of an address, lower-case and without "www.", or null when it has none. */
export function hostOf(address: string | null | undefined): string | null {
  if (!address) return null;
  try {
    const url = new URL(address);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    const host = url.hostname.toLowerCase().replace(/^www\./, "");
    return host.length > 0 && host.length <= 253 ? host : null;
  } catch {
    return null;
  }
}

/** A view page's source from its referrer, the page's own address telling Podium's host. */
export function viewSourceOf(referer: string | null | undefined, pageUrl: string | null | undefined): ViewSource {
  const host = hostOf(referer);
  if (host === null) return { kind: "direct", host: "" };
  const own = hostOf(pageUrl);
  if (own !== null && host === own) {
    const path = new URL(referer as string).pathname;
    return path.startsWith("/explore/search") ? { kind: "search", host: "podium" } : { kind: "podium", host: "" };
  }
  if (SEARCH_ENGINES.some((engine) => engine.test(host))) return { kind: "search", host };
  return { kind: "site", host };
}

/** The embedding site of a play in an embed (its referrer is the page that frames it). */
export function embedSourceOf(referer: string | null | undefined): ViewSource {
  return { kind: "embed", host: hostOf(referer) ?? "" };
}

/** Share networks the view page's share buttons name (share.ts), and the copy of the link. */
const SHARE_NETWORKS = new Set(["facebook", "linkedin", "twitter", "google_classroom", "mobile", "link"]);

export function shareSourceOf(network: unknown): ViewSource | null {
  const name = typeof network === "string" ? network.toLowerCase() : "";
  return SHARE_NETWORKS.has(name) ? { kind: "share", host: name } : null;
}
