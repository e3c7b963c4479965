import type { Queryable } from "../../db/client";
import { MARK_END, MARK_START } from "../../lib/card";
import { PRESENTATION_SUMMARY_JSON, type PresentationSummary, summaryFromJson } from "../presentation/repository";
import { markedSnippet, markedWords, type SnippetWords } from "./snippet";

/**
 * Issue 15, items 2 and 3: the search query, whose cost doesn't grow with the catalogue. Every
 * count and every candidate set stops at a LIMIT taken from the GIN indexes (migration 0013), over
 * search_entries (migration 0028: a narrow row per listed presentation, so 1,001 candidates read a
 * few dozen heap pages, not the ~850 of the presentations themselves); ranking (ts_rank) runs over
 * that bounded set, and highlighting over the page shown (snippet.ts, for titles and snippets alike).
 */

/** Totals are exact up to 1,000, then "1,000+" (issue 15 item 2): counting stops at one more. */
export const SEARCH_COUNT_CAP = 1_000;
/** Index hits read per search at most, ranked afterwards (issue 15 item 2). */
export const CANDIDATE_LIMIT = SEARCH_COUNT_CAP + 1;
/** Title and tag hits ranked when the words alone already fill the candidates. */
export const TITLE_CANDIDATE_LIMIT = 200;

export type SearchHitKind = "presentation" | "template" | "video";

export interface SearchHit {
  kind: SearchHitKind;
  /** The presentation's id, or the video card's slug. */
  key: string;
  /** The title with matched words between MARK_START and MARK_END. */
  markedTitle: string;
  /** A few words around the matches in the description or slide text (presentations, templates). */
  markedSnippet: string;
  /** What the card of a presentation or template shows (null for a video), read with the hit. */
  summary: PresentationSummary | null;
}

/** A hit as the query returns it: its title, and the text its snippet is drawn from (a video's subtitle as it is). */
export type FoundHit = Omit<SearchHit, "markedTitle" | "markedSnippet" | "summary"> & {
  title: string;
  snippetText: string;
  summary: Parameters<typeof summaryFromJson>[0] | null;
};

export interface SearchTotals {
  /** Listed presentations found, SEARCH_COUNT_CAP + 1 meaning "more than the cap". */
  presentation: number;
  template: number;
  video: number;
}

export interface SearchQuery {
  /** to_tsquery('simple', …) texts, built by searchQueriesOf (every operand quoted). */
  queries: { titles: string; text: string; exclusions: string | null };
  /** What the hits' snippets mark (snippet.ts). */
  snippetWords: SnippetWords;
  tag: string | null;
  kinds: readonly SearchHitKind[];
  limit: number;
  offset: number;
  /**
   * Issue 32 item 3: the word is on nearly every deck (readsTableFirst), so its candidates are
   * read off the table rather than from its whole posting list. Else (and by default) the index.
   */
  readTableFirst?: boolean;
}

/** What the statistics (pg_stats, kept by ANALYZE) say of the listed decks' words (search_entries): each common lexeme's share of the decks, and how many decks there are. */
export interface WordFrequencies {
  shares: ReadonlyMap<string, number>;
  decks: number;
}

/**
 * A row read off the table costs about this many posting entries read from the index: its stored
 * search_vector is read out of line (TOAST) to test the word. Measured on search_entries at 100,000
 * decks (migration 0028; 27 entries to a heap page), each form forced in turn: 2.4–2.9 µs a row
 * ("the": 1,009 rows, 2.5 ms; "over", on 7 % of the decks: 6,902 rows, 16.9 ms) against 0.08–0.13 µs
 * an entry ("the": 99,343 entries, 8.2 ms; "first", on 40 %: 39,547, 5.3 ms). On presentations, whose
 * rows are five to a page, a row cost about 80 entries.
 */
const ROW_READ_COST_IN_ENTRIES = 25;

/**
 * Issue 32 item 3: whether a search's candidates are cheaper read off the table than from the
 * index. A GIN index is only read as a bitmap, built from the word's whole posting list (share ×
 * decks entries) before any LIMIT; reading the table finds CANDIDATE_LIMIT hits in about
 * CANDIDATE_LIMIT ÷ share rows. Only for one plain word the statistics know (at 100,000 decks: on
 * half the decks or more, as "the"); anything else reads the index as before.
 */
export function readsTableFirst(text: string, frequencies: WordFrequencies): boolean {
  const word = /^'([^'\\]+)'$/.exec(text)?.[1];
  const share = word === undefined ? undefined : frequencies.shares.get(word);
  if (!share) return false;
  return (CANDIDATE_LIMIT / share) * ROW_READ_COST_IN_ENTRIES < share * frequencies.decks;
}

/** The statistics' common words of the slides (none before the table was first analysed). */
export async function loadWordFrequencies(db: Queryable): Promise<WordFrequencies> {
  const rows = await db.query<{ words: string[] | null; shares: number[] | null; decks: number | string | null }>(
    `select s.most_common_elems::text::text[] as words, s.most_common_elem_freqs::float8[] as shares,
            (select greatest(c.reltuples, 0)::float8 from pg_class c where c.oid = 'search_entries'::regclass) as decks
       from (select 1) one
       left join pg_stats s on s.schemaname = current_schema() and s.tablename = 'search_entries' and s.attname = 'search_vector'`,
  );
  const row = rows[0];
  const words = row?.words ?? [];
  const shares = row?.shares ?? [];
  // most_common_elem_freqs holds one share per word, then the least, the most and the nulls' share.
  return { shares: new Map(words.map((word, i) => [word, shares[i] ?? 0])), decks: Number(row?.decks ?? 0) };
}

/** A tag filter (asked.tag: $2) on the rows of `alias`. */
const tagged = (alias: string) => `(asked.tag is null or ${alias}.tags @> array[asked.tag])`;
/** A text with the highlight markers taken out (translate() in SQL cost 1.1 ms a page for the snippets on PGlite). */
const unmarkedText = (text: string) =>
  text.includes(MARK_START) || text.includes(MARK_END)
    ? text.replaceAll(MARK_START, "").replaceAll(MARK_END, "")
    : text;

/** How a candidate ranks (issue 15 item 2): where the words are, title then tags (the small title_vector). */
const rank = (alias: string) => `ts_rank('{0, 0, 0.4, 1}', ${alias}.title_vector, q.q)`;
/** A title hit holds none of the excluded words anywhere (asked.excluded: $7, the negated words, `!'word'`). */
const notExcluded = (alias: string) => `(asked.excluded is null or ${alias}.search_vector @@ asked.excluded)`;

/**
 * One round trip: the three totals (each counted over a LIMIT), and the page of hits, ranked
 * among the bounded candidates by where the words are (title, then tags), then views, then id, so
 * pages never overlap or skip. Each candidate's rank is computed in the index scan that found it
 * (the row is at hand there), so nothing is looked up twice.
 * Candidates: whole words anywhere ($6 on search_vector), and words as prefixes in titles and tags
 * ($1 on title_vector; issue 15 item 2: prefixes over every slide's words cost four times as
 * much), a title hit holding none of the excluded words anywhere ($7). A presentation found both
 * ways is the same row in both and counts once. Presentations and templates come from
 * presentations (templates by their own small index: template_slug), videos from the few video
 * cards.
 */
/**
 * How the candidates' words are named. Through the `words` CTE the planner doesn't see the word and
 * reads the GIN index (a bitmap of the word's posting list); written out, it sees the word's
 * frequency and, for a word on nearly every deck, reads the table until it has the candidates.
 * The titles' words likewise: through `q` in the index's form, written out in the table's form
 * (where a common word may be on most titles too, read in the row).
 *
 * Every other value comes through `asked` (a materialised CTE the planner can't see into), so the
 * index's form has one plan whatever is searched: after its first five runs on a connection,
 * PostgreSQL keeps that generic plan instead of planning the statement anew each time. Planning it
 * per call was a third of the database's CPU per search (200 words at 100,000 decks, one backend:
 * 6.2–6.7 ms a search planned each time, 4.1–4.3 ms with the plan kept).
 */
const WORDS_CONDITION = (tableFirst: boolean) => (tableFirst ? `to_tsquery('simple', $6)` : "words.q");
const TITLES_CONDITION = (tableFirst: boolean) => (tableFirst ? `to_tsquery('simple', $1)` : "q.q");

const searchSql = (tableFirst: boolean) => `
with q as (select to_tsquery('simple', $1) as q),
words as (select to_tsquery('simple', $6) as q),
asked as materialized (
  select $2::text as tag, $3::text[] as kinds, $4::int as lim, $5::int as off,
         to_tsquery('simple', $7::text) as excluded
),
matched as materialized (
  select e.id, ${rank("e")} as rank, e.view_count
    from search_entries e, q, asked${tableFirst ? "" : ", words"}
   where e.search_vector @@ ${WORDS_CONDITION(tableFirst)} and ${tagged("e")}
   limit ${CANDIDATE_LIMIT}
),
titled as materialized (
  select e.id, ${rank("e")} as rank, e.view_count
    from search_entries e, q, asked
   where e.title_vector @@ ${TITLES_CONDITION(tableFirst)} and ${tagged("e")} and ${notExcluded("e")}
   -- Words found past the cap already make the total "1,000+": the title hits only join the ranking.
   limit (select case when count(*) = ${CANDIDATE_LIMIT} then ${TITLE_CANDIDATE_LIMIT} else ${CANDIDATE_LIMIT} end from matched)
),
found as materialized (select * from matched union select * from titled),
templates as materialized (
  select p.id, ${rank("p")} as rank, p.view_count
    from presentations p, q, words, asked
   where p.template_slug is not null and not p.hidden and ${tagged("p")}
     and (p.search_vector @@ words.q or (p.title_vector @@ q.q and ${notExcluded("p")}))
),
videos as materialized (
  select v.slug, v.position, ts_rank(setweight(to_tsvector('simple', v.title), 'A') || to_tsvector('simple', v.sub_title), q.q) as rank
    from video_cards v, q, asked
   where to_tsvector('simple', v.title || ' ' || v.sub_title) @@ q.q and asked.tag is null
),
hits as (
  select 'presentation' as kind, id, null::text as slug, rank, view_count, id as tie from found, asked where 'presentation' = any(asked.kinds)
  union all
  select 'template', id, null::text, rank, view_count, id from templates, asked where 'template' = any(asked.kinds)
  union all
  select 'video', null::bigint, slug, rank, 0, -position from videos, asked where 'video' = any(asked.kinds)
),
page as (
  select * from hits order by rank desc, view_count desc, kind, tie desc
   limit (select lim from asked) offset (select off from asked)
)
select (select count(*) from found)::int as presentation,
       (select count(*) from templates)::int as template,
       (select count(*) from videos)::int as video,
       coalesce((
         select json_agg(json_build_object(
                  'kind', page.kind, 'key', coalesce(page.id::text, page.slug),
                  'title', coalesce(p.title, v.title),
                  'summary', case when page.id is null then null else ${PRESENTATION_SUMMARY_JSON} end,
                  'snippetText', coalesce(p.snippet_text, v.sub_title)
                ) order by page.rank desc, page.view_count desc, page.kind, page.tie desc)
           from page
           left join presentations p on p.id = page.id
           left join users u on u.id = p.owner_id
           left join video_cards v on v.slug = page.slug, q
       ), '[]'::json) as hits`;
/** The two forms of the statement, the index's (default) and the table's first (readsTableFirst). */
const SEARCH_SQL = { index: searchSql(false), table: searchSql(true) };

export async function searchCatalogue(
  db: Queryable,
  query: SearchQuery,
): Promise<{ hits: SearchHit[]; totals: SearchTotals }> {
  const sql = query.readTableFirst ? SEARCH_SQL.table : SEARCH_SQL.index;
  const rows = await db.query<SearchTotals & { hits: FoundHit[] | string }>(sql, [
    query.queries.titles,
    query.tag,
    query.kinds,
    query.limit,
    query.offset,
    query.queries.text,
    query.queries.exclusions,
  ]);
  const row = rows[0];
  if (!row) return { hits: [], totals: { presentation: 0, template: 0, video: 0 } };
  const found = typeof row.hits === "string" ? (JSON.parse(row.hits) as FoundHit[]) : row.hits;
  return {
    hits: toSearchHits(found, query.snippetWords),
    totals: { presentation: row.presentation, template: row.template, video: row.video },
  };
}

/**
 * A hit's texts ready to be marked: the marker characters of the text itself taken out (so only the
 * marks made for the search remain) and the summary read back; kept-hit-rows.ts keeps them so.
 */
export interface HitText {
  kind: SearchHitKind;
  key: string;
  title: string;
  snippetText: string;
  summary: PresentationSummary | null;
}

export function hitTextOf(found: FoundHit): HitText {
  return {
    kind: found.kind,
    key: found.key,
    title: unmarkedText(found.title),
    snippetText: unmarkedText(found.snippetText),
    summary: found.summary ? summaryFromJson(found.summary) : null,
  };
}

/** The page's hits, their words marked for the cards (a video's subtitle is shown as it is). */
export function markedHits(texts: readonly HitText[], snippetWords: SnippetWords): SearchHit[] {
  return texts.map((text) => ({
    kind: text.kind,
    key: text.key,
    markedTitle: markedWords(text.title, snippetWords),
    markedSnippet: text.kind === "video" ? text.snippetText : markedSnippet(text.snippetText, snippetWords),
    summary: text.summary,
  }));
}

/** The page's hits as the query read them, marked for the cards. */
export function toSearchHits(found: readonly FoundHit[], snippetWords: SnippetWords): SearchHit[] {
  return markedHits(found.map(hitTextOf), snippetWords);
}
