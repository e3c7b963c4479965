import type { Queryable } from "../../db/client";
import type { Card } from "../../lib/card";
import { countListedPresentations, listListedPresentations } from "../presentation/repository";
import { presentationListCard } from "../presentation/service";

/** How many presentations the home page lists. */
export const HOME_CARD_COUNT = 24;

export interface HomePageData {
  presentationCount: number;
  recent: Card[];
}

export async function getHomePage(db: Queryable): Promise<HomePageData> {
  const [presentationCount, recent] = await Promise.all([
    countListedPresentations(db),
    listListedPresentations(db, { limit: HOME_CARD_COUNT }),
  ]);
  return { presentationCount, recent: recent.map(presentationListCard) };
}
