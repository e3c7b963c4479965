import type { Queryable } from "../../db/client";
import type { Card } from "../../lib/card";
import { listListedPresentations } from "../presentation/repository";
import { presentationListCard } from "../presentation/service";

/** How many presentations the home page lists. */
export const HOME_CARD_COUNT = 24;

export interface HomePageData {
  presentationCount: number;
  recent: Card[];
}

/** `listedCount`: the app's kept count of listed presentations (explore/service.ts cachedSearchableCount). */
export async function getHomePage(db: Queryable, listedCount: () => Promise<number>): Promise<HomePageData> {
  const [presentationCount, recent] = await Promise.all([
    listedCount(),
    listListedPresentations(db, { limit: HOME_CARD_COUNT }),
  ]);
  return { presentationCount, recent: recent.map(presentationListCard) };
}
