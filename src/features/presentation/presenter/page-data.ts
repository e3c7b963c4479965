/** The presenter view's page data: just enough to fetch the document and name the deck. */
export interface PresenterPageData {
  /** Names the BroadcastChannel shared with the audience's player. */
  oid: string;
  title: string;
  /** The same document.json the player reads (public route or view link). */
  documentUrl: string;
  /** Steps on the path when the page was rendered (the document's own path wins once loaded). */
  stepCount: number;
}
