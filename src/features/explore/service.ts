import type { Database, Queryable } from "../../db/client";
import { type Card, type CardsShown, keptCards } from "../../lib/card";
import { ownerDisplayName } from "../../lib/owner";
import { type ContentChanges, LISTS_TAG, SHOWCASE_TAG } from "../content-changes";
import {
  countListedPresentations,
  listListedPresentations,
  listPopularPresentations,
  type PresentationSummary,
} from "../presentation/repository";
import { presentationListCard } from "../presentation/service";
import type { TitleIndex } from "../search-suggest/title-index";
import { listVideoCardsBySlugs } from "../sidebar/repository";
import { templateCard, videoCard } from "../sidebar/service";
import { cachedUntilChange } from "../small-caches";
import type { Viewer } from "../viewer";
import type { HeaderAppData } from "./header-data";
import {
  loadWordFrequencies,
  readsTableFirst,
  SEARCH_COUNT_CAP,
  type SearchHit,
  type SearchHitKind,
  type SearchQuery,
  type SearchTotals,
  searchCatalogue,
  type WordFrequencies,
} from "./repository";
import {
  authorSegmentOf,
  excludedTermsOf,
  SEARCH_PREFIX_MIN_LENGTH,
  SEARCH_TERMS,
  type SearchType,
  searchQueriesOf,
  soughtWords,
} from "./search";
import { memoryQueryOf, type SearchMemory, searchInMemory } from "./search-memory";
import { snippetWordsOf } from "./snippet";

/** Results per search page. */
export const SEARCH_PAGE_SIZE = 24;
/**
 * The header's count (spec §2, product brief: the placeholder states the real number), for every
 * page that shows it: counted once and kept until a listed presentation changes (issue 11:
 * `lists`, or `showcase`, which also says the number of listed presentations moved), a minute at
 * most. Counting costs a scan of the listed presentations: 58 ms at 100,000 (issue 15).
 */
export function cachedSearchableCount(db: Queryable, changes: ContentChanges): () => Promise<number> {
  return cachedUntilChange(changes, [LISTS_TAG, SHOWCASE_TAG], () => countListedPresentations(db));
}

/** What the explore and search pages read again and again, kept per app (explore/routes.ts). */
export interface ExploreSources {
  searchableCount(): Promise<number>;
  /**
   * The most watched listed presentations: sorting every listed one by views cost 90 ms at
   * 100,000, so the list is kept until a listed presentation changes, a minute at most (views move
   * without a change being heard).
   */
  popular(): Promise<PresentationSummary[]>;
  /** The newest listed presentations, kept until a listed one changes (issue 32 item 2), a minute at most. */
  recent(): Promise<PresentationSummary[]>;
  /**
   * Issue 32 item 3: the statistics' common words of the slides (readsTableFirst), read again
   * every minute (ANALYZE moves them, no change the feed names does).
   */
  wordFrequencies(): Promise<WordFrequencies>;
  /** Typo tolerance: the known title word closest to a word (itself when known), or null (search-suggest/spelling.ts). */
  closestWord(word: string): Promise<string | null>;
  /** Issue 32 item 3: the search index in memory (null: every search is a statement; PODIUM_SEARCH_INDEX=database). */
  searchMemory: SearchMemory | null;
}

/** How many popular presentations the explore page shows. */
const EXPLORE_POPULAR_COUNT = 8;
/** How many of the newest presentations the explore page shows. */
const EXPLORE_RECENT_COUNT = 8;

export function exploreSources(
  db: Queryable,
  changes: ContentChanges,
  titleIndex: () => Promise<TitleIndex>,
  searchMemory: SearchMemory | null = null,
): ExploreSources {
  return {
    searchMemory,
    searchableCount: cachedSearchableCount(db, changes),
    popular: cachedUntilChange(changes, [LISTS_TAG], () => listPopularPresentations(db, EXPLORE_POPULAR_COUNT)),
    recent: cachedUntilChange(changes, [LISTS_TAG], () => listListedPresentations(db, { limit: EXPLORE_RECENT_COUNT })),
    wordFrequencies: cachedUntilChange(changes, [], () => loadWordFrequencies(db)),
    closestWord: async (word) => (await titleIndex()).closestWord(word),
  };
}

/** Spec §3 "App data for the header", for a page about a presentation (or none). */
export function headerAppData(
  searchableCount: number,
  viewer: Viewer,
  presentation: { oid: string; schemaVersion: "0" | "2" } | null,
  nativeApps: HeaderAppData["nativeApps"] = [],
): HeaderAppData {
  return {
    oid: presentation?.oid ?? null,
    schemaVersion: presentation?.schemaVersion ?? null,
    // Spec §3, R2.8: the segment the person chose before signing up. Anonymous pages are cached
    // (server/page-cache) without a segment in the key, so anonymous visitors count as other.
    authorSegment: authorSegmentOf(viewer?.authorSegment),
    isAuthenticated: viewer !== null,
    viewerName: viewer ? ownerDisplayName(viewer) || viewer.email : null,
    viewerEmail: viewer?.email ?? null,
    searchTerms: SEARCH_TERMS,
    searchableCount,
    nativeApps: viewer ? nativeApps : [],
  };
}

/** Issue 15: what a search page was asked and found, beside its cards. */
export interface SearchFacts {
  type: SearchType;
  tag: string | null;
  /** Found per type, each exact up to SEARCH_COUNT_CAP (a larger number means "more"). */
  totals: SearchTotals & { all: number };
  countCap: number;
  /** No hit holds all the words: every card shown is alike, not exact (typo tolerance; "No exact matches"). */
  similar: boolean;
  /**
   * Issue 28 item 5: how many of the last cards shown are alike, after the exact ones. When a word
   * finds a deck or two, typo tolerance adds alike ones below them, said apart: the exact hits are
   * still reported as found.
   */
  alike: number;
}

export interface ExplorePageData {
  header: HeaderAppData;
  term: string;
  results: Card[] | null;
  total: number;
  page: number;
  pageCount: number;
  popular: Card[];
  recent: Card[];
  search?: SearchFacts;
}
/** Issue 32: the explore and search pages' data as their browser entry gets it: the cards travel once, as markup (KeptCards). */
export type ExploreBootData = Omit<ExplorePageData, "results" | "popular" | "recent"> & {
  results: CardsShown | null;
  popular: CardsShown;
  recent: CardsShown;
};

export function exploreBootData(data: ExplorePageData): ExploreBootData {
  return {
    ...data,
    results: data.results === null ? null : keptCards(data.results),
    popular: keptCards(data.popular),
    recent: keptCards(data.recent),
  };
}

export async function getExplorePage(viewer: Viewer, sources: ExploreSources): Promise<ExplorePageData> {
  const [count, popular, recent] = await Promise.all([sources.searchableCount(), sources.popular(), sources.recent()]);
  return {
    header: headerAppData(count, viewer, null),
    term: "",
    results: null,
    total: 0,
    page: 1,
    pageCount: 1,
    popular: popular.map(presentationListCard),
    recent: recent.map(presentationListCard),
  };
}

/** Typo tolerance steps in when the words find fewer than this many (issue 15 item 3). */
export const SIMILAR_BELOW = 3;
/** Search pages beyond what the count shows aren't offered (totals stop at SEARCH_COUNT_CAP). */
const SEARCH_MAX_PAGE = Math.ceil((SEARCH_COUNT_CAP + 1) / SEARCH_PAGE_SIZE);

const KINDS_OF: Record<SearchType, readonly SearchHitKind[]> = {
  all: ["presentation", "template", "video"],
  presentation: ["presentation"],
  template: ["template"],
  video: ["video"],
};

export interface SearchRequest {
  term: string;
  type: SearchType;
  tag: string | null;
  page: number;
}

export async function getSearchPage(
  db: Database,
  viewer: Viewer,
  request: SearchRequest,
  sources: ExploreSources,
): Promise<ExplorePageData> {
  const { term, type, tag } = request;
  const header = headerAppData(await sources.searchableCount(), viewer, null);
  const queries = searchQueriesOf(term);
  const empty: SearchTotals = { presentation: 0, template: 0, video: 0 };
  const facts = (totals: SearchTotals, alike: number, exact: number): SearchFacts => ({
    type,
    tag,
    totals: { ...totals, all: totals.presentation + totals.template + totals.video },
    countCap: SEARCH_COUNT_CAP,
    similar: alike > 0 && exact === 0,
    alike,
  });
  if (!queries) return { ...noResults(header, term), search: facts(empty, 0, 0) };
  const current = Math.max(1, Math.min(request.page, SEARCH_MAX_PAGE));
  const kinds = KINDS_OF[type];
  const found = await search(db, sources, term, {
    queries,
    snippetWords: snippetWordsOf(term),
    tag,
    kinds,
    limit: SEARCH_PAGE_SIZE,
    offset: (current - 1) * SEARCH_PAGE_SIZE,
  });
  const listed = kinds.reduce((sum, kind) => sum + found.totals[kind], 0);
  let hits = found.hits;
  let total = listed;
  if (listed < SIMILAR_BELOW && current === 1) {
    const alikeHits = await similarHits(db, term, { tag, kinds, limit: SEARCH_PAGE_SIZE - hits.length }, sources);
    const seen = new Set(hits.map((hit) => `${hit.kind}:${hit.key}`));
    const added = alikeHits.filter((hit) => !seen.has(`${hit.kind}:${hit.key}`));
    if (added.length > 0) {
      hits = [...hits, ...added.map((hit) => ({ ...hit, alike: true }))];
      // What was found exactly is what the count says; alike cards only come without it.
      if (listed === 0) total = hits.length;
    }
  }
  // (A video card whose row is gone is left out: the alike cards are counted as shown.)
  const { cards, alike } = await cardsOf(db, hits);
  return {
    header,
    term,
    results: cards,
    total: Math.min(total, SEARCH_COUNT_CAP + 1),
    page: current,
    pageCount: Math.max(1, Math.min(SEARCH_MAX_PAGE, Math.ceil(Math.min(total, SEARCH_COUNT_CAP) / SEARCH_PAGE_SIZE))),
    popular: [],
    recent: [],
    search: facts(found.totals, alike, listed),
  };
}

/**
 * Issue 15 item 3, typo tolerance: when the words find (almost) nothing, each misspelt word is
 * replaced by the closest word of the listed titles ("sourdoguh" → "sourdough") and the search runs
 * again; when they still aren't found together, any of the words of 4 letters or more will do.
 */
async function similarHits(
  db: Queryable,
  term: string,
  options: { tag: string | null; kinds: readonly SearchHitKind[]; limit: number },
  sources: ExploreSources,
): Promise<SearchHit[]> {
  const words = soughtWords(term);
  if (words.length === 0 || options.limit <= 0) return [];
  const corrected = await Promise.all(words.map(async (word) => (await sources.closestWord(word)) ?? word));
  // Any of the words: only those of 4 letters or more ("the" alone would find nearly everything),
  // as typed and as corrected (the titles' words are all the correction knows: "pressure", in no
  // title but in slides, would otherwise only stand for "press").
  const telling = [...new Set([...words, ...corrected])].filter(
    (word) => Array.from(word).length >= SEARCH_PREFIX_MIN_LENGTH,
  );
  // What the visitor excluded stays excluded.
  const excluded = excludedTermsOf(term);
  const tries = [
    corrected.some((word, index) => word !== words[index]) ? corrected.join(" ") : null,
    telling.length > 1 ? telling.join(" OR ") : null,
  ].map((alternative) => (alternative && excluded ? `${alternative} ${excluded}` : alternative));
  for (const alternative of tries) {
    const queries = alternative ? searchQueriesOf(alternative) : null;
    if (!alternative || !queries) continue;
    const found = await search(db, sources, alternative, {
      queries,
      snippetWords: snippetWordsOf(alternative),
      tag: options.tag,
      kinds: options.kinds,
      limit: options.limit,
      offset: 0,
    });
    if (found.hits.length > 0) return found.hits;
  }
  return [];
}

/**
 * A search answered by the index in memory when it holds the answer (search-memory.ts), else by
 * the statement (repository.ts), which reads the table first for a word on nearly every deck.
 */
async function search(
  db: Queryable,
  sources: ExploreSources,
  term: string,
  query: SearchQuery,
): Promise<{ hits: SearchHit[]; totals: SearchTotals }> {
  if (sources.searchMemory) {
    const answered = await searchInMemory(sources.searchMemory, { ...query, memory: memoryQueryOf(term) });
    if (answered) return answered;
  }
  return searchCatalogue(db, {
    ...query,
    readTableFirst: readsTableFirst(query.queries.text, await sources.wordFrequencies()),
  });
}

function noResults(header: HeaderAppData, term: string): ExplorePageData {
  return { header, term, results: [], total: 0, page: 1, pageCount: 1, popular: [], recent: [] };
}

/**
 * A presentation's or template's card, made once per summary: the hits' summaries are kept with
 * their rows (kept-hit-rows.ts) and shown page after page; a summary read again is a new object.
 */
const templateCards = new WeakMap<PresentationSummary, Card>();
const presentationCards = new WeakMap<PresentationSummary, Card>();
function summaryCard(kind: SearchHitKind, summary: PresentationSummary): Card {
  const made = kind === "template" ? templateCards : presentationCards;
  let card = made.get(summary);
  if (!card) {
    card = kind === "template" ? templateCard(summary) : presentationListCard(summary);
    made.set(summary, card);
  }
  return card;
}

/** The page's hits as cards, in the hits' order, each with its highlighted title and snippet. */
async function cardsOf(
  db: Queryable,
  hits: (SearchHit & { alike?: boolean })[],
): Promise<{ cards: Card[]; alike: number }> {
  // A presentation's or template's summary comes with its hit; only videos are read here.
  const videoSlugs = hits.filter((hit) => hit.kind === "video").map((hit) => hit.key);
  const bySlug = new Map((await listVideoCardsBySlugs(db, videoSlugs)).map((row) => [row.slug, row]));
  const cards: Card[] = [];
  let alike = 0;
  for (const hit of hits) {
    const marked = { title: hit.markedTitle, snippet: hit.markedSnippet };
    const before = cards.length;
    if (hit.kind === "video") {
      const row = bySlug.get(hit.key);
      if (row) cards.push({ ...videoCard(row), marked });
    } else if (hit.summary) {
      cards.push({ ...summaryCard(hit.kind, hit.summary), marked });
    }
    if (hit.alike && cards.length > before) alike += 1;
  }
  return { cards, alike };
}
