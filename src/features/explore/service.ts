import type { Queryable } from "../../db/client";
import type { Card } from "../../lib/card";
import { ownerDisplayName } from "../../lib/owner";
import { type ContentChanges, LISTS_TAG, SHOWCASE_TAG } from "../content-changes";
import {
  countListedPresentations,
  listListedPresentations,
  listPopularPresentations,
  searchListedPresentations,
} from "../presentation/repository";
import { presentationListCard } from "../presentation/service";
import { cachedUntilChange } from "../small-caches";
import type { Viewer } from "../viewer";
import type { HeaderAppData } from "./header-data";
import { authorSegmentOf, SEARCH_TERMS, tsqueryOf } from "./search";

/** Results per search page. */
export const SEARCH_PAGE_SIZE = 24;
/** The placeholder states the real number (spec §2, product brief): counted on an index. */
const searchableCount = (db: Queryable) => countListedPresentations(db);

/**
 * The header's count for pages that render often (the view page): counted once and kept until a
 * listed presentation changes (issue 11: `lists`, or `showcase`, which also says the number of
 * listed presentations moved), a minute at most.
 */
export function cachedSearchableCount(db: Queryable, changes: ContentChanges): () => Promise<number> {
  return cachedUntilChange(changes, [LISTS_TAG, SHOWCASE_TAG], () => searchableCount(db));
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

export interface ExplorePageData {
  header: HeaderAppData;
  term: string;
  results: Card[] | null;
  total: number;
  page: number;
  pageCount: number;
  popular: Card[];
  recent: Card[];
}

export async function getExplorePage(db: Queryable, viewer: Viewer): Promise<ExplorePageData> {
  const [count, popular, recent] = await Promise.all([
    searchableCount(db),
    listPopularPresentations(db, 8),
    listListedPresentations(db, { limit: 8 }),
  ]);
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

export async function getSearchPage(
  db: Queryable,
  viewer: Viewer,
  term: string,
  page: number,
): Promise<ExplorePageData> {
  const header = headerAppData(await searchableCount(db), viewer, null);
  const query = tsqueryOf(term);
  if (!query) return { header, term, results: [], total: 0, page: 1, pageCount: 1, popular: [], recent: [] };
  const current = Math.max(1, Math.min(page, 1000));
  const found = await searchListedPresentations(db, query, {
    limit: SEARCH_PAGE_SIZE,
    offset: (current - 1) * SEARCH_PAGE_SIZE,
  });
  return {
    header,
    term,
    results: found.rows.map(presentationListCard),
    total: found.total,
    page: current,
    pageCount: Math.max(1, Math.ceil(found.total / SEARCH_PAGE_SIZE)),
    popular: [],
    recent: [],
  };
}
