/**
 * Issue 34 item 2: the embed page's options, as URL parameters of `/p/embed/{oid}/` and in the
 * embed modal. A value that isn't understood is the default (never an error, never shown back);
 * the start step is clamped to the deck's steps.
 */

export type EmbedChrome = "dark" | "light";

export interface EmbedOptions {
  /** 1-based step the presentation starts at. */
  start: number;
  /** Plays at once (no Present click). */
  autoplay: boolean;
  /** After the last step, starts again at the first instead of the restart overlay. */
  loop: boolean;
  /** The control bar under the stage (previous, counter, next, full screen). */
  controls: boolean;
  /** Title, owner and date on the start overlay. */
  title: boolean;
  /** The colours around the slides: the player's background and control bar. */
  chrome: EmbedChrome;
}

export const DEFAULT_EMBED_OPTIONS: EmbedOptions = {
  start: 1,
  autoplay: false,
  loop: false,
  controls: true,
  title: true,
  chrome: "dark",
};

/** The URL parameters' names, in the order the embed code writes them. */
export const EMBED_PARAMS = ["start", "autoplay", "loop", "controls", "title", "chrome"] as const;

type Query = Readonly<Record<string, string | string[] | undefined>>;

const single = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

function flag(value: string | string[] | undefined, fallback: boolean): boolean {
  const raw = single(value);
  if (raw === "1" || raw === "true") return true;
  if (raw === "0" || raw === "false") return false;
  return fallback;
}

/** A step number (1-based) within 1..stepCount; anything else (or nothing) is `fallback`. */
export function clampStep(raw: string | undefined, stepCount: number, fallback = 1): number {
  if (raw === undefined || !/^\d{1,9}$/.test(raw)) return fallback;
  const step = Number(raw);
  if (step < 1) return 1;
  return Math.min(step, Math.max(1, stepCount));
}

/** The options of an embed page's query string (Fastify's parsed query). */
export function parseEmbedOptions(query: Query, stepCount: number): EmbedOptions {
  const chrome = single(query.chrome);
  return {
    start: clampStep(single(query.start), stepCount),
    autoplay: flag(query.autoplay, DEFAULT_EMBED_OPTIONS.autoplay),
    loop: flag(query.loop, DEFAULT_EMBED_OPTIONS.loop),
    controls: flag(query.controls, DEFAULT_EMBED_OPTIONS.controls),
    title: flag(query.title, DEFAULT_EMBED_OPTIONS.title),
    chrome: chrome === "light" || chrome === "dark" ? chrome : DEFAULT_EMBED_OPTIONS.chrome,
  };
}

/** The query string ("" or "?…") holding the options that differ from the defaults. */
export function embedQuery(options: EmbedOptions): string {
  const params = new URLSearchParams();
  for (const name of EMBED_PARAMS) {
    const value = options[name];
    if (value === DEFAULT_EMBED_OPTIONS[name]) continue;
    params.set(name, typeof value === "boolean" ? (value ? "1" : "0") : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}
