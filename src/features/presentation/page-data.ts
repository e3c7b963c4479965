import type { Transcript } from "../../document/transcript";
import type { Card } from "../../lib/card";
import type { FeatureFlags } from "../../lib/features";
import type { HeaderAppData } from "../explore/header-data";
import type { EmbedOptions } from "./embed-options";
import type { Privacy, SchemaVersion } from "./repository";

/** Spec §3 Owner, as the page sees it. The email never leaves the server (it only picks the avatar colour). */
export interface OwnerData {
  oid: string;
  username: string;
  firstName: string;
  lastName: string;
  publicDisplayName: string | null;
  email: null;
  /** Spec §3 Avatar colour, picked on the server from the email. */
  avatarColor: string;
  /** Spec §3 Avatar initials. */
  avatarInitials: string;
}

/** What the player shows a deck by: its poster's title, owner and date, its document and its shape. */
export interface PlayerDeck {
  oid: string;
  title: string;
  owner: OwnerData;
  lastModified: string;
  schemaVersion: SchemaVersion;
  documentUrl: string;
  previewUrl: string;
  stepCount: number;
  /** Issue 28: the deck's page shape (width ÷ height), which the stage takes: one page fills it. */
  pageAspect: number;
  /** Issue 28: the poster's page shape, so the poster shows its page where the first page will be. */
  posterAspect: number;
}

/** Spec §3 "Page data for a presentation": native-app prompt data. */
export interface NativeAppData {
  type: "ios" | "android";
  url: string;
  ownProtocolUrl: string;
  openAppTimeout: number;
}

/** Spec §3 "Page data for a presentation", every field, plus Podium's own (marked). */
export interface PresentationPageData {
  oid: string;
  title: string;
  /** Sanitised HTML (spec §2: rendered as HTML). */
  description: string;
  owner: OwnerData;
  /** ISO 8601 instant; the page formats it in the visitor's locale. */
  lastModifiedDateString: string;
  privacy: Privacy;
  isAuthenticated: boolean;
  isMobile: boolean;
  isPublicView: boolean;
  viewCount: number;
  likesCount: number;
  hasLikedPrezi: boolean;
  viewLink: { link_id: string; key_type: string } | null;
  makeACopyRedirectUrl: string | null;
  showMakeACopyButton: boolean;
  /** Comma-separated (spec §3). */
  tags: string;
  schemaVersion: SchemaVersion;
  embedMode: boolean;
  /** Podium (issue 34): the embed page's options (its URL parameters); absent elsewhere. */
  embedOptions?: EmbedOptions;
  /**
   * Podium (issue 34 item 5): the step a `?step=N` link on the view page names (1-based; absent
   * without one): the player starts there, and the page's link preview is that step's.
   */
  linkedStep?: number;
  /** Podium (issue 34): the sites the owner lets embed the deck (empty: any); the embed page's only. */
  embedHosts?: string[];
  viewerRights: { edit: boolean; comment: boolean };
  /**
   * Spec §3. In the browser (issue 11) the transcript travels once, as the page's markup, which
   * hydration keeps (Transcript, ServerMarkup); the boot JSON says where (`TranscriptInMarkup`).
   */
  transcriptData: Transcript | null;
  nativeApp: NativeAppData | null;
  /**
   * Spec §3 topPicks. Empty in the view page's own data (issue 11): the staff picks come after the
   * page with the sidebar's other rows, from `/p/{oid}/sidebar.json` (sidebar/sidebar-rows.ts), so
   * its HTML stays within 40 KB; the embed and private view pages show none.
   */
  topPicks: Card[];
  evaluatedFeatures: FeatureFlags;
  shouldAutoplay: boolean;
  forceAutoplay: boolean;
  showWatermark: boolean;
  teaseContent: boolean;
  viewerEmail: string | null;
  viewerName: string | null;
  /** Podium: canonical path of the public view page. */
  canonicalPath: string;
  /** Podium: generated thumbnail of the first step. */
  thumbnailUrl: string;
  /** Podium: number of steps on the path. */
  stepCount: number;
  /** Podium (issue 28): the deck's page shape, width ÷ height: the player's stage takes it. */
  pageAspect: number;
  /** Podium (issue 28): the poster's page shape (the first slide's; in a mixed deck it may differ). */
  posterAspect: number;
  /** Podium: where the player fetches the document (spec §3 Presentation has url). */
  documentUrl: string;
  /** Spec §3 Presentation: the preview image, and a fallback when it fails (none yet). */
  previewUrl: string;
  fallbackPreviewUrl: string | null;
  /** Spec §3 "App data for the header" (the public view page's header). */
  appData: HeaderAppData | null;
  /**
   * Issue 28: how many cards "More from {author}" and the related list will show (the public view
   * page; null elsewhere), so their room is held until `/p/{oid}/more.json` brings them.
   */
  moreDecksCounts: { byAuthor: number; related: number } | null;
  /** Podium: the viewer is a curator and curation is allowed (spec §6). */
  canCurate: boolean;
  /**
   * Podium (issue 12): the viewer owns the presentation. The view page offers them Edit, Share
   * settings and Analytics instead of Report and Like. Only ever true for a signed-in viewer, whose
   * pages are never in the anonymous page cache.
   */
  isOwner: boolean;
  /**
   * Podium (issue 28): the viewer may open the presenter view, which shows the speaker notes: they
   * may edit the deck, or came by a view link made for presenting. Never in an embed.
   */
  canPresent: boolean;
  /**
   * Issue 33 item 4: the downloads offered here (the owner allowed them for the public page, or
   * the view link allows them): the PDF's address, and the Markdown's for a Markdown deck. Null: none.
   */
  downloads: { pdf: string; markdown: string | null } | null;
}

/**
 * Spec §3 `transcriptData` as the view page's boot JSON carries it (issue 11, issue 28): the transcript
 * travels once, as the page's markup, which hydration keeps (Transcript, ServerMarkup), and the
 * 40 KB page (a 50-slide transcript is 38 KB as JSON) has no room for a second copy. So the field
 * says where that markup is and what it holds; a deck without a transcript has null.
 */
export interface TranscriptInMarkup {
  format: "markup";
  /** The element of the page whose content is the transcript. */
  elementId: typeof TRANSCRIPT_ELEMENT_ID;
  /** How many sections (topics with text) it has, nested ones included. */
  sections: number;
  /** The highest step a section links to (`#step=N`), 0 when none does. */
  lastStep: number;
}

/** The transcript's element on the view page (Transcript.tsx draws it with this id). */
export const TRANSCRIPT_ELEMENT_ID = "transcript-content";

export function transcriptInMarkup(transcript: Transcript): TranscriptInMarkup {
  let sections = 0;
  let lastStep = 0;
  const visit = (topics: Transcript["topics"]): void => {
    for (const topic of topics) {
      sections += 1;
      lastStep = Math.max(lastStep, topic.step ?? 0);
      visit(topic.topics);
    }
  };
  visit(transcript.topics);
  return { format: "markup", elementId: TRANSCRIPT_ELEMENT_ID, sections, lastStep };
}

/**
 * Issue 11: the view, embed and private view pages' data as their browser entries get it. What the
 * page's markup already carries travels once: the transcript stays server markup (see
 * `TranscriptInMarkup`); the embed and private view pages draw no transcript, so theirs is null.
 * The view page's promotional rows aren't in its page at all (sidebar/sidebar-rows.ts).
 */
export interface PresentationBootData extends Omit<PresentationPageData, "transcriptData"> {
  transcriptData: TranscriptInMarkup | null;
}

/** The view page's boot data. */
export function presentationBootData(data: PresentationPageData): PresentationBootData {
  return { ...data, transcriptData: data.transcriptData ? transcriptInMarkup(data.transcriptData) : null };
}

/** The embed and private view pages' boot data: they draw no transcript. */
export function pageWithoutTranscriptBootData(data: PresentationPageData): PresentationBootData {
  return { ...data, transcriptData: null };
}

/** What the page's components take in the browser: the transcript is the markup hydration keeps. */
export function pageDataOfBoot(boot: PresentationBootData): PresentationPageData {
  return { ...boot, transcriptData: null };
}
