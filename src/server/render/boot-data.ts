import type { ClientEntry } from "../../client/entries";
import { exploreBootData } from "../../features/explore/service";
import { homeBootData } from "../../features/home/service";
import { pageWithoutTranscriptBootData, presentationBootData } from "../../features/presentation/page-data";
import { readingBootData } from "../../features/view-page/reading-data";

/**
 * Issue 11: what a page kind's browser entry is sent of its page data, when it needs less than the
 * server rendered from (the rest travels once, as markup). Each function takes the data of the pages
 * that link its entry: the view, embed and private view pages all carry `PresentationPageData`.
 */
const BOOT_DATA: { [Entry in ClientEntry]?: (data: never) => unknown } = {
  presentation: presentationBootData,
  embed: pageWithoutTranscriptBootData,
  view: pageWithoutTranscriptBootData,
  reading: readingBootData,
  home: homeBootData,
  explore: exploreBootData,
};

/** The page data as the page's boot JSON carries it. */
export function bootDataOf<Data>(entry: ClientEntry, data: Data): unknown {
  const project = BOOT_DATA[entry] as ((data: Data) => unknown) | undefined;
  return project ? project(data) : data;
}
