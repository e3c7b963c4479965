import type { Queryable } from "../../db/client";
import { type Card, type CardsShown, keptCards } from "../../lib/card";
import { type ContentChanges, LISTS_TAG } from "../content-changes";
import { listListedPresentations, type PresentationSummary } from "../presentation/repository";
import { presentationListCard } from "../presentation/service";
import { cachedUntilChange } from "../small-caches";

/** How many presentations the home page lists. */
export const HOME_CARD_COUNT = 24;

export interface HomePageData {
  presentationCount: number;
  recent: Card[];
}

/** Issue 32: the home page's data as its browser entry gets it: the cards travel once, as markup (KeptCards). */
export type HomeBootData = Omit<HomePageData, "recent"> & { recent: CardsShown };

export function homeBootData(data: HomePageData): HomeBootData {
  return { ...data, recent: keptCards(data.recent) };
}

/** What the home page reads, kept per app (issue 32 item 2: no statement per render with the page cache off). */
export interface HomeSources {
  /** The app's kept count of listed presentations (explore/service.ts cachedSearchableCount). */
  listedCount(): Promise<number>;
  /** The newest listed presentations, kept until a listed one changes (`lists`), a minute at most. */
  newest(): Promise<PresentationSummary[]>;
}

export function homeSources(db: Queryable, changes: ContentChanges, listedCount: () => Promise<number>): HomeSources {
  return {
    listedCount,
    newest: cachedUntilChange(changes, [LISTS_TAG], () => listListedPresentations(db, { limit: HOME_CARD_COUNT })),
  };
}

export async function getHomePage(sources: HomeSources): Promise<HomePageData> {
  const [presentationCount, recent] = await Promise.all([sources.listedCount(), sources.newest()]);
  return { presentationCount, recent: recent.map(presentationListCard) };
}
