/** Spec §5 embed dimensions, §9 defaults. */

/** Spec §9: the default embed is 560×315. */
export const DEFAULT_EMBED = { width: "560", height: "315" } as const;
/** Spec §9: each input takes at most 4 characters. */
export const EMBED_INPUT_MAX_LENGTH = 4;
/** Spec §5: the aspect ratio is fixed at 16:9. */
export const EMBED_ASPECT = 16 / 9;
/**
 * Issue 34: the player's control bar under the stage, in px (player.css `--viewer-controls-height`).
 * The responsive code leaves room for it, so the slides themselves fill the width at their shape.
 */
export const EMBED_CONTROLS_HEIGHT = 56;
/** Spec §9: the embed modal is at most 600 px wide. */
export const EMBED_MODAL_MAX_WIDTH = 600;

/** Spec §3 Embed settings: height and width as digit strings. */
export interface EmbedSettings {
  width: string;
  height: string;
}

/** Non-digits are stripped and the input is limited to 4 characters. */
export function cleanDimension(input: string): string {
  return input.replace(/\D+/g, "").slice(0, EMBED_INPUT_MAX_LENGTH);
}

/** The largest value an input can hold (4 digits). */
const EMBED_MAX_VALUE = 10 ** EMBED_INPUT_MAX_LENGTH - 1;

/** Changing the width sets the height to round(width / (16/9)); empty or zero clears both. */
export function fromWidth(input: string): EmbedSettings {
  const width = cleanDimension(input);
  if (!width || Number(width) === 0) return { width: "", height: "" };
  return { width, height: String(Math.round(Number(width) / EMBED_ASPECT)) };
}

/**
 * Changing the height sets the width to round(height × 16/9); empty or zero clears both. A
 * width past 4 digits can't be shown, so it stops at 9999 and the height follows it.
 */
export function fromHeight(input: string): EmbedSettings {
  const height = cleanDimension(input);
  if (!height || Number(height) === 0) return { width: "", height: "" };
  const width = Math.round(Number(height) * EMBED_ASPECT);
  if (width > EMBED_MAX_VALUE) return fromWidth(String(EMBED_MAX_VALUE));
  return { width: String(width), height };
}

/**
 * Spec §2: the iframe snippet for /p/embed/{id}/ with height, width, fullscreen and autoplay
 * allowed. Sized by the embed settings (digit strings, §3), or filling its container when only
 * responsive dimensions are allowed (§5). Full screen is allowed by the permissions policy
 * (`allow="… fullscreen"`) alone: with the legacy `allowfullscreen` beside it, Chromium warns in
 * the host page's console that one overrides the other (issue 12).
 */
export function embedSnippet(
  origin: string,
  oid: string,
  size: EmbedSettings | "responsive",
  title: string,
  query = "",
): string {
  const { width, height } = size === "responsive" ? { width: "100%", height: "100%" } : size;
  return `<iframe src="${escapeAttribute(`${origin}/p/embed/${oid}/${query}`)}" width="${width}" height="${height}" title="${escapeAttribute(title)}" frameborder="0" allow="autoplay; fullscreen"></iframe>`;
}

/**
 * Issue 34 item 1: the default embed code fills the width of its container at the deck's own page
 * shape (`pageAspect`, width ÷ height), with no script on the host page: a wrapper whose height
 * comes from its padding (a percentage of its width, plus the control bar's height when the
 * controls show) and the iframe laid over it. `query` is the embed options' URL parameters
 * (embed-options.ts), already encoded.
 */
export function responsiveEmbedSnippet(
  origin: string,
  oid: string,
  pageAspect: number,
  title: string,
  query = "",
  controls = true,
): string {
  const aspect = Number.isFinite(pageAspect) && pageAspect > 0 ? pageAspect : EMBED_ASPECT;
  // Two decimals: a page shape arrives rounded (page-shape.ts), 1.7778 for 16:9, which is 56.25 %.
  const share = Number((100 / aspect).toFixed(2));
  const padding = controls ? `calc(${share}% + ${EMBED_CONTROLS_HEIGHT}px)` : `${share}%`;
  return `<div style="position:relative;width:100%;height:0;padding-bottom:${padding};overflow:hidden"><iframe src="${escapeAttribute(`${origin}/p/embed/${oid}/${query}`)}" title="${escapeAttribute(title)}" style="position:absolute;top:0;left:0;width:100%;height:100%;border:0" allow="autoplay; fullscreen"></iframe></div>`;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Spec §3: the embed-copy log's product_type (its own module: the view page needs only it). */
export { embedProductType } from "./embed-product-type";
