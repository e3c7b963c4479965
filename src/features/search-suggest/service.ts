import { createHash, randomBytes } from "node:crypto";
import type { Queryable } from "../../db/client";
import { canonicalPathOf } from "../presentation/service";
import { countSearchTerm, listSuggestibleTitles, pruneSearchTermHours, trendingTerms } from "./repository";
import {
  isCountableTerm,
  normaliseTerm,
  SUGGEST_TERM_LIMIT,
  SUGGEST_TITLE_LIMIT,
  type SuggestAnswer,
  TRENDING_GUARD_MAX_ENTRIES,
  TRENDING_HALF_LIFE_HOURS,
  TRENDING_LIST_SIZE,
  TRENDING_MIN_SEARCHES,
  TRENDING_REFRESH_MS,
  TRENDING_WINDOW_HOURS,
  termMatches,
  typedWordsOf,
} from "./rules";
import { buildTitleIndexInTurns, SUGGEST_INDEX_MAX_TITLES, type TitleIndex } from "./title-index";

const HOUR_MS = 3_600_000;
const hourOf = (time: Date) => new Date(Math.floor(time.getTime() / HOUR_MS) * HOUR_MS);

/**
 * Issue 15 item 5: trending searches. Searches that found something are counted per normalised
 * term and hour in the database (nothing about who searched); an address counts once per term per
 * hour (kept in this process's memory only, as a salted hash, and forgotten when the hour turns).
 * The list itself is computed with time decay into memory and recomputed on a timer, which also
 * prunes hours past the window. Every process keeps its own list; all count into one table.
 */
export class TrendingSearches {
  private terms: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  private refreshing: Promise<void> | null = null;
  private guardHour = 0;
  private readonly guard = new Set<string>();
  /** Salts the guard's hashes so the set never holds an address as such. */
  private readonly salt = randomBytes(16);

  constructor(
    private readonly db: Queryable,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The cached list, best first. */
  current(): readonly string[] {
    return this.terms;
  }

  /**
   * Counts a search that had results. Returns whether it counted: not when the term has no letter
   * or digit, when this address already searched it this hour, or when the guard is full.
   */
  async record(text: string, address: string): Promise<boolean> {
    const term = normaliseTerm(text);
    if (!isCountableTerm(term)) return false;
    const hour = hourOf(this.now());
    if (hour.getTime() !== this.guardHour) {
      this.guard.clear();
      this.guardHour = hour.getTime();
    }
    const key = createHash("sha256").update(this.salt).update(address).update("\0").update(term).digest("base64url");
    if (this.guard.has(key) || this.guard.size >= TRENDING_GUARD_MAX_ENTRIES) return false;
    this.guard.add(key);
    await countSearchTerm(this.db, term, hour);
    return true;
  }

  /** Recomputes the list (and prunes old hours); concurrent calls share one run. */
  refresh(): Promise<void> {
    this.refreshing ??= this.recompute().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async recompute(): Promise<void> {
    const now = this.now();
    await pruneSearchTermHours(this.db, new Date(hourOf(now).getTime() - TRENDING_WINDOW_HOURS * HOUR_MS));
    const rows = await trendingTerms(this.db, {
      now,
      halfLifeHours: TRENDING_HALF_LIFE_HOURS,
      windowHours: TRENDING_WINDOW_HOURS,
      minSearches: TRENDING_MIN_SEARCHES,
      limit: TRENDING_LIST_SIZE,
    });
    this.terms = rows.map((row) => row.term);
  }

  /**
   * Computes the list now (not waited for: start-up doesn't hang on it) and then every
   * TRENDING_REFRESH_MS; a failed refresh keeps the last list.
   */
  start(): void {
    void this.refresh().catch(() => {});
    this.timer = setInterval(() => void this.refresh().catch(() => {}), TRENDING_REFRESH_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.refreshing?.catch(() => {});
  }
}

/** Issue 15 item 4: the title index, read from the database (most watched first). */
export async function loadTitleIndex(db: Queryable): Promise<TitleIndex> {
  return buildTitleIndexInTurns(await listSuggestibleTitles(db, SUGGEST_INDEX_MAX_TITLES));
}

/** Issue 15 item 4: titles and trending terms for what is typed so far (q already checked). */
export async function suggest(
  titleIndex: () => Promise<TitleIndex>,
  trending: TrendingSearches,
  q: string,
): Promise<SuggestAnswer> {
  const query = normaliseTerm(q);
  const terms = trending
    .current()
    .filter((term) => termMatches(term, query))
    .slice(0, SUGGEST_TERM_LIMIT);
  if (!isCountableTerm(query)) return { query, titles: [], terms };
  const titles = (await titleIndex()).suggest(query, typedWordsOf(query), SUGGEST_TITLE_LIMIT);
  return {
    query,
    titles: titles.map((row) => ({ oid: row.oid, title: row.title, url: canonicalPathOf(row) })),
    terms,
  };
}
