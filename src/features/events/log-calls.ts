import type { SocialNetwork } from "../share/share";

/**
 * Spec §7 "Native logging calls" and "Analytics and logging calls from the header and
 * viewer", §3 "Log records". Podium sends them all as usage events (events/client.ts
 * trackEvent), under these names; viewer logs carry the presentation's oid (§3).
 */
export const NATIVE_LOG_EVENTS = {
  like: "like",
  unlike: "unlike",
  openSocialShare: "open_social_share",
  sharePresentation: "share_presentation",
  copyViewLink: "copy_view_link",
  copyPresentation: "copy_presentation",
} as const;

export const HEADER_LOG_EVENTS = {
  searchPresentations: "search_presentations",
  visitSignupPage: "visit_signup_page",
  /** Spec §7: the login click logs a visit to the pricing page. */
  visitPricingPage: "visit_pricing_page",
  clickLogo: "click_logo",
  searchBarClicked: "search_bar_clicked",
  enterSearchBar: "enter_search_bar",
} as const;

/** Spec §7: a share presentation log's type: MOBILE (the phone's share sheet) or the social network. */
export type ShareType = "MOBILE" | SocialNetwork;

/** Spec §7: copy presentation logs its source; on the view page it is VIEW_PAGE. */
export const COPY_SOURCE_VIEW_PAGE = "VIEW_PAGE";

/** Spec §3 Search log. */
export type SearchLog = {
  search_term: string;
  search_type: "PRESENT";
};

export function searchLog(term: string): SearchLog {
  return { search_term: term.trim(), search_type: "PRESENT" };
}

/** Spec §3 CTA log. */
export type CtaLog = {
  cta_location: string;
  cta_text: string;
  cta_type: "LINK" | "BUTTON";
  target_url: string;
};

export function ctaLog(location: string, text: string, type: CtaLog["cta_type"], targetUrl: string): CtaLog {
  return { cta_location: location, cta_text: text, cta_type: type, target_url: targetUrl };
}
