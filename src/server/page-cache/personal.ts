import { randomBytes } from "node:crypto";
import { crc32, deflateRawSync, constants as zlib } from "node:zlib";
import { BOOT_DATA_ID } from "../../client/entries";
import type { PagePerson } from "../../features/http";
import { crc32Combine, crc32Shift } from "../../lib/crc32-combine";
import { escapeHtml, jsonForScript } from "../../lib/html";
import type { ChangeFeed } from "./change-feed";
import { PAGE_CACHE_FRESH_MS } from "./plugin";
import { TaggedStore } from "./store";

/**
 * Signed-in page templates (issue 11: a signed-in view page at p99 ≤ 50 ms).
 *
 * A signed-in page differs from the next signed-in person's in a handful of strings: the name
 * in the header, the email and id in the page data, the CSRF token. Everything else (the deck,
 * the liked state, the rights, the counts) is the same for everyone in the same situation. So
 * the page is rendered once with placeholders for the person's strings, kept as a template, and
 * each request fills in its person: a string join instead of a React render.
 *
 * What makes it safe:
 * - The key is the whole page data with the person's strings masked (minus the big parts that
 *   the tags already cover): any field that depends on the person and isn't masked makes the
 *   key differ per person, so it can't reach anyone else.
 * - A template is refused when the person's own strings show up in it anyway (a field the mask
 *   missed), or when a placeholder was taken apart (a component that used a letter of the name).
 * - Templates carry the same tags as the anonymous page cache: the change feed drops them on
 *   every write the page shows, and nothing is kept while the feed is down.
 */

/** The person's strings a signed-in page may show; each becomes a placeholder in a template. */
type Person = PagePerson;
type Slot = keyof Person;
const SLOTS: readonly Slot[] = ["label", "displayName", "email", "oid", "csrfToken"];

/**
 * A placeholder is a private-use character, this process's secret nonce, the slot's name and
 * another private-use character. React and JSON leave them as they are. People can write the
 * private-use characters too (a title, a display name, an imported deck, a search mark), so
 * those alone prove nothing (issue 27 item 1): only the nonce, which never leaves the process
 * (templates are filled before anything is sent), makes a placeholder. A page where either
 * character shows outside a placeholder is refused as a template and rendered for its person
 * instead: it may be a placeholder taken apart (a component that used a letter of the name),
 * and a person's own characters can't be told from that.
 */
const OPEN = "\uE000";
const CLOSE = "\uE001";
/** 96 bits, new in every process: guessing it is out of reach. */
const NONCE = randomBytes(12).toString("hex");
const PLACEHOLDER = new RegExp(`${OPEN}${NONCE}([a-zA-Z]+)${CLOSE}`, "g");

/** The placeholder person: render with these, then fill in someone. */
export const PLACEHOLDER_PERSON: Person = Object.fromEntries(
  SLOTS.map((slot) => [slot, `${OPEN}${NONCE}${slot}${CLOSE}`]),
) as unknown as Person;

/** Where the page data begins: from here on, a placeholder sits in JSON, before it in HTML. */
const BOOT_SCRIPT_START = `<script type="application/json" id="${BOOT_DATA_ID}">`;

/** Templates are kept as long as an anonymous page is fresh: counts lag by less than 10 s (ARCHITECTURE "Staleness"). */
export const PERSONAL_TEMPLATE_TTL_MS = PAGE_CACHE_FRESH_MS;

export interface PageTemplate {
  /** The text between placeholders (UTF-8): one more than `slots`. */
  parts: readonly Buffer[];
  /**
   * Each part compressed on its own as raw deflate ending in a full flush: byte-aligned blocks
   * that refer to nothing before them, so they can be strung together with the person's strings
   * (stored blocks) into one valid gzip body without compressing the page again.
   */
  deflated: readonly Buffer[];
  /** Each part's CRC-32 and the operator that appends its length (lib/crc32-combine.ts): the gzip trailer's CRC without a pass over the page. */
  crcs: readonly number[];
  shifts: readonly number[];
  slots: readonly { slot: Slot; json: boolean }[];
  tags: readonly string[];
  storedAt: number;
}

/** A person's string as it appears in HTML (text and attributes) and in the page data's JSON. */
const inHtml = (value: string) => escapeHtml(value);
const inJson = (value: string) => jsonForScript(value).slice(1, -1);

/**
 * The template of a page rendered for PLACEHOLDER_PERSON, or null when it can't be one: a
 * placeholder taken apart, an unknown one, or `person`'s own strings (who the page was
 * rendered for) present in it.
 */
export function makeTemplate(html: string, person: Person, tags: readonly string[]): PageTemplate | null {
  const dataStart = html.lastIndexOf(BOOT_SCRIPT_START);
  const parts: string[] = [];
  const slots: { slot: Slot; json: boolean }[] = [];
  let last = 0;
  for (const match of html.matchAll(PLACEHOLDER)) {
    const slot = match[1] as Slot;
    if (!SLOTS.includes(slot)) return null;
    parts.push(html.slice(last, match.index));
    slots.push({ slot, json: dataStart >= 0 && match.index > dataStart });
    last = match.index + match[0].length;
  }
  parts.push(html.slice(last));
  for (const part of parts) {
    if (part.includes(OPEN) || part.includes(CLOSE)) return null;
    for (const slot of SLOTS) {
      const value = person[slot];
      // A short string (a two-letter name) may well be part of other words: the key guards those.
      if (value.length < 3) continue;
      if (part.includes(inHtml(value)) || part.includes(inJson(value))) return null;
    }
  }
  const encoded = parts.map((part) => Buffer.from(part));
  return {
    parts: encoded,
    deflated: encoded.map((part) => deflateRawSync(part, { level: DEFLATE_LEVEL, finishFlush: zlib.Z_FULL_FLUSH })),
    crcs: encoded.map((part) => crc32(part)),
    shifts: encoded.map((part) => crc32Shift(part.length)),
    slots,
    tags: [...new Set(tags)],
    storedAt: Date.now(),
  };
}

/** The person's strings for each slot of the template, escaped for where each one sits. */
function fillsOf(template: PageTemplate, person: Person): Buffer[] {
  return template.slots.map(({ slot, json }) => escapedFill(person[slot], json));
}

/**
 * A person's string as a slot holds it, kept: the same few strings fill every page a person
 * opens (issue 32 item 5). Two maps, for HTML and for JSON; past FILLS_KEPT each starts again.
 */
const FILLS_KEPT = 10_000;
const htmlFills = new Map<string, Buffer>();
const jsonFills = new Map<string, Buffer>();
function escapedFill(value: string, json: boolean): Buffer {
  const kept = json ? jsonFills : htmlFills;
  let fill = kept.get(value);
  if (fill === undefined) {
    fill = Buffer.from((json ? inJson : inHtml)(value));
    if (kept.size >= FILLS_KEPT) kept.clear();
    kept.set(value, fill);
  }
  return fill;
}

/** The page for `person`: the template with their strings. */
export function fillTemplate(template: PageTemplate, person: Person): Buffer {
  const fills = fillsOf(template, person);
  const pieces: Buffer[] = [];
  template.parts.forEach((part, index) => {
    pieces.push(part);
    const fill = fills[index];
    if (fill) pieces.push(fill);
  });
  return Buffer.concat(pieces);
}

/** gzip (RFC 1952): magic, deflate, no flags, no time, no extra flags, unknown system. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** The last deflate block (RFC 1951): final, fixed Huffman codes, just its end-of-block code. */
const FINAL_EMPTY_BLOCK = Buffer.from([0x03, 0x00]);
/** Largest stored block (RFC 1951 §3.2.4: LEN is 16 bits). */
const STORED_BLOCK_MAX = 0xffff;
/** Each part is compressed once and sent many times: the smallest deflate zlib makes. */
const DEFLATE_LEVEL = 9;

/** `data` as stored (uncompressed) deflate blocks, none final: its bytes as they are, byte-aligned. */
function storedBlocks(data: Buffer): Buffer[] {
  const blocks: Buffer[] = [];
  for (let start = 0; start < data.length; start += STORED_BLOCK_MAX) {
    const chunk = data.subarray(start, start + STORED_BLOCK_MAX);
    const header = Buffer.alloc(5);
    header.writeUInt16LE(chunk.length, 1);
    header.writeUInt16LE(~chunk.length & 0xffff, 3);
    blocks.push(header, chunk);
  }
  return blocks;
}

/**
 * The page for `person`, gzipped, without compressing it: the template's deflated parts with the
 * person's strings between them as stored blocks, a final empty block, and the CRC and length of
 * the whole (the CRC from the parts' CRCs, kept with the template, and the person's strings).
 */
export function gzipFilledTemplate(template: PageTemplate, person: Person): Buffer {
  const fills = fillsOf(template, person);
  const pieces: Buffer[] = [GZIP_HEADER];
  let crc = 0;
  let size = 0;
  template.parts.forEach((part, index) => {
    pieces.push(template.deflated[index] as Buffer);
    crc = crc32Combine(crc, template.crcs[index] as number, template.shifts[index] as number);
    size += part.length;
    const fill = fills[index];
    if (fill && fill.length > 0) {
      pieces.push(...storedBlocks(fill));
      crc = crc32(fill, crc);
      size += fill.length;
    }
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size >>> 0, 4);
  pieces.push(FINAL_EMPTY_BLOCK, trailer);
  return Buffer.concat(pieces);
}

/** Templates by key, dropped by the change feed like the anonymous pages they resemble. */
export class PersonalPages {
  readonly #store: TaggedStore<PageTemplate>;
  readonly #feed: ChangeFeed;

  constructor(options: { maxBytes: number; feed: ChangeFeed }) {
    this.#feed = options.feed;
    this.#store = new TaggedStore<PageTemplate>(
      { maxBytes: options.maxBytes, freshMs: PERSONAL_TEMPLATE_TTL_MS, staleMs: PERSONAL_TEMPLATE_TTL_MS },
      // The key is a page's masked data as text (app.ts templatedPage): it counts too.
      (key, template) =>
        key.length +
        template.parts.reduce((sum, part) => sum + part.length, 0) +
        template.deflated.reduce((sum, part) => sum + part.length, 0),
    );
    options.feed.subscribe((tags) => this.#store.invalidate(tags));
  }

  get size(): number {
    return this.#store.size;
  }

  /** Where a render starts, for set(): a template rendered before an invalidation of its tags isn't kept. */
  get sequence(): number {
    return this.#store.sequence;
  }

  /** A fresh template, or null (nothing is served while the change feed is down). */
  get(key: string): PageTemplate | null {
    if (!this.#feed.live) return null;
    return this.#store.get(key)?.page ?? null;
  }

  set(key: string, template: PageTemplate, startedAt: number): void {
    if (this.#feed.live) this.#store.set(key, template, startedAt);
  }
}
