import type { Queryable } from "../../db/client";
import type { IndexedTitle } from "./title-index";

/**
 * Issue 15 items 4 and 5: the SQL of suggestions and trending searches. What may be suggested is
 * the same rule as every listing (presentation/repository LISTED); migration 0014's indexes are
 * partial on exactly this condition.
 */
const LISTED = `p.privacy in ('public', 'reusable') and not p.hidden and p.template_slug is null`;

/**
 * The typed text as a prefix tsquery over its words, split by PostgreSQL's own parser (the same
 * one that splits the titles): "Sourd bas" → 'sourd':* & 'bas':*. Null when there is no word.
 */
/**
 * Issue 15 item 4: the titles suggestions come from (title-index.ts): the `limit` most watched
 * listed presentations, with their title words as PostgreSQL's 'simple' parser reads them.
 */
export async function listSuggestibleTitles(db: Queryable, limit: number): Promise<IndexedTitle[]> {
  return db.query<IndexedTitle>(
    `select p.oid, p.title, tsvector_to_array(p.title_words) as words
       from presentations p
      where ${LISTED}
      order by p.view_count desc, p.id desc
      limit $1::int`,
    [limit],
  );
}

export async function countSearchTerm(db: Queryable, term: string, hour: Date): Promise<void> {
  await db.query(
    `insert into search_term_hours (hour, term) values ($1, $2)
     on conflict (hour, term) do update set searches = search_term_hours.searches + 1`,
    [hour, term],
  );
}

/**
 * The trending terms at `now`: each hour's searches weigh 0.5^(age in hours / half-life), summed
 * per term over the window; terms with fewer than `minSearches` searches in the window don't trend.
 */
export async function trendingTerms(
  db: Queryable,
  options: { now: Date; halfLifeHours: number; windowHours: number; minSearches: number; limit: number },
): Promise<{ term: string; score: number }[]> {
  return db.query<{ term: string; score: number }>(
    `select term,
            sum(searches * power(0.5, extract(epoch from ($1::timestamptz - hour)) / 3600.0 / $2::float8))::float8 as score
       from search_term_hours
      where hour > $1::timestamptz - make_interval(hours => $3::int) and hour <= $1::timestamptz
      group by term
     having sum(searches) >= $4
      order by score desc, term
      limit $5::int`,
    [options.now, options.halfLifeHours, options.windowHours, options.minSearches, options.limit],
  );
}

/** Drops hourly buckets older than `before`; returns how many. */
export async function pruneSearchTermHours(db: Queryable, before: Date): Promise<number> {
  const rows = await db.query("delete from search_term_hours where hour < $1 returning 1", [before]);
  return rows.length;
}
