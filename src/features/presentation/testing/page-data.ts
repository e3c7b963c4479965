import type { PresentationPageData } from "../page-data";

/** The id of the deck of viewPageData. */
export const TEST_OID = "abcdefghijkl";

/**
 * A public view page's data, as the server hands it to the page (the component tests of the view
 * page and the private view page start from it; issue 31: each wrote it out).
 */
export function viewPageData(overrides: Partial<PresentationPageData> = {}): PresentationPageData {
  return {
    oid: TEST_OID,
    title: "Sourdough basics",
    description: "<p>Bread.</p>",
    owner: {
      oid: "ownerownerow",
      username: "ada",
      firstName: "Ada",
      lastName: "Okafor",
      publicDisplayName: null,
      email: null,
      avatarColor: "#1f5fbf",
      avatarInitials: "AO",
    },
    lastModifiedDateString: "2026-03-04T10:00:00.000Z",
    privacy: "public",
    isAuthenticated: true,
    isMobile: false,
    isPublicView: true,
    viewCount: 1234,
    likesCount: 3,
    hasLikedPrezi: false,
    viewLink: null,
    makeACopyRedirectUrl: null,
    showMakeACopyButton: false,
    tags: "baking,bread",
    schemaVersion: "2",
    embedMode: false,
    viewerRights: { edit: false, comment: false },
    transcriptData: { topics: [] },
    nativeApp: null,
    topPicks: [],
    evaluatedFeatures: {
      "gm-view-page-banner-human-connection": false,
      "gm-view-page-banner-human-connection-edu": false,
      "embed-responsive-only": false,
    },
    shouldAutoplay: false,
    forceAutoplay: false,
    showWatermark: false,
    teaseContent: false,
    viewerEmail: null,
    viewerName: null,
    canonicalPath: `/p/${TEST_OID}/sourdough-basics/`,
    thumbnailUrl: `/p/${TEST_OID}/thumbnail.svg`,
    stepCount: 5,
    pageAspect: 1.7778,
    posterAspect: 1.7778,
    documentUrl: `/p/${TEST_OID}/document.json`,
    previewUrl: `/p/${TEST_OID}/thumbnail.svg`,
    fallbackPreviewUrl: null,
    appData: null,
    moreDecksCounts: null,
    canCurate: false,
    isOwner: false,
    canPresent: false,
    downloads: null,
    ...overrides,
  };
}
