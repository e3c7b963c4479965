import MarkdownIt from "markdown-it";
import type { Database, Queryable } from "../../db/client";
import { slideTopic } from "../../document/markdown";
import { escapeHtml } from "../../lib/html";
import { stableOid } from "../../lib/ids";
import { seededRandom } from "../../lib/seeded-random";
import { demoDecks } from "./content/catalogue";
import { PEOPLE_FIRST_NAMES, PEOPLE_LAST_NAMES } from "./content/names";

/**
 * Issue 15 item 1, `npm run seed:bulk -- --count N`: N realistic public presentations for load
 * tests and the search benchmark. Every deck is built from the demo decks' vocabulary (titles,
 * slide headings, bullets, tags): a base deck of its own, slides mostly from it and one from
 * another, a description from its sentences. Owners, views (a long tail: most decks are seen a
 * little, a few a lot) and likes (a few percent of the views, real rows) are spread over them.
 *
 * Everything a run makes is keyed by its run id (oids and owner e-mails are derived from it), so
 * running it again inserts only what is missing, and `removeBulk` deletes the run's owners, which
 * takes their decks, likes and counters with them (foreign keys cascade).
 */

/** Decks per statement: big enough that the server does the work, small enough for one message. */
export const BULK_BATCH_SIZE = 2_000;
/** One owner per this many decks (at least BULK_MIN_OWNERS, at most BULK_MAX_OWNERS). */
const DECKS_PER_OWNER = 40;
const BULK_MIN_OWNERS = 5;
const BULK_MAX_OWNERS = 2_500;
/** Views: a Pareto tail from this many upwards, capped. */
const VIEWS_SCALE = 12;
const VIEWS_MAX = 60_000;
/** Likes per deck at most (real rows: a 100,000-deck run stays within the two minutes of issue 15). */
const LIKES_MAX = 60;
/** Likes are this share of the views (as the demo seed: seed.ts DEMO_LIKE_RATE). */
const LIKE_RATE = { min: 0.015, max: 0.035 } as const;
/** Decks were last changed up to this long ago, most of them recently. */
const AGE_MAX_DAYS = 3 * 365;
const DAY_MS = 24 * 60 * 60 * 1000;
/** A run id is short and plain: it becomes part of e-mail addresses and oid keys. */
export const BULK_RUN_ID_PATTERN = /^[a-z0-9-]{1,32}$/;
const OWNER_EMAIL_DOMAIN = "bulk.podium.test";

const deckSources = import.meta.glob<string>("./content/decks/*.md", { query: "?raw", import: "default", eager: true });

interface SlideText {
  heading: string;
  bullets: string[];
}

interface Vocabulary {
  title: string;
  subtitle: string;
  tags: string[];
  slides: SlideText[];
}

/**
 * The demo decks as vocabulary: each deck's title, subtitle and slides (a heading and its bullet
 * items), read from the Markdown the seed uses with markdown-it (the parser the importer uses):
 * the first slide's level-2 heading is the subtitle, every later slide's is a heading, and the
 * items of a slide's bullet lists are its bullets; `---` (a thematic break) ends a slide.
 */
function vocabulary(): Vocabulary[] {
  const markdown = new MarkdownIt();
  return demoDecks
    .filter((deck) => deck.privacy === "public" || deck.privacy === "reusable")
    .map((deck) => {
      const tokens = markdown.parse(deckSources[`./content/decks/${deck.slug}.md`] ?? "", {});
      const slides: SlideText[] = [];
      let subtitle = "";
      let slideIndex = 0;
      let current: SlideText | null = null;
      let inHeading = false;
      let listDepth = 0;
      for (const token of tokens) {
        if (token.type === "hr") {
          slideIndex += 1;
          current = null;
        } else if (token.type === "heading_open") inHeading = token.tag === "h2";
        else if (token.type === "heading_close") inHeading = false;
        else if (token.type === "bullet_list_open") listDepth += 1;
        else if (token.type === "bullet_list_close") listDepth -= 1;
        else if (token.type === "inline" && inHeading) {
          if (slideIndex === 0) subtitle ||= token.content;
          else {
            current = { heading: token.content, bullets: [] };
            slides.push(current);
          }
        } else if (token.type === "inline" && listDepth > 0 && current) current.bullets.push(token.content);
      }
      return {
        title: deck.title,
        subtitle,
        tags: deck.tags,
        slides: slides.filter((slide) => slide.bullets.length > 0),
      };
    })
    .filter((deck) => deck.slides.length > 0);
}

function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (const char of text) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

const pick = <T>(items: readonly T[], r: () => number): T => items[Math.floor(r() * items.length)] as T;

const TITLE_PREFIXES = [
  "Intro to",
  "Notes on",
  "Revisiting",
  "Workshop:",
  "Lessons from",
  "A field guide to",
  "Beyond",
];
const TITLE_SUFFIXES = ["for beginners", "in practice", "for teams", "— part 2", "revisited", "in ten slides", "Q&A"];

/** A slide deck document as the Markdown import makes one: a title slide, then heading + bullets. */
function documentOf(title: string, subtitle: string, slides: SlideText[], schemaVersion: "0" | "2") {
  const text = (id: string, style: string, paragraphs: { text: string; listType: string; size: number }[]) => ({
    id,
    styleClasses: [style],
    paragraphs: paragraphs.map((p) => ({ text: p.text, listType: p.listType, biggestFontSize: p.size })),
  });
  const all = [
    [text("s1-t1", "title", [{ text: title, listType: "NONE", size: 96 }])].concat(
      subtitle ? [text("s1-t2", "subtitle", [{ text: subtitle, listType: "NONE", size: 56 }])] : [],
    ),
    ...slides.map((slide, index) => [
      text(`s${index + 2}-t1`, "subtitle", [{ text: slide.heading, listType: "NONE", size: 56 }]),
      text(
        `s${index + 2}-t2`,
        "body",
        slide.bullets.map((bullet) => ({ text: bullet, listType: "BULLET", size: 36 })),
      ),
    ]),
  ];
  const topics = all.map((texts, index) =>
    slideTopic(`slide-${index + 1}`, 300 + (index % 3) * 1800, 300 + Math.floor(index / 3) * 1200, texts),
  );
  const columns = Math.min(3, topics.length);
  const rows = Math.ceil(topics.length / 3);
  const slidePath = topics.map((topic) => topic.id);
  return {
    format: "podium.presentation",
    version: 2,
    schemaVersion,
    topics: [
      {
        id: "overview",
        x: 0,
        y: 0,
        width: 400 + columns * 1800,
        height: 600 + rows * 1200 - 300,
        rotation: 0,
        background: null,
        texts: [],
        images: [],
        topics,
      },
    ],
    path: schemaVersion === "0" ? ["overview", ...slidePath] : slidePath,
  };
}

export interface BulkDeck {
  oid: string;
  owner: number;
  title: string;
  descriptionHtml: string;
  tags: string[];
  document: string;
  privacy: "public" | "reusable";
  schemaVersion: "0" | "2";
  viewCount: number;
  likes: number;
  lastModified: string;
}

/**
 * Issue 32: the skewed shape a listing must hold in, where `--skewed` asks for it: every deck newer
 * than anything before the run (so every staff pick is older than all of them), no views and no
 * likes anywhere, one tag (SKEWED_TAG) on every other deck, and one owner with every other deck.
 */
export const SKEWED_TAG = "everywhere";

/** The n-th deck of a run: the same on every run with that id (so a second run adds nothing). */
export function bulkDeck(
  runId: string,
  n: number,
  owners: number,
  now: Date,
  words = vocabulary(),
  skewed = false,
): BulkDeck {
  const deck = plainBulkDeck(runId, n, owners, now, words);
  if (!skewed) return deck;
  return {
    ...deck,
    owner: n % 2 === 0 ? 0 : deck.owner,
    tags: n % 2 === 0 ? [...new Set([SKEWED_TAG, ...deck.tags])].slice(0, 10) : deck.tags,
    viewCount: 0,
    likes: 0,
    lastModified: new Date(now.getTime() + n).toISOString(),
  };
}

function plainBulkDeck(runId: string, n: number, owners: number, now: Date, words: Vocabulary[]): BulkDeck {
  const r = seededRandom(hashOf(`${runId}:${n}`));
  const base = pick(words, r);
  const other = pick(words, r);
  const heading = pick(base.slides, r).heading;
  const shape = r();
  const title = (
    shape < 0.3
      ? base.title
      : shape < 0.5
        ? `${base.title}: ${heading}`
        : shape < 0.7
          ? `${pick(TITLE_PREFIXES, r)} ${base.title}`
          : shape < 0.85
            ? `${base.title} ${pick(TITLE_SUFFIXES, r)}`
            : `${heading} (${other.title})`
  ).slice(0, 200);
  const slideCount = 3 + Math.floor(r() * 5);
  const slides: SlideText[] = [];
  for (let k = 0; k < slideCount; k += 1) {
    const from = k === slideCount - 1 ? other : base;
    const slide = pick(from.slides, r);
    slides.push({ heading: slide.heading, bullets: slide.bullets.filter(() => r() < 0.8).slice(0, 4) });
  }
  const sentences = slides.flatMap((slide) => slide.bullets);
  const description = [pick(sentences, r), pick(sentences, r)].filter(Boolean).join(". ");
  const tags = [...new Set([...base.tags.filter(() => r() < 0.85), ...(r() < 0.3 ? [pick(other.tags, r)] : [])])];
  const schemaVersion = r() < 0.85 ? "2" : "0";
  // Pareto tail: most decks have a few dozen views, a few have many thousands.
  const viewCount = Math.min(VIEWS_MAX, Math.floor(VIEWS_SCALE / (1 - r()) ** 1.3));
  const rate = LIKE_RATE.min + (LIKE_RATE.max - LIKE_RATE.min) * r();
  const age = r() ** 2 * AGE_MAX_DAYS * DAY_MS;
  return {
    oid: stableOid(`bulk:${runId}:${n}`),
    owner: Math.floor(r() * owners),
    title,
    descriptionHtml: description ? `<p>${escapeHtml(description)}.</p>` : "",
    tags,
    document: JSON.stringify(documentOf(title, base.subtitle, slides, schemaVersion)),
    privacy: r() < 0.95 ? "public" : "reusable",
    schemaVersion,
    viewCount,
    likes: Math.min(owners, LIKES_MAX, Math.round(viewCount * rate)),
    lastModified: new Date(now.getTime() - age).toISOString(),
  };
}

export interface BulkReport {
  runId: string;
  owners: number;
  presentations: number;
  likes: number;
}

export function bulkOwnerCount(count: number): number {
  return Math.max(BULK_MIN_OWNERS, Math.min(BULK_MAX_OWNERS, Math.ceil(count / DECKS_PER_OWNER)));
}

function checkRunId(runId: string): void {
  if (!BULK_RUN_ID_PATTERN.test(runId))
    throw new Error(`A run id is 1 to 32 lower-case letters, digits or dashes; "${runId}" isn't.`);
}

/** Inserts what is missing of run `runId`'s first `count` decks, batch by batch (each batch whole or not at all). */
export async function seedBulk(
  db: Database,
  options: {
    count: number;
    runId: string;
    now?: Date;
    onProgress?: (done: number) => void;
    /** Decks per statement (smaller where each statement has a short time limit, as in tests). */
    batchSize?: number;
    /** Issue 32: the skewed shape (bulkDeck). */
    skewed?: boolean;
  },
): Promise<BulkReport> {
  const { count, runId } = options;
  checkRunId(runId);
  if (!Number.isInteger(count) || count < 1) throw new Error(`--count takes a whole number above 0, not ${count}.`);
  const now = options.now ?? new Date();
  const ownerCount = bulkOwnerCount(count);
  const ownerIds = await insertOwners(db, runId, ownerCount);
  const words = vocabulary();
  const report: BulkReport = { runId, owners: ownerIds.length, presentations: 0, likes: 0 };
  const batchSize = options.batchSize ?? BULK_BATCH_SIZE;
  for (let start = 0; start < count; start += batchSize) {
    const decks: BulkDeck[] = [];
    for (let n = start; n < Math.min(count, start + batchSize); n += 1)
      decks.push(bulkDeck(runId, n, ownerIds.length, now, words, options.skewed));
    const inserted = await db.transaction((tx) => insertBatch(tx, decks, ownerIds));
    report.presentations += inserted.presentations;
    report.likes += inserted.likes;
    options.onProgress?.(Math.min(count, start + batchSize));
  }
  // Fresh statistics, so the planner knows how common each word is before the first search; and
  // the GIN indexes' pending lists merged (fastupdate keeps up to 4 MB of new entries unsorted,
  // which every search then reads in full: on 100,000 decks a rare word took 4–5 ms instead of
  // 0.6 ms until autovacuum came round).
  if (report.presentations > 0) await db.query("vacuum (analyze) presentations, search_entries, likes, like_counters");
  return report;
}

async function insertOwners(db: Queryable, runId: string, count: number): Promise<string[]> {
  const keys = Array.from({ length: count }, (_, k) => k);
  const oids = keys.map((k) => stableOid(`bulk:${runId}:owner:${k}`));
  await db.query(
    `insert into users (oid, email, username, first_name, last_name, password_hash)
     select oid, email, username, first_name, last_name, null
       from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) as m(oid, email, username, first_name, last_name)
     on conflict do nothing`,
    [
      oids,
      keys.map((k) => `bulk-${runId}-${k}@${OWNER_EMAIL_DOMAIN}`),
      keys.map((k) => `bulk.${runId}.${k}`),
      keys.map((k) => pick(PEOPLE_FIRST_NAMES, seededRandom(hashOf(`first:${runId}:${k}`)))),
      keys.map((k) => pick(PEOPLE_LAST_NAMES, seededRandom(hashOf(`last:${runId}:${k}`)))),
    ],
  );
  const rows = await db.query<{ id: string; oid: string }>(
    "select id::text as id, oid from users where oid = any($1)",
    [oids],
  );
  const idOf = new Map(rows.map((row) => [row.oid, row.id]));
  return oids.map((oid) => idOf.get(oid)).filter((id): id is string => id !== undefined);
}

/** One batch in three statements: the decks, their likes (distinct owners each), the like counters. */
async function insertBatch(tx: Queryable, decks: BulkDeck[], ownerIds: string[]) {
  const inserted = await tx.query<{ id: string }>(
    `insert into presentations
       (oid, owner_id, title, description_html, privacy, schema_version, tags, document, view_count, last_modified, created_at)
     select d.oid, d.owner_id, d.title, d.description_html, d.privacy, d.schema_version,
            case when d.tags = '' then '{}'::text[] else string_to_array(d.tags, ',') end,
            d.document::jsonb, d.view_count, d.last_modified, d.last_modified
       from unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::int[], $10::timestamptz[])
            as d(oid, owner_id, title, description_html, privacy, schema_version, tags, document, view_count, last_modified)
     on conflict (oid) do nothing
     returning id`,
    [
      decks.map((d) => d.oid),
      decks.map((d) => ownerIds[d.owner] ?? ownerIds[0]),
      decks.map((d) => d.title),
      decks.map((d) => d.descriptionHtml),
      decks.map((d) => d.privacy),
      decks.map((d) => d.schemaVersion),
      decks.map((d) => d.tags.join(",")),
      decks.map((d) => d.document),
      decks.map((d) => d.viewCount),
      decks.map((d) => d.lastModified),
    ],
  );
  if (inserted.length === 0) return { presentations: 0, likes: 0 };
  // Deck k's likes come from owners (start + 1 … start + likes) mod the owner count: all distinct.
  const likes = await tx.query<{ n: number }>(
    `with added as (
       insert into likes (user_id, presentation_id, created_at)
       select ($3::bigint[])[1 + ((p.id * 7919 + g) % array_length($3::bigint[], 1))], p.id,
              p.last_modified + (now() - p.last_modified) * ((g % 97) / 97.0)::float8
         from unnest($1::text[], $2::int[]) as d(oid, likes)
         join presentations p on p.oid = d.oid
         cross join lateral generate_series(1, d.likes) as g
        where p.id = any($4::bigint[])
       on conflict do nothing
       returning presentation_id, user_id),
     counted as (
       insert into like_counters (presentation_id, shard, count)
       select presentation_id, (user_id % 16)::smallint, count(*)::int from added group by 1, 2
       on conflict (presentation_id, shard) do update set count = like_counters.count + excluded.count)
     select count(*)::int as n from added`,
    [decks.map((d) => d.oid), decks.map((d) => d.likes), ownerIds, inserted.map((row) => row.id)],
  );
  return { presentations: inserted.length, likes: likes.reduce((sum, row) => sum + Number(row.n ?? 0), 0) };
}

/** Deletes everything run `runId` made: its owners, and with them their decks, likes and counters. */
export async function removeBulk(db: Database, runId: string): Promise<{ owners: number; presentations: number }> {
  checkRunId(runId);
  const pattern = `bulk-${runId}-%@${OWNER_EMAIL_DOMAIN}`;
  return db.transaction(async (tx) => {
    const [counted] = await tx.query<{ presentations: number }>(
      `select count(*)::int as presentations from presentations p join users u on u.id = p.owner_id where u.email like $1`,
      [pattern],
    );
    const owners = await tx.query("delete from users where email like $1 returning id", [pattern]);
    return { owners: owners.length, presentations: counted?.presentations ?? 0 };
  });
}
