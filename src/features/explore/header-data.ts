import type { AuthorSegment } from "./search";

/** Spec §3 "App data for the header". */
export interface HeaderAppData {
  oid: string | null;
  schemaVersion: "0" | "2" | null;
  authorSegment: AuthorSegment;
  isAuthenticated: boolean;
  viewerName: string | null;
  viewerEmail: string | null;
  /** Segment → suggested terms; without it the header is not rendered (spec §2). */
  searchTerms: Record<string, string[]> | null;
  /** Podium: how many presentations search covers (the placeholder states it, in locale format). */
  searchableCount: number;
  /** Spec §2 native-app promo (R2.26): the iPhone and Android apps, for the store badges (logged-in only). */
  nativeApps: NativeApp[];
}

/** Spec §3 nativeApp: a native app's store URL, app-protocol URL and open timeout. */
export interface NativeApp {
  type: "ios" | "android";
  url: string;
  ownProtocolUrl: string;
  openAppTimeout: number;
}

/** Spec §2: My dashboard and Account settings links carry where the click came from. */
export const HEADER_CLICK_SOURCE = "viewer_header";
/** Spec §9: a native-app click falls back to the store after 300 ms by default. */
export const NATIVE_APP_OPEN_TIMEOUT_MS = 300;
