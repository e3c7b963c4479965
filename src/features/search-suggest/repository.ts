import type { Queryable } from "../../db/client";

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
const PREFIX_QUERY = `(select to_tsquery('simple', string_agg(quote_literal(w.lexeme) || ':*', ' & '))
    from (select lexeme from unnest(to_tsvector('simple', $1::text)) limit $2::int) w)`;

export interface SuggestedTitle {
  oid: string;
  title: string;
}

/**
 * Listed titles whose words start with the typed words: titles that start with the text first,
 * then the most watched. Two bounded steps: the `window` most recently changed listed
 * presentations (a walk of presentations_listed_idx), and only when fewer than `limit` of them
 * match, every match through the title-word index (then they are few, or the text is common
 * among the most recent, which the first step answers), ranked.
 */
export async function suggestTitles(
  db: Queryable,
  typed: string,
  options: { limit: number; maxWords: number; window: number },
): Promise<SuggestedTitle[]> {
  const startsWith = `${typed.replaceAll("\\", "\\\\").replaceAll("%", "\\%").replaceAll("_", "\\_")}%`;
  const recent = await db.query<SuggestedTitle>(
    `select p.oid, p.title
       from (select p.oid, p.title, p.title_words, p.view_count, p.id from presentations p
              where ${LISTED} order by p.last_modified desc limit $4::int) p
      where p.title_words @@ ${PREFIX_QUERY}
      order by lower(p.title) like $3::text desc, p.view_count desc, p.id desc
      limit $5::int`,
    [typed, options.maxWords, startsWith, options.window, options.limit],
  );
  if (recent.length >= options.limit) return recent;
  return db.query<SuggestedTitle>(
    `select p.oid, p.title
       from presentations p
      where ${LISTED} and p.title_words @@ ${PREFIX_QUERY}
      order by lower(p.title) like $3::text desc, p.view_count desc, p.id desc
      limit $4::int`,
    [typed, options.maxWords, startsWith, options.limit],
  );
}

/** Counts one search of a normalised term in its hour (an upsert: one row per term and hour). */
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
