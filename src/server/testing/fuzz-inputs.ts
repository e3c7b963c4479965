import { readFileSync } from "node:fs";
import fc from "fast-check";
import type { InjectOptions } from "fastify";
import { VIEWER_EVENTS } from "../../features/events/usage-event";
import { REPORT_REASONS } from "../../features/moderation/reasons";
import { LOCALES } from "../../i18n/locales";

/**
 * Generators for the fuzz suite (fuzz.test.ts, issue 9 "Fuzzing, as a test"): every public
 * route, with paths, query strings, headers, cookies and bodies (form, JSON, multipart, raw)
 * full of Unicode edge cases and oversized values. A generated request is a plain description
 * (RequestSpec): the cookies and CSRF token of the agent that sends it are filled in when it is
 * sent (`materialize`), and long runs of one character stay short (`Piece`) until then, so ten
 * thousand of them cost little memory and print short. The strings they draw from are data
 * (fuzz-strings.json); this file is the generator: how routes, values and requests combine.
 */

/** Largest body the app accepts (server/app.ts BODY_LIMIT_BYTES) and the usage-event limit. */
const BODY_LIMIT = 256 * 1024;
const EVENT_LIMIT = 8 * 1024;

/**
 * The strings the generators draw from, as data. Read with JSON.parse, not imported: Vite's JSON
 * loader refuses the lone surrogates (\ud800) that the file holds on purpose.
 */
const STRINGS: {
  edgeChars: string[];
  specialStrings: string[];
  brokenEscapes: string[];
  validWords: string[];
  validWordsLast: string[];
  demoEmails: string[];
} = JSON.parse(readFileSync(new URL("./fuzz-strings.json", import.meta.url), "utf8"));

// ─── Text pieces ────────────────────────────────────────────────────────────────────────────

/** A string, or a long run of one string (built only when the request is sent). */
export type Piece = string | { repeat: string; times: number };
export type Pieces = Piece[];

export const renderPieces = (pieces: Pieces): string =>
  pieces.map((piece) => (typeof piece === "string" ? piece : piece.repeat.repeat(piece.times))).join("");

const run = (repeat: string, times: number): Piece => ({ repeat, times });

/** Percent-encodes text as WTF-8 (a lone surrogate becomes %ED%A0%80, which no encoder would write). */
export function percentEncode(text: string, keep: RegExp = /[A-Za-z0-9\-._~]/): string {
  let out = "";
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    let point = unit;
    if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        point = (unit - 0xd800) * 0x400 + (next - 0xdc00) + 0x10000;
        index += 1;
      }
    }
    const char = String.fromCodePoint(point);
    if (point < 0x80 && keep.test(char)) {
      out += char;
      continue;
    }
    for (const byte of wtf8(point)) out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

function wtf8(point: number): number[] {
  if (point < 0x80) return [point];
  if (point < 0x800) return [0xc0 | (point >> 6), 0x80 | (point & 63)];
  if (point < 0x10000) return [0xe0 | (point >> 12), 0x80 | ((point >> 6) & 63), 0x80 | (point & 63)];
  return [0xf0 | (point >> 18), 0x80 | ((point >> 12) & 63), 0x80 | ((point >> 6) & 63), 0x80 | (point & 63)];
}

// ─── Values ─────────────────────────────────────────────────────────────────────────────────

/** Characters that break things: NUL, lone surrogates, controls, BOM, non-characters, RTL, line separators. */
const EDGE_CHARS = STRINGS.edgeChars;

/** Whole values that break things: numbers at the edges, prototype names, markup, SQL, paths, escapes. */
const SPECIAL_STRINGS = STRINGS.specialStrings;

const DEMO_EMAILS = STRINGS.demoEmails;

/** Values a route takes (privacy, schema, rights, reasons, languages…): deep paths need them. */
const VALID_WORDS = [
  ...STRINGS.validWords,
  ...REPORT_REASONS,
  ...LOCALES,
  ...DEMO_EMAILS,
  ...Object.values(VIEWER_EVENTS),
  ...STRINGS.validWordsLast,
];

const edgeChar = fc.constantFrom(...EDGE_CHARS);
const anyChar = fc.oneof(
  { arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }), weight: 3 },
  { arbitrary: edgeChar, weight: 2 },
  { arbitrary: fc.constantFrom("a", "b", "z", "0", "9", "-", "_"), weight: 3 },
);

/** Raw text (not yet encoded), from valid words to NUL and lone surrogates. */
export const rawText: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...VALID_WORDS), weight: 4 },
  { arbitrary: fc.constantFrom(...SPECIAL_STRINGS), weight: 4 },
  { arbitrary: fc.string({ unit: anyChar, maxLength: 24 }), weight: 4 },
  {
    arbitrary: fc
      .tuple(fc.constantFrom(...VALID_WORDS), edgeChar, fc.constantFrom("", ...VALID_WORDS))
      .map(([a, b, c]) => `${a}${b}${c}`),
    weight: 3,
  },
  { arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }), weight: 1 },
  {
    arbitrary: fc
      .tuple(
        fc.constantFrom("x", "é", "\u{1f600}", " ", "\u0000", "\ud800"),
        fc.constantFrom(81, 101, 201, 256, 2001, 5000),
      )
      .map(([char, times]) => char.repeat(times)),
    weight: 1,
  },
);

/** Percent-encodings that are wrong in themselves: cut short, overlong, beyond U+10FFFF, WTF-8. */
const BROKEN_ESCAPES = STRINGS.brokenEscapes;

/** How a raw value becomes URL text: properly escaped, loosely escaped, or with broken escapes. */
export const encodedText: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: rawText.map((text) => percentEncode(text)), weight: 7 },
  { arbitrary: rawText.map((text) => percentEncode(text, /[^%&=#?+/\s]/)), weight: 2 },
  {
    arbitrary: fc
      .tuple(fc.constantFrom("", ...VALID_WORDS.map((word) => percentEncode(word))), fc.constantFrom(...BROKEN_ESCAPES))
      .map(([a, b]) => `${a}${b}`),
    weight: 2,
  },
);

// ─── Ids for paths ──────────────────────────────────────────────────────────────────────────

/** Real ids read from the seeded database, mixed into paths with garbage. */
export interface FuzzPools {
  publicUrl: string;
  oids: string[];
  slugs: string[];
  userOids: string[];
  linkIds: string[];
  templateSlugs: string[];
  videoFiles: string[];
  commentIds: string[];
}

type IdKind = "oid" | "slug" | "userOid" | "linkId" | "templateSlug" | "videoFile" | "commentId" | "reportId" | "asset";

const OID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
const oidShaped = fc.string({ unit: fc.constantFrom(...OID_ALPHABET), minLength: 12, maxLength: 12 });

/** Path segments that aren't ids: escapes, dot segments, and lengths around maxParamLength (200) and far beyond. */
const garbageSegment: fc.Arbitrary<Pieces> = fc.oneof(
  { arbitrary: encodedText.map((text) => [text]), weight: 6 },
  {
    arbitrary: fc.constantFrom(...BROKEN_ESCAPES, "..", ".", "%2e", "~", "@", ":", "a;b=c").map((s) => [s]),
    weight: 2,
  },
  {
    arbitrary: fc
      .tuple(
        fc.constantFrom("a", "%00", "%ED%A0%80", "\u00e9", "z9"),
        fc.constantFrom(199, 200, 201, 1000, 8_192, 16_384, 70_000),
      )
      .map(([unit, times]) => [run(unit, Math.ceil(times / unit.length))]),
    weight: 1,
  },
);

function idArbitrary(kind: IdKind, pools: FuzzPools): fc.Arbitrary<Pieces> {
  const real = (values: string[]) =>
    values.length > 0 ? fc.constantFrom(...values).map((value) => [value]) : oidShaped.map((value) => [value]);
  const options: Record<IdKind, fc.Arbitrary<Pieces>> = {
    oid: real(pools.oids),
    slug: real(pools.slugs),
    userOid: real(pools.userOids),
    linkId: real(pools.linkIds),
    templateSlug: real(pools.templateSlugs),
    videoFile: real(pools.videoFiles),
    commentId: fc.oneof(
      real(pools.commentIds),
      fc.nat(50).map((n) => [String(n)]),
    ),
    reportId: fc.oneof(
      fc.nat(30).map((n) => [String(n)]),
      fc.constantFrom("-1", "1e3", "99999999999999999999").map((s) => [s]),
    ),
    asset: fc
      .tuple(
        fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 64, maxLength: 64 }),
        fc.constantFrom("webp", "png", "svg", "WEBP"),
      )
      .map(([hash, ext]) => [`${hash}.${ext}`]),
  };
  return fc.oneof(
    { arbitrary: options[kind], weight: 11 },
    { arbitrary: oidShaped.map((value) => [value]), weight: 3 },
    { arbitrary: garbageSegment, weight: 6 },
  );
}

/** Only garbage: for routes that would destroy the demo content if a signed-in agent hit a real id. */
function garbageIdArbitrary(): fc.Arbitrary<Pieces> {
  return fc.oneof(
    oidShaped.map((value) => [value]),
    garbageSegment,
  );
}

// ─── Routes ─────────────────────────────────────────────────────────────────────────────────

export type AgentName = "anon" | "form" | "ada" | "grace";
export const SIGNED_IN: readonly AgentName[] = ["ada", "grace"];

type BodyShape = "none" | "form" | "import" | "asset" | "event" | "clientLog";

interface RouteDef {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** The route as Fastify knows it (`:name` parameters). */
  pattern: string;
  weight: number;
  params?: Record<string, IdKind>;
  /** Query keys the route reads, and what their values look like. */
  query?: Record<string, fc.Arbitrary<string>>;
  body?: BodyShape;
  /** Form fields the route reads, and what their values look like. */
  fields?: Record<string, fc.Arbitrary<string>>;
  /** Password hashing (scrypt) runs when such a request gets past the CSRF check. */
  scrypt?: boolean;
  /** A signed-in agent sends a valid CSRF token here only with garbage ids (delete, revoke), or never (logout). */
  destructive?: "ids" | "always";
}

const word = (...values: string[]) => fc.oneof({ arbitrary: fc.constantFrom(...values), weight: 3 }, rawText);
/** Mostly one of these (so the rest of the request gets its turn), sometimes anything. */
const likely = (...values: string[]) => fc.oneof({ arbitrary: fc.constantFrom(...values), weight: 6 }, rawText);
const nextPath = fc.oneof(
  fc.constantFrom(
    "/",
    "/dashboard/next/",
    "/settings/",
    "/dashboard/next?after_segmentation_url=/v/create/",
    "//evil.example",
    "/.//evil",
    "/\\evil",
    "https://evil.example",
    "/p/x/?a=b#c",
    "%2F%2Fevil",
  ),
  rawText,
);
const markdown = fc.oneof(
  fc.constantFrom(
    "# Title\n---\n# Second\n- a\n- b",
    "# Only a title",
    "",
    "---\n---\n---",
    "![img](javascript:alert(1))\n[link](//evil)",
    "# \u0000\n---\n# \ud800",
    `${"[".repeat(300)}x${"]".repeat(299)}`,
    `${"> ".repeat(200)}deep`,
    "<script>alert(1)</script>\n# hi",
    "```\ncode\n```\n| a | b |\n|---|---|\n| 1 | 2 |",
  ),
  rawText,
);
const tags = fc.oneof(
  fc.constantFrom("baking, bread", "a,b,c", ",,,", "x".repeat(300), Array(60).fill("t").join(",")),
  rawText,
);
const oembedUrl = (pools: FuzzPools) =>
  fc.oneof(
    {
      arbitrary: fc
        .tuple(
          fc.constantFrom("/p/", "/p/embed/"),
          fc.constantFrom(...(pools.oids.length > 0 ? pools.oids : ["aaaaaaaaaaaa"])),
        )
        .map(([prefix, oid]) => `${pools.publicUrl}${prefix}${oid}/`),
      weight: 3,
    },
    {
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            pools.publicUrl,
            "https://evil.example",
            "http://podium.example",
            "https://podium.example:443",
          ),
          fc.constantFrom("/p/", "/p/embed/", "/view/", "/"),
          fc.constantFrom(...(pools.oids.length > 0 ? pools.oids : ["aaaaaaaaaaaa"]), "zzzzzzzzzzzz", "%00", ".."),
          fc.constantFrom("/", "/slug/", "", "/a/b/c/"),
        )
        .map((parts) => parts.join("")),
      weight: 3,
    },
    { arbitrary: rawText, weight: 2 },
  );

function routeTable(pools: FuzzPools): RouteDef[] {
  const oid = { oid: "oid" } as const;
  const page = fc.oneof(fc.constantFrom("1", "2", "0", "-1", "999999", "1.5", "1e3", "NaN", ""), rawText);
  return [
    // Pages and files anyone may fetch.
    { method: "GET", pattern: "/", weight: 3 },
    { method: "GET", pattern: "/healthz", weight: 3 },
    { method: "GET", pattern: "/favicon.svg", weight: 2 },
    { method: "GET", pattern: "/favicon.ico", weight: 2 },
    { method: "GET", pattern: "/robots.txt", weight: 2 },
    { method: "GET", pattern: "/sitemap.xml", weight: 3 },
    {
      method: "GET",
      pattern: "/p/:oid/",
      weight: 10,
      params: oid,
      // Issue 34 item 5: a step's own address.
      query: { autoplay: word("1", "true"), step: fc.oneof(word("1", "2", "0", "-1", "99999999999", "2.5"), rawText) },
    },
    { method: "GET", pattern: "/p/:oid/:slug/", weight: 5, params: { oid: "oid", slug: "slug" } },
    {
      method: "GET",
      pattern: "/p/embed/:oid/",
      weight: 12,
      params: oid,
      // Issue 34 item 2: the embed options.
      query: {
        autoplay: word("1", "true", "0"),
        start: fc.oneof(word("1", "3", "0", "-2", "1e9"), rawText),
        loop: word("1", "0", "yes"),
        controls: word("0", "1", "false"),
        title: word("0", "true"),
        chrome: fc.oneof(word("light", "dark"), rawText),
      },
    },
    { method: "GET", pattern: "/p/:oid/steps/:step/thumbnail.svg", weight: 6, params: { oid: "oid", step: "slug" } },
    { method: "GET", pattern: "/embed-api.js", weight: 2 },
    { method: "GET", pattern: "/developers/embed/", weight: 2 },
    { method: "GET", pattern: "/view/:linkId/", weight: 12, params: { linkId: "linkId" } },
    { method: "GET", pattern: "/p/:oid/document.json", weight: 10, params: oid },
    { method: "GET", pattern: "/view/:linkId/document.json", weight: 8, params: { linkId: "linkId" } },
    { method: "GET", pattern: "/p/:oid/thumbnail.svg", weight: 8, params: oid },
    { method: "GET", pattern: "/view/:linkId/thumbnail.svg", weight: 6, params: { linkId: "linkId" } },
    { method: "GET", pattern: "/p/presenter/:oid/", weight: 6, params: oid },
    { method: "GET", pattern: "/view/:linkId/presenter/", weight: 6, params: { linkId: "linkId" } },
    // Issue 33: a view link's passcode form.
    {
      method: "POST",
      pattern: "/view/:linkId/passcode",
      weight: 3,
      params: { linkId: "linkId" },
      body: "form",
      fields: { passcode: rawText },
    },
    {
      method: "GET",
      pattern: "/oembed",
      weight: 36,
      query: {
        url: oembedUrl(pools),
        format: likely("json", "json", "json", "xml", "", "JSON"),
        maxwidth: likely("560", "320", "160", "99999", "1", "0", "-5", "1.5"),
        maxheight: likely("315", "200", "1", "99999", "0", "abc"),
      },
    },
    { method: "GET", pattern: "/login/", weight: 10, query: { next: nextPath } },
    { method: "GET", pattern: "/signup/", weight: 8, query: { next: nextPath } },
    { method: "GET", pattern: "/logout", weight: 5 },
    { method: "GET", pattern: "/settings/", weight: 7, query: { saved: word("profile", "password") } },
    { method: "GET", pattern: "/user/:oid/", weight: 9, params: { oid: "userOid" } },
    {
      method: "GET",
      pattern: "/dashboard/next/",
      weight: 7,
      query: { page, notice: word("created", "deleted", "copied"), after_segmentation_url: nextPath },
    },
    // Issue 13, R2.8: the start of a new presentation.
    { method: "GET", pattern: "/v/create/", weight: 4 },
    {
      method: "GET",
      pattern: "/dashboard/next/presentations/:oid/",
      weight: 10,
      params: oid,
      query: { notice: word("saved", "linkCreated"), days: word("7", "30", "90"), audience: word("all", "public") },
    },
    // Issue 33 item 5: the analytics as CSV.
    {
      method: "GET",
      pattern: "/dashboard/next/presentations/:oid/analytics.csv",
      weight: 4,
      params: oid,
      query: { days: word("7", "30", "90"), audience: word("all", "public") },
    },
    { method: "GET", pattern: "/dashboard/next/presentations/:oid/delete", weight: 6, params: oid },
    {
      method: "GET",
      pattern: "/p/edit/:oid/",
      weight: 9,
      params: oid,
      query: { notice: word("saved", "commentAdded") },
    },
    {
      method: "GET",
      pattern: "/:oid/edit/",
      weight: 9,
      params: oid,
      query: { notice: word("saved", "commentDeleted") },
    },
    { method: "GET", pattern: "/explore/", weight: 3 },
    {
      method: "GET",
      pattern: "/explore/search/",
      weight: 18,
      query: { search: word("bread", "sourd", "a b", "!", "&|", "日本"), page },
    },
    { method: "GET", pattern: "/gallery/", weight: 2 },
    { method: "GET", pattern: "/presentation-template/", weight: 2 },
    { method: "GET", pattern: "/presentation-template/:slug/", weight: 8, params: { slug: "templateSlug" } },
    { method: "GET", pattern: "/video/explore/", weight: 2 },
    { method: "GET", pattern: "/video", weight: 2 },
    { method: "GET", pattern: "/edu/prezi-video-edu", weight: 2 },
    { method: "GET", pattern: "/product/", weight: 2 },
    { method: "GET", pattern: "/video/thumbnail/:file", weight: 6, params: { file: "videoFile" } },
    { method: "GET", pattern: "/video/preview/:file", weight: 6, params: { file: "videoFile" } },
    { method: "GET", pattern: "/contact/abuse/:oid/", weight: 7, params: oid },
    { method: "GET", pattern: "/admin/reports/", weight: 5 },
    { method: "GET", pattern: "/curation/:oid/", weight: 7, params: oid, query: { saved: word("1") } },
    { method: "GET", pattern: "/assets/:name", weight: 5, params: { name: "asset" } },

    // Accounts.
    {
      method: "POST",
      pattern: "/login/",
      weight: 26,
      body: "form",
      scrypt: true,
      fields: { email: word(...DEMO_EMAILS, "nobody@podium.test"), password: word("podium-dem0", "x"), next: nextPath },
    },
    {
      method: "POST",
      pattern: "/signup/",
      weight: 26,
      body: "form",
      scrypt: true,
      fields: {
        firstName: rawText,
        lastName: rawText,
        publicDisplayName: rawText,
        email: word("fuzz@podium.test", "ada@podium.test", "a@b", "@", "x@y.z"),
        password: word("correct horse battery", "short"),
        next: nextPath,
      },
    },
    // Issue 13, R2.8: the segmentation step and a new presentation.
    {
      method: "POST",
      pattern: "/signup/segment/",
      weight: 8,
      body: "form",
      fields: { segment: likely("sales-marketing", "teacher", "student", "other", "pirate", "") },
    },
    { method: "POST", pattern: "/v/create/", weight: 6, body: "form", fields: { title: rawText } },
    { method: "POST", pattern: "/logout", weight: 8, body: "form", destructive: "always" },
    {
      method: "POST",
      pattern: "/settings/",
      weight: 18,
      body: "form",
      fields: { firstName: rawText, lastName: rawText, publicDisplayName: rawText, language: word(...LOCALES) },
    },
    {
      method: "POST",
      pattern: "/settings/password",
      weight: 14,
      body: "form",
      scrypt: true,
      fields: { currentPassword: rawText, newPassword: word("a new long password", "x") },
    },

    // The dashboard.
    {
      method: "POST",
      pattern: "/dashboard/next/import",
      weight: 28,
      body: "import",
      fields: {
        title: rawText,
        privacy: word("public", "private", "unlisted", "reusable"),
        schemaVersion: word("0", "2"),
      },
    },
    {
      method: "POST",
      pattern: "/dashboard/next/presentations/:oid/details",
      weight: 18,
      params: oid,
      body: "form",
      fields: {
        title: rawText,
        description: word("<p>hi</p>", "<script>x</script>", "<img src=x onerror=alert(1)>"),
        tags,
        privacy: word("public", "private", "unlisted", "reusable"),
      },
    },
    {
      method: "POST",
      pattern: "/dashboard/next/presentations/:oid/embed-hosts",
      weight: 6,
      params: oid,
      body: "form",
      // Issue 34 item 3: the sites that may embed a deck.
      fields: {
        hosts: fc.oneof(word("", "course.example.org", "https://a.example\n*.b.example", "'self' *"), rawText),
      },
    },
    {
      method: "POST",
      pattern: "/dashboard/next/presentations/:oid/theme",
      weight: 6,
      params: oid,
      body: "form",
      fields: { theme: word("light", "dark", "contrast", "neon") },
    },
    { method: "POST", pattern: "/dashboard/next/presentations/:oid/view-links", weight: 9, params: oid, body: "form" },
    {
      method: "POST",
      pattern: "/dashboard/next/presentations/:oid/view-links/:linkId/settings",
      weight: 6,
      params: { oid: "oid", linkId: "linkId" },
      body: "form",
      fields: {
        name: rawText,
        expiresOn: likely("", "2030-01-31", "2020-01-01", "2026-02-30"),
        // Rarely a passcode that gets hashed (scrypt: 128 MiB, a few hundred ms each).
        passcode: fc.constantFrom("", "", "", "abc", "harbour-42"),
        allowDownload: word("on", ""),
        enabled: likely("on", ""),
      },
      destructive: "ids",
    },
    {
      method: "POST",
      pattern: "/dashboard/next/presentations/:oid/view-links/:linkId/revoke",
      weight: 9,
      params: { oid: "oid", linkId: "linkId" },
      body: "form",
      destructive: "ids",
    },
    {
      method: "POST",
      pattern: "/dashboard/next/presentations/:oid/collaborators",
      weight: 14,
      params: oid,
      body: "form",
      fields: { email: word(...DEMO_EMAILS), right: word("view", "edit", "comment") },
    },
    {
      method: "POST",
      pattern: "/dashboard/next/presentations/:oid/collaborators/:userOid/remove",
      weight: 9,
      params: { oid: "oid", userOid: "userOid" },
      body: "form",
    },
    {
      method: "POST",
      pattern: "/dashboard/next/presentations/:oid/delete",
      weight: 9,
      params: oid,
      body: "form",
      destructive: "ids",
    },
    { method: "POST", pattern: "/p/:oid/copy/", weight: 11, params: oid, body: "form" },

    // The editor, both kinds.
    ...(["/p/edit/:oid/", "/:oid/edit/"] as const).flatMap((base): RouteDef[] => [
      {
        method: "POST",
        pattern: base,
        weight: 16,
        params: oid,
        body: "form",
        fields: {
          title: rawText,
          description: rawText,
          privacy: word("public", "private", "unlisted", "reusable"),
          tags,
          markdown,
        },
      },
      { method: "POST", pattern: `${base}comments`, weight: 10, params: oid, body: "form", fields: { body: rawText } },
      {
        method: "POST",
        pattern: `${base}comments/:commentId/delete`,
        weight: 7,
        params: { oid: "oid", commentId: "commentId" },
        body: "form",
      },
    ]),

    // Moderation and curation.
    {
      method: "POST",
      pattern: "/contact/abuse/:oid/",
      weight: 18,
      params: oid,
      body: "form",
      fields: { reason: word(...REPORT_REASONS), details: rawText },
    },
    { method: "POST", pattern: "/admin/reports/:id/hide", weight: 7, params: { id: "reportId" }, body: "form" },
    { method: "POST", pattern: "/admin/reports/:id/dismiss", weight: 7, params: { id: "reportId" }, body: "form" },
    {
      method: "POST",
      pattern: "/curation/:oid/",
      weight: 14,
      params: oid,
      body: "form",
      fields: { hiddenTags: tags, staffPick: word("on", "off") },
    },

    // Usage events and the client log (no CSRF token: they only record).
    { method: "POST", pattern: "/log/json", weight: 26, body: "event" },
    { method: "POST", pattern: "/fallback/json", weight: 13, body: "event" },
    { method: "POST", pattern: "/log/client", weight: 18, body: "clientLog" },
    // A view page's visitor id (issue 28 item 4).
    { method: "GET", pattern: "/api/views/:oid/visitor-id", weight: 8, params: oid, query: { session_id: rawText } },

    // Likes (JSON API), by oid and through a view link.
    ...(["PUT", "DELETE"] as const).flatMap((method): RouteDef[] => [
      { method, pattern: "/api/v4/presentation/:oid/like/", weight: 12, params: oid },
      {
        method,
        pattern: "/api/v4/presentation/like/",
        weight: 12,
        query: {
          auth_key: fc.oneof(fc.constantFrom(...(pools.linkIds.length > 0 ? pools.linkIds : ["x"])), rawText),
          key_type: word("view_link", "presentation"),
        },
      },
    ]),

    // Images (issue 10).
    { method: "POST", pattern: "/api/assets", weight: 12, body: "asset" },

    // PDF import (issue 10): uploads that aren't PDFs, and job ids that aren't jobs.
    { method: "POST", pattern: "/api/imports/pdf", weight: 8, body: "asset" },
    { method: "GET", pattern: "/api/imports/:id", weight: 4, params: { id: "oid" } },
  ];
}

/** Route labels of the table (for coverage: every one must be reached). */
export function routeLabels(pools: FuzzPools): string[] {
  return routeTable(pools).map((route) => `${route.method} ${route.pattern}`);
}

// ─── Requests ───────────────────────────────────────────────────────────────────────────────

export type CsrfMode = "valid" | "none" | "garbage" | "foreign";

export type BodySpec =
  | { kind: "none" }
  | { kind: "form"; pairs: Array<[string, Pieces]>; contentType: string }
  | { kind: "json"; value: unknown; contentType: string }
  | { kind: "jsonText"; text: Pieces; contentType: string }
  | { kind: "multipart"; multipart: MultipartSpec }
  | { kind: "raw"; contentType: string | null; text: Pieces; latin1: boolean }
  | { kind: "manyFields"; format: "form" | "json" | "multipart"; count: number; sameKey: boolean }
  | { kind: "sized"; inner: BodySpec; size: number };

export interface MultipartPart {
  name: string;
  filename?: string;
  /** A filename given RFC 5987 style (`filename*=UTF-8''…`), percent-encoded. */
  filenameStar?: string;
  contentType?: string;
  value: Pieces;
}

export interface MultipartSpec {
  boundary: string;
  contentType: string;
  parts: MultipartPart[];
  framing: "ok" | "noClose" | "cut" | "lf" | "garbagePrefix" | "noHeaders" | "noBlankLine" | "bare";
  cutAt: number;
}

export interface CookieSpec {
  mode: "agent" | "none" | "extraAfter" | "extraBefore" | "raw";
  extra: Array<[string, string]>;
  raw: string;
}

export interface RequestSpec {
  /** The route it was generated for ("POST /login/"), or "junk" for paths no route knows. */
  route: string;
  method: string;
  agent: AgentName;
  csrf: CsrfMode;
  csrfIn: "header" | "field" | "both";
  path: Pieces;
  /** The query string (without "?"), or null for none. */
  query: Pieces | null;
  /** The Accept header: JSON gets errors as JSON (cheap), HTML and none get the error page. */
  accept: string | null;
  headers: Array<[string, Pieces]>;
  cookies: CookieSpec;
  body: BodySpec;
  remoteAddress: string;
  /** Password hashing may run for it (scrypt routes with a valid token): the suite caps these. */
  scrypt: boolean;
  /** Destructive for a signed-in agent: sent with a valid token only with garbage ids. */
  destructive: boolean;
}

/** A header value: latin1 only (what HTTP carries), no control characters that Node's parser refuses. */
const latin1Char = fc.oneof(
  { arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), weight: 4 },
  { arbitrary: fc.integer({ min: 0xa0, max: 0xff }).map((code) => String.fromCharCode(code)), weight: 1 },
  { arbitrary: fc.constant("\t"), weight: 1 },
);
const latin1Text = fc.string({ unit: latin1Char, maxLength: 40 });

const headerArbitrary: fc.Arbitrary<[string, Pieces]> = fc
  .oneof(
    fc.tuple(
      fc.constant("accept"),
      fc.constantFrom("text/html", "application/json", "*/*", "application/json, text/html", "image/*", ";;;", ""),
    ),
    fc.tuple(fc.constant("accept-language"), fc.constantFrom("de", "ja-JP,ja;q=0.9", "*", "xx-YY;q=abc", "en;q=0")),
    fc.tuple(
      fc.constant("accept-encoding"),
      fc.constantFrom("gzip", "br", "deflate", "gzip;q=0, br;q=1", "*", "identity;q=0", "zstd, bogus"),
    ),
    fc.tuple(
      fc.constant("user-agent"),
      fc.oneof(
        fc.constantFrom(
          "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148",
          "Mozilla/5.0 (Linux; Android 14) Mobile Safari/537.36",
          "Googlebot/2.1",
          "",
        ),
        latin1Text,
      ),
    ),
    fc.tuple(
      fc.constant("origin"),
      fc.oneof(
        fc.constantFrom("https://podium.example", "http://localhost:80", "https://evil.example", "null", "http://[::1"),
        latin1Text,
      ),
    ),
    fc.tuple(fc.constant("sec-fetch-site"), fc.constantFrom("same-origin", "same-site", "cross-site", "none", "")),
    fc.tuple(
      fc.constant("referer"),
      fc.oneof(fc.constantFrom("https://podium.example/p/x/", "https://evil.example/"), latin1Text),
    ),
    fc.tuple(
      fc.constant("host"),
      fc.oneof(fc.constantFrom("podium.example", "localhost:80", "evil.example", "", "[::1]:99999"), latin1Text),
    ),
    fc.tuple(fc.constant("if-none-match"), fc.oneof(fc.constantFrom("*", 'W/"x"', '"a", "b"', ""), latin1Text)),
    fc.tuple(fc.constant("if-modified-since"), fc.constantFrom("Wed, 21 Oct 2015 07:28:00 GMT", "garbage", "0")),
    fc.tuple(fc.constant("range"), fc.constantFrom("bytes=0-10", "bytes=-1", "bytes=9-1", "lines=1-2")),
    fc.tuple(fc.constant("x-forwarded-for"), fc.constantFrom("1.2.3.4", "::1, 10.0.0.1", "garbage")),
    fc.tuple(fc.constant("x-xsrf-token"), latin1Text),
    // Framing that lies or asks for more: a wrong length, an encoding nobody sent, 100-continue.
    fc.tuple(fc.constant("content-length"), fc.constantFrom("0", "1", "999999", "-1", "abc", "1e3")),
    fc.tuple(fc.constant("content-encoding"), fc.constantFrom("gzip", "br", "deflate", "identity", "bogus")),
    fc.tuple(fc.constant("transfer-encoding"), fc.constantFrom("chunked", "gzip, chunked", "bogus")),
    fc.tuple(fc.constant("expect"), fc.constantFrom("100-continue", "bogus")),
    fc.tuple(
      fc.string({
        unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz-0123456789!#$%&'*+.^_`|~"),
        minLength: 1,
        maxLength: 12,
      }),
      latin1Text,
    ),
    fc
      .tuple(fc.constantFrom("user-agent", "referer", "x-long"), fc.constantFrom(8_192, 16_384, 70_000))
      .map(([name, times]): [string, Pieces] => [name, [run("a", times)]]),
  )
  .map(([name, value]): [string, Pieces] => [name, typeof value === "string" ? [value] : value]);

const COOKIE_NAMES = [
  "podium_session",
  "podium_csrf",
  "XSRF-TOKEN",
  "language",
  "podium_cookie_consent",
  "podium_usage_session",
  "podium_device",
  "__proto__",
  "constructor",
];
const cookieValue = fc.oneof(
  fc.constantFrom("", "%00", "%ED%A0%80", "a%00b", "%zz", '"quoted"', "de", "ja", "xx", "performance", "necessary"),
  fc.constantFrom("a".repeat(43), "A".repeat(32), `${"a".repeat(24)}.${"b".repeat(43)}`),
  latin1Text.filter((text) => !text.includes(";")),
  encodedText,
);
const cookieSpec: fc.Arbitrary<CookieSpec> = fc.record({
  mode: fc.constantFrom("agent", "agent", "agent", "agent", "none", "extraAfter", "extraBefore", "raw"),
  extra: fc.array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom(...COOKIE_NAMES),
        latin1Text.filter((n) => !/[;=]/.test(n)),
      ),
      cookieValue,
    ),
    {
      maxLength: 3,
    },
  ),
  raw: fc.oneof(
    fc.constantFrom(";;;", "=", "==;=", "podium_session", "podium_session=", "a=b=c", " ; ", "language=%00"),
    latin1Text,
  ),
});

/** Most requests ask for JSON, so most errors are cheap JSON answers; the rest get the HTML error page. */
const accept = fc.oneof(
  { arbitrary: fc.constant<string | null>("application/json"), weight: 8 },
  { arbitrary: fc.constantFrom<string | null>("text/html,application/xhtml+xml,*/*;q=0.8", null), weight: 2 },
);

/** Addresses the requests come from (per-address limits are counted per address). */
const remoteAddress = fc.oneof(
  { arbitrary: fc.nat(39).map((n) => `10.9.0.${n}`), weight: 9 },
  { arbitrary: fc.constantFrom("127.0.0.1", "::1", "2001:db8::7", "::ffff:10.0.0.1"), weight: 1 },
);

function formPairs(fields: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<Array<[string, Pieces]>> {
  const known = Object.entries(fields).map(([name, value]) =>
    fc.option(
      fc
        .oneof(
          { arbitrary: value.map((v): Pieces => [percentEncode(v)]), weight: 7 },
          { arbitrary: encodedText.map((v): Pieces => [v]), weight: 3 },
        )
        .map((v): [string, Pieces] => [name, v]),
      { freq: 4 },
    ),
  );
  const extra = fc.array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom("__proto__", "constructor", "constructor[prototype]", "a[b]", "a[]", "_csrf", "", "x"),
        encodedText,
      ),
      encodedText.map((v): Pieces => [v]),
    ),
    { maxLength: 2 },
  );
  return fc.tuple(fc.tuple(...known), extra, fc.boolean()).map(([picked, more, duplicate]) => {
    const pairs = picked.filter((pair): pair is [string, Pieces] => pair !== null);
    const first = pairs[0];
    if (duplicate && first) pairs.push([first[0], ["dup"]]);
    return [...pairs, ...more.map(([k, v]): [string, Pieces] => [k, v])];
  });
}

function jsonFields(fields: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<unknown> {
  const entries = Object.entries(fields).map(([name, value]) =>
    fc.option(
      fc
        .oneof({ arbitrary: value, weight: 6 }, { arbitrary: jsonTree, weight: 2 })
        .map((v): [string, unknown] => [name, v]),
      { freq: 4 },
    ),
  );
  return fc.tuple(fc.tuple(...entries), fc.dictionary(rawText, jsonTree, { maxKeys: 2 })).map(([picked, extra]) => {
    const object: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(extra)) object[key] = value;
    for (const pair of picked) if (pair) object[pair[0]] = pair[1];
    return object;
  });
}

const jsonLeaf = fc.oneof(
  { arbitrary: rawText, weight: 5 },
  { arbitrary: fc.integer(), weight: 1 },
  { arbitrary: fc.double(), weight: 1 },
  { arbitrary: fc.boolean(), weight: 1 },
  { arbitrary: fc.constant(null), weight: 1 },
);
const jsonTree: fc.Arbitrary<unknown> = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", maxDepth: 3 },
    { arbitrary: jsonLeaf, weight: 4 },
    { arbitrary: fc.array(tie("node"), { maxLength: 3 }), weight: 1 },
    { arbitrary: fc.dictionary(rawText, tie("node"), { maxKeys: 3 }), weight: 1 },
  ),
})).node;

/** Not JSON, or JSON that is hostile: prototype keys, duplicate keys, BOM, depth. */
const hostileJsonText: fc.Arbitrary<Pieces> = fc.oneof(
  fc
    .constantFrom(
      "",
      " ",
      "{",
      "[",
      "{'a':1}",
      '{"a":}',
      "nul",
      "undefined",
      "NaN",
      "1e999999",
      "-",
      '"\\ud800"',
      '"\\u0000"',
      '{"_csrf":"\\u0000"}',
      '{"__proto__":{"isAdmin":true}}',
      '{"constructor":{"prototype":{"isAdmin":true}}}',
      '{"a":1,"a":2}',
      "\ufeff{}",
      '{"a":"\ud800"}',
      "[1,2,3]",
      "null",
      "true",
      "0",
      '"string"',
      '{"a":1} trailing',
      "\u0000",
    )
    .map((text): Pieces => [text]),
  fc
    .tuple(
      fc.constantFrom(["[", "]"], ['{"a":', "}"], ['[{"a":', "}]"]),
      fc.constantFrom(100, 1_000, 4_000, 10_000, 100_000),
    )
    .map(([[open, close], depth]): Pieces => [run(open, depth), "1", run(close, depth)]),
);

/** A usage event (spec §7): the right shape, a near miss, or none at all. */
function eventValue(pools: FuzzPools): fc.Arbitrary<unknown> {
  const eventName = fc.oneof(fc.constantFrom(...Object.values(VIEWER_EVENTS)), rawText);
  const oid = fc.oneof(fc.constantFrom(...(pools.oids.length > 0 ? pools.oids : ["aaaaaaaaaaaa"])), rawText);
  const event = fc.record(
    {
      core: fc.record({
        type: fc.oneof(fc.constant("viewer"), rawText),
        event_type: fc.oneof(fc.constant("view"), rawText),
      }),
      user: fc.record({ session_id: fc.oneof(fc.constant("session-1234"), rawText) }),
      body: fc.record({ event_name: eventName, oid }, { requiredKeys: ["event_name"] }),
      extra: jsonTree,
    },
    { requiredKeys: ["core", "user", "body"] },
  );
  return fc.oneof(
    { arbitrary: event.map((e) => [e]), weight: 6 },
    { arbitrary: event, weight: 1 },
    { arbitrary: fc.array(event, { maxLength: 3 }), weight: 1 },
    { arbitrary: jsonTree, weight: 1 },
  );
}

function clientLogValue(pools: FuzzPools): fc.Arbitrary<unknown> {
  const record = fc.record(
    {
      msg: fc.oneof({ arbitrary: rawText, weight: 6 }, { arbitrary: jsonTree, weight: 1 }),
      levelname: likely("INFO", "WARN", "ERROR"),
      levelno: fc.oneof(
        { arbitrary: fc.constantFrom(0, 20, 40, 100), weight: 6 },
        { arbitrary: fc.oneof(fc.integer(), fc.double(), rawText), weight: 1 },
      ),
      session_id: likely("session-1234"),
      presentation_id: likely(...(pools.oids.length > 0 ? pools.oids : ["aaaaaaaaaaaa"])),
      extra: jsonTree,
    },
    { requiredKeys: ["msg", "levelname", "levelno", "session_id"] },
  );
  return fc.oneof(
    { arbitrary: record.map((r) => [r]), weight: 6 },
    { arbitrary: record, weight: 1 },
    { arbitrary: jsonTree, weight: 1 },
  );
}

/** Deeply nested JSON inside an otherwise valid event: the stored payload is that deep. */
const deepEventText: fc.Arbitrary<Pieces> = fc
  .constantFrom(100, 1_000, 2_000, 2_700)
  .map(
    (depth): Pieces => [
      '[{"core":{"type":"viewer","event_type":"view"},"user":{"session_id":"s-1"},"body":{"event_name":"closed_modal"},"x":',
      run("[", depth),
      run("]", depth),
      "}]",
    ],
  );

const MARKDOWN_FILE = "# A deck\n---\n# Second slide\n- one\n- two\n";
const JSON_FILE = JSON.stringify({ version: 1, topics: [] });
/** A 1×1 PNG, so an image upload reaches the image code. */
const PNG_1X1 = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
).toString("latin1");

function multipartArbitrary(fields: Record<string, fc.Arbitrary<string>>, fileField: "import" | "asset" | null) {
  const fieldParts = fc.tuple(
    ...Object.entries(fields).map(([name, value]) =>
      fc.option(
        fc.oneof(value, rawText).map((v): MultipartPart => ({ name, value: [v] })),
        { freq: 4 },
      ),
    ),
  );
  const filename = fc.oneof(
    fc.constantFrom(
      "talk.md",
      "deck.json",
      "deck.markdown",
      "image.png",
      "a.exe",
      "",
      ".md",
      "../../etc/passwd.md",
      "x\u0000.md",
      "\ud800.md",
    ),
    rawText,
  );
  const fileContent: fc.Arbitrary<Pieces> = fc
    .oneof(
      {
        arbitrary: fc.constantFrom(
          MARKDOWN_FILE,
          JSON_FILE,
          "",
          "\u0000\u0000",
          "\ufeff# BOM deck",
          "{not json",
          "<svg/>",
        ),
        weight: 4,
      },
      { arbitrary: fc.constant(PNG_1X1), weight: fileField === "asset" ? 6 : 1 },
      { arbitrary: rawText, weight: 3 },
    )
    .map((content): Pieces => [content])
    .chain((content) =>
      // Parts past a stream's buffer (16 KiB), and near the body limit.
      fc.oneof(
        { arbitrary: fc.constant(content), weight: 5 },
        {
          arbitrary: fc.constantFrom(17_000, 70_000, 250_000).map((times): Pieces => [...content, run("a", times)]),
          weight: 1,
        },
      ),
    );
  const filePart = fc
    .record(
      {
        name: fc.constantFrom("file", "file", "file", "other", ""),
        filename,
        filenameStar: fc.constantFrom("UTF-8''%00.md", "UTF-8''%ED%A0%80.md", "UTF-8''caf%C3%A9.md", "bogus"),
        contentType: fc.constantFrom("text/markdown", "application/json", "image/png", "application/octet-stream", ""),
        value: fileContent,
      },
      { requiredKeys: ["name", "value"] },
    )
    .map((part): MultipartPart => part);
  const extraParts = fc.array(
    fc
      .record({
        name: rawText,
        value: fc.oneof(
          { arbitrary: rawText.map((v): Pieces => [v]), weight: 6 },
          { arbitrary: fileContent, weight: 1 },
        ),
      })
      .map((part): MultipartPart => part),
    { maxLength: 2 },
  );
  const boundary = fc.oneof(
    { arbitrary: fc.constant("----podiumfuzz"), weight: 6 },
    { arbitrary: fc.constantFrom("x", "a".repeat(70), "a".repeat(71), "with space", "ümlaut", "--", '"q"'), weight: 1 },
  );
  return fc
    .record({
      boundary,
      header: fc.constantFrom("ok", "ok", "ok", "ok", "ok", "quoted", "none", "empty", "other", "mixed", "upper"),
      fieldParts,
      file: fileField ? fc.option(filePart, { freq: 6 }) : fc.constant(null),
      extraParts,
      framing: fc.constantFrom(
        "ok",
        "ok",
        "ok",
        "ok",
        "ok",
        "ok",
        "noClose",
        "cut",
        "lf",
        "garbagePrefix",
        "noHeaders",
        "noBlankLine",
        "bare",
      ),
      cutAt: fc.nat(400),
    })
    .map(({ boundary, header, fieldParts, file, extraParts, framing, cutAt }): MultipartSpec => {
      const contentTypes: Record<string, string> = {
        ok: `multipart/form-data; boundary=${boundary}`,
        quoted: `multipart/form-data; boundary="${boundary}"`,
        none: "multipart/form-data",
        empty: "multipart/form-data; boundary=",
        other: "multipart/form-data; boundary=not-the-one",
        mixed: `multipart/mixed; boundary=${boundary}`,
        upper: `MULTIPART/FORM-DATA; BOUNDARY=${boundary}`,
      };
      const parts = [...fieldParts.filter((p): p is MultipartPart => p !== null), ...extraParts];
      if (file) parts.push(file);
      return { boundary, contentType: contentTypes[header] ?? contentTypes.ok ?? "", parts, framing, cutAt };
    });
}

const FORM_TYPE = "application/x-www-form-urlencoded";
const formContentType = fc.constantFrom(
  FORM_TYPE,
  FORM_TYPE,
  FORM_TYPE,
  `${FORM_TYPE}; charset=utf-8`,
  `${FORM_TYPE}; charset=latin1`,
  "APPLICATION/X-WWW-FORM-URLENCODED",
);
const jsonContentType = fc.constantFrom(
  "application/json",
  "application/json",
  "application/json",
  "application/json; charset=utf-8",
  "application/json; charset=utf-16",
  "application/vnd.api+json",
  "Application/JSON",
);
const rawBody: fc.Arbitrary<BodySpec> = fc
  .record({
    contentType: fc.constantFrom(
      null,
      "text/plain",
      "application/xml",
      "application/octet-stream",
      "image/png",
      "x/y",
      ";",
      "",
      "multipart/form-data; boundary=xx",
      "multipart/form-data",
      "application/json",
      FORM_TYPE,
    ),
    text: fc.oneof(
      latin1Text,
      rawText,
      fc.constantFrom("--xx\r\n", "--xx\r\nContent-Disposition: form-data\r\n\r\n", "\u0000\u00ff\u00fe"),
    ),
    latin1: fc.boolean(),
  })
  .map(({ contentType, text, latin1 }): BodySpec => ({ kind: "raw", contentType, text: [text], latin1 }));

function bodyArbitrary(route: RouteDef, pools: FuzzPools): fc.Arbitrary<BodySpec> {
  const shape = route.body ?? "none";
  const fields = route.fields ?? {};
  const form = fc
    .tuple(formPairs(fields), formContentType)
    .map(([pairs, contentType]): BodySpec => ({ kind: "form", pairs, contentType }));
  const json = fc
    .tuple(
      shape === "event" ? eventValue(pools) : shape === "clientLog" ? clientLogValue(pools) : jsonFields(fields),
      jsonContentType,
    )
    .map(([value, contentType]): BodySpec => ({ kind: "json", value, contentType }));
  const jsonText = fc
    .tuple(shape === "event" ? fc.oneof(hostileJsonText, deepEventText) : hostileJsonText, jsonContentType)
    .map(([text, contentType]): BodySpec => ({ kind: "jsonText", text, contentType }));
  const multipart = multipartArbitrary(fields, shape === "import" || shape === "asset" ? shape : null).map(
    (spec): BodySpec => ({ kind: "multipart", multipart: spec }),
  );
  const many = fc
    .record({
      format: fc.constantFrom("form", "json", "multipart"),
      count: fc.constantFrom(21, 100, 1_000, 10_000),
      sameKey: fc.boolean(),
    })
    .map((spec): BodySpec => ({ kind: "manyFields", ...spec }));
  const limit = shape === "event" || shape === "clientLog" ? EVENT_LIMIT : BODY_LIMIT;
  const sized = fc
    .tuple(
      fc.oneof(form, json, multipart),
      fc.constantFrom(limit - 64, limit - 1, limit, limit + 1, 2 * limit, 1024 * 1024),
    )
    .map(([inner, size]): BodySpec => ({ kind: "sized", inner, size }));
  const none = fc.constant<BodySpec>({ kind: "none" });
  switch (shape) {
    case "none":
      return fc.oneof(
        { arbitrary: none, weight: 30 },
        { arbitrary: json, weight: 1 },
        { arbitrary: jsonText, weight: 1 },
        { arbitrary: form, weight: 1 },
        { arbitrary: rawBody, weight: 1 },
      );
    case "form":
      return fc.oneof(
        { arbitrary: form, weight: 60 },
        { arbitrary: json, weight: 14 },
        { arbitrary: jsonText, weight: 4 },
        { arbitrary: multipart, weight: 8 },
        { arbitrary: rawBody, weight: 5 },
        { arbitrary: none, weight: 4 },
        { arbitrary: sized, weight: 3 },
        { arbitrary: many, weight: 2 },
      );
    case "import":
    case "asset":
      return fc.oneof(
        { arbitrary: multipart, weight: 60 },
        { arbitrary: form, weight: 10 },
        { arbitrary: json, weight: 6 },
        { arbitrary: rawBody, weight: 8 },
        { arbitrary: none, weight: 4 },
        { arbitrary: sized, weight: 4 },
        { arbitrary: many, weight: 3 },
      );
    case "event":
    case "clientLog":
      return fc.oneof(
        { arbitrary: json, weight: 55 },
        { arbitrary: jsonText, weight: 15 },
        { arbitrary: form, weight: 6 },
        { arbitrary: multipart, weight: 4 },
        { arbitrary: rawBody, weight: 6 },
        { arbitrary: none, weight: 3 },
        { arbitrary: sized, weight: 5 },
        { arbitrary: many, weight: 2 },
      );
  }
}

/** How a matched path is bent: slashes, case, dot segments, broken escapes, junk appended. */
const pathTwist = fc.oneof(
  { arbitrary: fc.constant("none"), weight: 40 },
  {
    arbitrary: fc.constantFrom(
      "noTrailingSlash",
      "doubleSlash",
      "trailingDoubleSlash",
      "upper",
      "dotSegment",
      "encodedSlash",
      "suffixNul",
      "suffixSurrogate",
      "suffixBroken",
      "appendJunk",
      "semicolon",
    ),
    weight: 6,
  },
);

function applyTwist(path: Pieces, twist: string): Pieces {
  const text = path.every((piece) => typeof piece === "string") ? path.join("") : null;
  switch (twist) {
    case "noTrailingSlash":
      // A request line always has a path: "/" stays.
      return text?.endsWith("/") && text.length > 1 ? [text.slice(0, -1)] : path;
    case "doubleSlash":
      return text ? [text.replace(/\//g, "//")] : path;
    case "trailingDoubleSlash":
      return [...path, "/"];
    case "upper":
      return text ? [text.toUpperCase()] : path;
    case "dotSegment":
      return ["/./x/..", ...path];
    case "encodedSlash":
      return text ? [text.replace(/\/(?=.)/g, (_match, offset: number) => (offset === 0 ? "/" : "%2F"))] : path;
    case "suffixNul":
      return [...path, "%00"];
    case "suffixSurrogate":
      return [...path, "%ED%A0%80"];
    case "suffixBroken":
      return [...path, "%E2%82"];
    case "appendJunk":
      return [...path, "junk/%zz/"];
    case "semicolon":
      return [...path, ";jsessionid=1"];
    default:
      return path;
  }
}

function queryArbitrary(route: RouteDef): fc.Arbitrary<Pieces | null> {
  const known = Object.entries(route.query ?? {});
  const generic = ["next", "page", "search", "notice", "format", "url", "__proto__", "constructor", "a[b]", "x"];
  const pair = fc.oneof(
    ...(known.length > 0
      ? [
          {
            arbitrary: fc.oneof(
              ...known.map(([key, value]) => value.map((v): [string, string] => [key, percentEncode(v)])),
            ),
            weight: 6,
          },
          {
            arbitrary: fc.tuple(fc.constantFrom(...known.map(([key]) => key)), encodedText),
            weight: 3,
          },
        ]
      : []),
    { arbitrary: fc.tuple(fc.oneof(fc.constantFrom(...generic), encodedText), encodedText), weight: 2 },
  );
  const pairs = fc.array(pair, { maxLength: 4 }).map((list): Pieces => [list.map(([k, v]) => `${k}=${v}`).join("&")]);
  // The route's own keys, each at most once, so the handler reads a query it understands.
  const shaped = fc
    .tuple(
      fc.tuple(
        ...known.map(([key, value]) =>
          fc.option(
            value.map((v) => `${key}=${percentEncode(v)}`),
            { freq: 4 },
          ),
        ),
      ),
      fc.option(fc.tuple(fc.constantFrom(...generic), encodedText), { freq: 4 }),
    )
    .map(
      ([picked, extra]): Pieces => [
        [...picked.filter((pair): pair is string => pair !== null), ...(extra ? [`${extra[0]}=${extra[1]}`] : [])].join(
          "&",
        ),
      ],
    );
  const weird = fc.constantFrom(
    "",
    "&&&",
    "=",
    "a",
    "a=%",
    "%zz=1",
    "a=1&a=2&a=3",
    "a=%00",
    "a=%ED%A0%80",
    "?",
    "#x",
    "a[]=1&a[]=2",
  );
  const long = fc
    .tuple(
      fc.constantFrom(...(known.length > 0 ? known.map(([key]) => key) : ["q"])),
      fc.constantFrom(2_001, 8_192, 16_384, 100_000),
    )
    .map(([key, times]): Pieces => [`${key}=`, run("a", times)]);
  return fc.oneof(
    { arbitrary: fc.constant(null), weight: known.length > 0 ? 2 : 6 },
    { arbitrary: pairs, weight: known.length > 0 ? 4 : 8 },
    ...(known.length > 0 ? [{ arbitrary: shaped, weight: 6 }] : []),
    { arbitrary: weird.map((text): Pieces => [text]), weight: 1 },
    { arbitrary: long, weight: 1 },
  );
}

function pathArbitrary(route: RouteDef, pools: FuzzPools, garbageIds: boolean): fc.Arbitrary<Pieces> {
  const segments = route.pattern.split(/(:[A-Za-z]+)/).filter((part) => part !== "");
  const pieces = segments.map((segment) => {
    if (!segment.startsWith(":")) return fc.constant<Pieces>([segment]);
    const kind = route.params?.[segment.slice(1)] ?? "oid";
    return garbageIds ? garbageIdArbitrary() : idArbitrary(kind, pools);
  });
  return fc.tuple(fc.tuple(...pieces), pathTwist).map(([parts, twist]) => applyTwist(parts.flat(), twist));
}

function routeRequest(route: RouteDef, pools: FuzzPools): fc.Arbitrary<RequestSpec> {
  const unsafe = route.method !== "GET";
  // Signed-in agents reach the handlers behind the session and CSRF checks; each request they
  // send also looks their session up, so pages are fetched mostly without one.
  const agent = fc.constantFrom<AgentName>(
    ...(unsafe
      ? (["anon", "form", "ada", "ada", "grace", "grace"] as const)
      : (["anon", "anon", "anon", "form", "ada", "grace"] as const)),
  );
  // Password hashing routes mostly get requests that stop at the CSRF check (scrypt is slow).
  const csrf: fc.Arbitrary<CsrfMode> = route.scrypt
    ? fc.constantFrom("none", "none", "garbage", "foreign", "garbage", "none", "foreign", "valid")
    : fc.constantFrom("valid", "valid", "valid", "valid", "valid", "none", "garbage", "foreign");
  const method =
    route.method === "GET"
      ? fc.constantFrom("GET", "GET", "GET", "GET", "GET", "GET", "GET", "HEAD")
      : fc.constant(route.method);
  return fc
    .record({
      agent,
      csrf,
      csrfIn: fc.constantFrom("field", "field", "header", "both"),
      method,
      path: fc.oneof(
        { arbitrary: pathArbitrary(route, pools, false), weight: 9 },
        { arbitrary: pathArbitrary(route, pools, true), weight: 1 },
      ),
      query: queryArbitrary(route),
      accept,
      headers: fc.array(headerArbitrary, { maxLength: 3 }),
      cookies: cookieSpec,
      body: bodyArbitrary(route, pools),
      remoteAddress,
    })
    .map(
      (spec): RequestSpec => ({
        route: `${route.method} ${route.pattern}`,
        ...spec,
        scrypt: route.scrypt === true,
        destructive: route.destructive !== undefined,
      }),
    );
}

/** Methods no route takes, and paths no route knows. */
function junkRequest(): fc.Arbitrary<RequestSpec> {
  const path = fc.oneof(
    fc
      .array(fc.oneof(encodedText, fc.constantFrom("p", "view", "api", "v4", "dashboard", "..", "static", "")), {
        minLength: 1,
        maxLength: 5,
      })
      .map((segments): Pieces => [`/${segments.join("/")}`]),
    fc
      .constantFrom(
        "/%",
        "/%00",
        "/%ED%A0%80",
        "/p/%",
        "/p/%zz/",
        "/\u00e9",
        "//",
        "/static/../../etc/passwd",
        "/?",
        "/p/embed/",
        "/api/v4/presentation//like/",
        "/*",
        "/%2e%2e/%2e%2e/",
      )
      .map((text): Pieces => [text]),
    fc.constantFrom(1_000, 8_192, 16_384, 65_536, 100_000).map((times): Pieces => ["/p/", run("a", times), "/"]),
  );
  return fc
    .record({
      agent: fc.constantFrom("anon", "form", "ada", "grace"),
      csrf: fc.constantFrom("valid", "none"),
      csrfIn: fc.constantFrom("header", "field"),
      method: fc.constantFrom(
        "GET",
        "GET",
        "POST",
        "PUT",
        "DELETE",
        "PATCH",
        "OPTIONS",
        "TRACE",
        "PROPFIND",
        "SEARCH",
        "LOCK",
      ),
      path,
      query: fc.option(
        encodedText.map((text): Pieces => [`q=${text}`]),
        { freq: 3 },
      ),
      accept,
      headers: fc.array(headerArbitrary, { maxLength: 2 }),
      cookies: cookieSpec,
      body: fc.oneof({ arbitrary: fc.constant<BodySpec>({ kind: "none" }), weight: 4 }, rawBody),
      remoteAddress,
    })
    .map((spec): RequestSpec => ({ route: "junk", ...spec, scrypt: false, destructive: false }));
}

/** Every generated request: one route of the table (by weight) or junk. */
export function requestArbitrary(pools: FuzzPools): fc.Arbitrary<RequestSpec> {
  const routes = routeTable(pools);
  return fc.oneof(...routes.map((route) => ({ arbitrary: routeRequest(route, pools), weight: route.weight })), {
    arbitrary: junkRequest(),
    weight: 50,
  });
}

// ─── Sending ────────────────────────────────────────────────────────────────────────────────

/** What an agent holds: its cookies and the CSRF token its pages carry. */
export interface AgentState {
  name: AgentName;
  cookies: Record<string, string>;
  token: string | null;
}

export interface MaterializeOptions {
  agents: Record<AgentName, AgentState>;
  /** Whether this request may carry its agent's valid token (scrypt budget, destructive routes). */
  allowValidToken: boolean;
  fuzzId: string;
}

function tokenFor(spec: RequestSpec, options: MaterializeOptions): string | null {
  const own = options.agents[spec.agent].token;
  switch (spec.csrf) {
    case "valid":
      return options.allowValidToken ? own : null;
    case "none":
      return null;
    case "garbage":
      return own ? `${own.slice(0, -2)}xx` : "garbage-token";
    case "foreign": {
      const other = (["form", "ada", "grace"] as const).find((name) => name !== spec.agent);
      return other ? options.agents[other].token : null;
    }
  }
}

function cookieHeader(spec: RequestSpec, agent: AgentState): string | null {
  const own = Object.entries(agent.cookies).map(([name, value]) => `${name}=${value}`);
  const extra = spec.cookies.extra.map(([name, value]) => `${name}=${value}`);
  let list: string[];
  switch (spec.cookies.mode) {
    case "agent":
      list = own;
      break;
    case "none":
      list = [];
      break;
    case "extraAfter":
      list = [...own, ...extra];
      break;
    case "extraBefore":
      list = [...extra, ...own];
      break;
    case "raw":
      return [...own, spec.cookies.raw].join("; ");
  }
  return list.length > 0 ? list.join("; ") : null;
}

function multipartBody(spec: MultipartSpec, token: string | null): Buffer {
  const crlf = spec.framing === "lf" ? "\n" : "\r\n";
  const chunks: Buffer[] = [];
  const text = (value: string) => chunks.push(Buffer.from(value, "utf8"));
  if (spec.framing === "garbagePrefix") text("garbage before the first boundary\u0000");
  if (spec.framing === "bare") {
    text("this is not multipart at all");
    return Buffer.concat(chunks);
  }
  const parts: MultipartPart[] = token ? [{ name: "_csrf", value: [token] }, ...spec.parts] : spec.parts;
  for (const part of parts) {
    text(`--${spec.boundary}${crlf}`);
    if (spec.framing !== "noHeaders") {
      let disposition = `Content-Disposition: form-data; name="${part.name}"`;
      if (part.filename !== undefined) disposition += `; filename="${part.filename}"`;
      if (part.filenameStar !== undefined) disposition += `; filename*=${part.filenameStar}`;
      text(`${disposition}${crlf}`);
      if (part.contentType) text(`Content-Type: ${part.contentType}${crlf}`);
    }
    if (spec.framing !== "noBlankLine") text(crlf);
    // File contents are bytes: a PNG is written as it is (latin1 keeps each byte).
    const value = renderPieces(part.value);
    chunks.push(Buffer.from(value, part.filename !== undefined && value === PNG_1X1 ? "latin1" : "utf8"));
    text(crlf);
  }
  if (spec.framing !== "noClose") text(`--${spec.boundary}--${crlf}`);
  const body = Buffer.concat(chunks);
  return spec.framing === "cut" ? body.subarray(0, Math.min(body.length, spec.cutAt)) : body;
}

function manyFieldsBody(spec: Extract<BodySpec, { kind: "manyFields" }>, token: string | null): [string, Buffer] {
  const name = (index: number) => (spec.sameKey ? "title" : `f${index}`);
  if (spec.format === "form") {
    const pairs = Array.from({ length: spec.count }, (_, index) => `${name(index)}=v${index}`);
    if (token) pairs.push(`_csrf=${encodeURIComponent(token)}`);
    return [FORM_TYPE, Buffer.from(pairs.join("&"))];
  }
  if (spec.format === "json") {
    const entries = Array.from({ length: spec.count }, (_, index) => `${JSON.stringify(name(index))}:${index}`);
    if (token) entries.push(`"_csrf":${JSON.stringify(token)}`);
    return ["application/json", Buffer.from(`{${entries.join(",")}}`)];
  }
  const boundary = "----podiummany";
  const parts = Array.from(
    { length: spec.count },
    (_, index) => `--${boundary}\r\nContent-Disposition: form-data; name="${name(index)}"\r\n\r\nv${index}\r\n`,
  );
  const csrf = token ? `--${boundary}\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n${token}\r\n` : "";
  return [`multipart/form-data; boundary=${boundary}`, Buffer.from(`${csrf}${parts.join("")}--${boundary}--\r\n`)];
}

/** The body's bytes and content type, with the CSRF field when the request carries it there. */
function bodyOf(body: BodySpec, token: string | null): { contentType: string | null; payload: Buffer | null } {
  switch (body.kind) {
    case "none":
      return { contentType: null, payload: null };
    case "form": {
      const pairs = body.pairs.map(([key, value]) => `${key}=${renderPieces(value)}`);
      if (token) pairs.splice(Math.min(1, pairs.length), 0, `_csrf=${encodeURIComponent(token)}`);
      return { contentType: body.contentType, payload: Buffer.from(pairs.join("&"), "utf8") };
    }
    case "json": {
      const value =
        token && body.value !== null && typeof body.value === "object" && !Array.isArray(body.value)
          ? { ...(body.value as Record<string, unknown>), _csrf: token }
          : body.value;
      return { contentType: body.contentType, payload: Buffer.from(JSON.stringify(value) ?? "", "utf8") };
    }
    case "jsonText":
      return { contentType: body.contentType, payload: Buffer.from(renderPieces(body.text), "utf8") };
    case "multipart":
      return { contentType: body.multipart.contentType, payload: multipartBody(body.multipart, token) };
    case "raw":
      return {
        contentType: body.contentType,
        payload: Buffer.from(renderPieces(body.text), body.latin1 ? "latin1" : "utf8"),
      };
    case "manyFields": {
      const [contentType, payload] = manyFieldsBody(body, token);
      return { contentType, payload };
    }
    case "sized": {
      const inner = bodyOf(body.inner, token);
      const base = inner.payload ?? Buffer.alloc(0);
      const missing = Math.max(0, body.size - base.length);
      // Padding that keeps the body well-formed: a field, whitespace, or a multipart preamble.
      const type = inner.contentType ?? "";
      if (type.includes("urlencoded"))
        return {
          contentType: type,
          payload: Buffer.concat([base, Buffer.from(`&${"a".repeat(Math.max(0, missing - 1))}`)]),
        };
      if (type.includes("multipart"))
        return {
          contentType: type,
          payload: Buffer.concat([Buffer.from(`${"a".repeat(Math.max(0, missing - 2))}\r\n`), base]),
        };
      return { contentType: type, payload: Buffer.concat([base, Buffer.from(" ".repeat(missing))]) };
    }
  }
}

/** The inject() options for a generated request, sent as `agent` would send it. */
/**
 * inject() parses a URL with WHATWG URL against a base before the server sees it, and refuses
 * what that can't parse: a raw backslash right after the first slash reads as a host there
 * (`/\/x` → `//x`). Such a request-target is sent with its backslashes percent-encoded.
 */
function injectable(url: string): string {
  try {
    new URL(url, "http://localhost");
    return url;
  } catch {
    return url.replaceAll("\\", "%5C");
  }
}

export function materialize(spec: RequestSpec, options: MaterializeOptions): InjectOptions {
  const agent = options.agents[spec.agent];
  const token = tokenFor(spec, options);
  const fieldToken = token && spec.csrfIn !== "header" ? token : null;
  const { contentType, payload } = bodyOf(spec.body, fieldToken);
  const headers: Record<string, string> = {};
  if (spec.accept !== null) headers.accept = spec.accept;
  for (const [name, value] of spec.headers) headers[name] = renderPieces(value);
  if (contentType !== null) headers["content-type"] = contentType;
  // Bodies that can't carry the field carry the token in the header.
  const fieldCarried =
    fieldToken !== null && spec.body.kind !== "none" && spec.body.kind !== "raw" && spec.body.kind !== "jsonText";
  if (token && (spec.csrfIn !== "field" || !fieldCarried)) headers["x-xsrf-token"] = token;
  const cookie = cookieHeader(spec, agent);
  if (cookie !== null) headers.cookie = cookie;
  headers["x-fuzz-id"] = options.fuzzId;
  const path = renderPieces(spec.path);
  const query = spec.query === null ? "" : `?${renderPieces(spec.query)}`;
  return {
    method: spec.method as InjectOptions["method"],
    url: injectable(`${path}${query}`),
    headers,
    remoteAddress: spec.remoteAddress,
    ...(payload !== null ? { payload } : {}),
  };
}
