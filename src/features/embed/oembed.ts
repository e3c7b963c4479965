import type { Queryable } from "../../db/client";
import { pageShapeOf } from "../../document/page-shape";
import { isOid } from "../../lib/ids";
import { ownerDisplayName } from "../../lib/owner";
import { findPresentationByOid } from "../presentation/repository";
import { accessTo, thumbnailPathOf } from "../presentation/service";
import { THUMBNAIL_SIZE } from "../presentation/thumbnail";
import { DEFAULT_EMBED, EMBED_ASPECT, responsiveEmbedSnippet } from "./embed-dimensions";

/**
 * oEmbed 1.0 (https://oembed.com): a site that is given a Podium link asks /oembed?url=… and
 * gets the embed player's iframe. Issue 34: the same responsive code as the embed modal's default
 * (filling the consumer's container at the deck's page shape); width and height say the size
 * that fits maxwidth/maxheight at that shape. Only what anyone
 * may watch by its address is answered: public, reusable and unlisted presentations.
 */
export interface OEmbedResponse {
  type: "rich";
  version: "1.0";
  title: string;
  author_name: string;
  author_url: string;
  provider_name: "Podium";
  provider_url: string;
  html: string;
  width: number;
  height: number;
  thumbnail_url: string;
  thumbnail_width: number;
  thumbnail_height: number;
  cache_age: number;
}

/** What a consumer may cache the answer for, in seconds (a title or privacy may change). */
export const OEMBED_CACHE_AGE_S = 3600;
/** The smallest player worth embedding. */
const MIN_WIDTH = 160;

export type OEmbedResult = { status: 200; body: OEmbedResponse } | { status: 400 | 401 | 404 | 501; message: string };

/** The presentation a URL of ours names: /p/{oid}/…, /p/embed/{oid}/. Another site's URL names none. */
export function oidFromUrl(url: string, publicUrl: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.origin !== new URL(publicUrl).origin) return null;
  const match = /^\/p\/(?:embed\/)?([^/]+)\/(?:[^/]+\/)?$/.exec(parsed.pathname);
  return match?.[1] && isOid(match[1]) ? match[1] : null;
}

/** The size at `aspect` (16:9 unless given) that fits the consumer's limits (560 wide when it sets none). */
export function fitSize(
  maxWidth: number | null,
  maxHeight: number | null,
  aspect = EMBED_ASPECT,
): { width: number; height: number } {
  let width = Number(DEFAULT_EMBED.width);
  if (maxWidth !== null) width = Math.min(width, maxWidth);
  if (maxHeight !== null) width = Math.min(width, Math.floor(maxHeight * aspect));
  width = Math.max(width, MIN_WIDTH);
  return { width, height: Math.round(width / aspect) };
}

const dimension = (raw: string | undefined): number | null | "bad" => {
  if (raw === undefined || raw === "") return null;
  return /^\d{1,5}$/.test(raw) && Number(raw) > 0 ? Number(raw) : "bad";
};

export async function oembedFor(
  db: Queryable,
  publicUrl: string,
  query: { url?: string; format?: string; maxwidth?: string; maxheight?: string },
): Promise<OEmbedResult> {
  if (query.format && query.format !== "json") return { status: 501, message: "Only the json format is served." };
  if (!query.url) return { status: 400, message: "Give the presentation's address as url." };
  const maxWidth = dimension(query.maxwidth);
  const maxHeight = dimension(query.maxheight);
  if (maxWidth === "bad" || maxHeight === "bad") {
    return { status: 400, message: "maxwidth and maxheight must be positive whole numbers." };
  }
  const oid = oidFromUrl(query.url, publicUrl);
  const row = oid ? await findPresentationByOid(db, oid) : null;
  if (!row || row.hidden) return { status: 404, message: "No Podium presentation at this address." };
  // oEmbed: a resource that exists but isn't open to everyone is 401.
  const access = await accessTo(db, row, null);
  if (!access.view) return { status: 401, message: "This presentation is private." };
  const { pageAspect } = pageShapeOf(row.document);
  const { width, height } = fitSize(maxWidth, maxHeight, pageAspect);
  const author = ownerDisplayName({
    publicDisplayName: row.ownerPublicDisplayName,
    firstName: row.ownerFirstName,
    lastName: row.ownerLastName,
  });
  return {
    status: 200,
    body: {
      type: "rich",
      version: "1.0",
      title: row.title,
      author_name: author,
      author_url: `${publicUrl}/user/${row.ownerOid}/`,
      provider_name: "Podium",
      provider_url: `${publicUrl}/`,
      html: responsiveEmbedSnippet(publicUrl, row.oid, pageAspect, row.title),
      width,
      height,
      thumbnail_url: `${publicUrl}${thumbnailPathOf(row.oid)}`,
      thumbnail_width: THUMBNAIL_SIZE.width,
      thumbnail_height: THUMBNAIL_SIZE.height,
      cache_age: OEMBED_CACHE_AGE_S,
    },
  };
}
