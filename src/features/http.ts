import type { FastifyReply, FastifyRequest } from "fastify";
import { createElement, type ReactElement } from "react";
import type { ClientEntry } from "../client/entries";
import type { Database } from "../db/client";
import type { MessageId } from "../i18n/locales";
import type { FeatureFlags } from "../lib/features";
import type { Limits } from "../lib/limits";
import type { LiveChanges } from "./content-changes";
import type { DocumentWork } from "./document-work";
import type { TitleIndex } from "./search-suggest/title-index";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route records, never acts for anyone: no CSRF token needed (usage events, the client log). */
    csrfExempt?: boolean;
    /** The route writes counts only (likes, usage events), which anonymous pages may show late (issue 11). */
    countsOnly?: boolean;
    /**
     * Issue 35: the route's answer is never a page to share (an event stream that stays open):
     * the page cache leaves it alone, so requests for the same address don't wait on it.
     */
    uncached?: boolean;
    /** False: the answer goes without the security headers (server/plugins/security-headers.ts): a beacon's 204. */
    securityHeaders?: boolean;
  }
}

/** What a feature's routes get from the server: the database, settings and page rendering. */
export interface FeatureContext {
  db: Database;
  /** The app's signing secret (CSRF tokens, device cookies, visitor ids): the same in every process. */
  secret: string;
  /** CPU-heavy document work (imports, exports, previews), run off the request loop. */
  documents: DocumentWork;
  /** What writes changed, heard from every process on the database (the small caches listen). */
  changes: LiveChanges;
  /**
   * Names what this response shows, for the page cache (issue 11): a cached anonymous response is
   * dropped when a change touches one of its tags. A cacheable response that names none is
   * tagged `lists`.
   */
  cacheTags(reply: FastifyReply, tags: readonly string[]): void;
  /**
   * Calls `observer` with the visitor's address each time the page cache serves this response
   * again instead of the route (what a route records per visit still happens on a hit).
   */
  onCachedServe(reply: FastifyReply, observer: (address: string) => void): void;
  features: FeatureFlags;
  /** The origin Podium is reached at, without a trailing slash. */
  publicUrl: string;
  /** Server-renders a page and sends it with its status. */
  sendPage<Data>(request: FastifyRequest, reply: FastifyReply, page: PageSpec<Data>): FastifyReply;
  /** Sends the 404 page (or a JSON 404 for API requests). */
  sendNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply;
  /** Sends an error page (or JSON) with a status and a message id. */
  sendError(request: FastifyRequest, reply: FastifyReply, status: number): FastifyReply;
  /** The CSRF token for forms on this response (sets the cookies it needs). */
  csrfToken(request: FastifyRequest, reply: FastifyReply): string;
  /** Starts a fresh session for the user (new session id, cookies set). */
  signIn(request: FastifyRequest, reply: FastifyReply, userId: string): Promise<void>;
  /** Ends the session server-side and clears its cookies. */
  signOut(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** Podium's environment (spec §7 host rules). */
  environment: string;
  /** Issue 32 item 3: where searches are found and ranked (PODIUM_SEARCH_INDEX). */
  searchIndex: "memory" | "database";
  /** Spec §4: visitors are asked before the usage-session cookie is set (PODIUM_COOKIE_CONSENT=required). */
  cookieConsentRequired: boolean;
  /** Requests per minute per signed-in person on the like API. */
  likeRateLimitPerMinute: number;
  /** Spec §3 nativeApp for the prompt and header badges (signed-in people only). */
  nativeApp: { type: "ios" | "android"; url: string; ownProtocolUrl: string; openAppTimeout: number } | null;
  /** R2.26: every native app (iPhone and Android), for the header's store badges. */
  nativeApps: { type: "ios" | "android"; url: string; ownProtocolUrl: string; openAppTimeout: number }[];
  /**
   * Issue 15 item 5: counts a search that found something toward trending searches (the term
   * normalised, the address only to count it once an hour; never fails the search).
   */
  recordSearch(term: string, address: string): Promise<void>;
  /**
   * Issue 15: the listed titles in memory (search-suggest/title-index.ts), rebuilt in the background
   * after a change to listed presentations and at least every minute: suggestions, and the known
   * words search corrects a typo to.
   */
  titleIndex(): Promise<TitleIndex>;
  /** Login and signup throttling. */
  accountLimits: { loginPerAddress: number; loginFailuresPerAccount: number; signupsPerAddress: number };
  /** Where the login, signup, like, abuse-report and image-upload limits count: this process, or Redis shared by all (issue 16 item 1). */
  limits: Limits;
}

/**
 * Anonymous pages shared by everyone (issue 11): a shared cache (a CDN, Podium's own page cache) may
 * keep them; browsers revalidate each time.
 */
export const PUBLIC_PAGE_CACHE_CONTROL = "public, max-age=0, s-maxage=60, stale-while-revalidate=600";

/** Text for the page's head: as is (a presentation's own title), or a message in the visitor's language. */
export type HeadText = string | { id: MessageId; values?: Record<string, string | number> };

export interface PageHead {
  /** The page's own title; " · Podium" is added after it. */
  title: HeadText;
  description?: HeadText;
  /** Absolute URL of the canonical page. */
  canonicalUrl?: string;
  /**
   * Absolute URL a link preview names (og:url) when it isn't the canonical page: issue 34, a
   * step's own address (`?step=N`), so a card shows that step, not the deck's first.
   */
  shareUrl?: string | undefined;
  /** Absolute URL of a preview image (Open Graph, Twitter cards). */
  imageUrl?: string;
  /** Absolute URL of the page's oEmbed answer (discovery link for sites that embed links). */
  oembedUrl?: string;
  noindex?: boolean;
  /**
   * Issue 30: the page's largest image (the view page's poster), same-origin path: asked for first,
   * at high priority, ahead of the style sheets and scripts that share the connections with it.
   */
  largestImage?: string;
}

export interface PageSpec<Data> {
  entry: ClientEntry;
  data: Data;
  /** Renders the page body from its data; the same function hydrates it in the browser. */
  render: (data: Data) => ReactElement;
  head: PageHead;
  status?: number;
  /** Other sites may show this page in a frame (the embed page only). */
  frameable?: boolean;
  /**
   * Issue 34: a frameable page that only these sites may frame (CSP frame-ancestors host sources;
   * the deck's owner lists them). Absent or empty: any site.
   */
  frameAncestors?: readonly string[];
  /** The page has forms: anonymous visitors get a CSRF token too (and the page isn't cached). */
  forms?: boolean;
  /** The page never sets a cookie of its own (the presenter view): cookies "off", no cookie banner. */
  cookieFree?: boolean;
  /**
   * For a signed-in visitor, the page may be kept as a template and filled in for each person
   * (server/page-cache/personal.ts, issue 11). `mask` returns the data with `person`'s strings
   * where the viewer's are; the template's key is the masked data without the `shared` fields,
   * which `tags` cover (so a field that depends on the viewer and isn't masked only makes the key
   * differ per person).
   */
  personal?: {
    tags: readonly string[];
    shared: readonly (keyof Data & string)[];
    mask: (data: Data, person: PagePerson) => Data;
  };
}

/** The strings of a signed-in person a page may show (the header's name, the page data's email and id). */
export interface PagePerson {
  /** The name shown in the header (the display name, or the email without one). */
  label: string;
  /** The display name alone (empty without one). */
  displayName: string;
  email: string;
  oid: string;
  csrfToken: string;
}

/** Spec §2, §9: mobile is a phone or tablet user agent (the layout itself follows the 768 px breakpoint). */
export function isMobileUserAgent(userAgent: string | undefined): boolean {
  return /Mobi|Android|iPhone|iPad|iPod/i.test(userAgent ?? "");
}

/**
 * How a feature sends the pages with its forms: `entry`'s page, drawn by `Page` from its data (on
 * the server, and hydrated in the browser), with the page's forms' CSRF token for anonymous
 * visitors too (and so never cached), under `title`, and not to be listed by search engines.
 */
export function formPageSender<Data>(
  context: Pick<FeatureContext, "sendPage">,
  entry: ClientEntry,
  Page: (props: { data: Data }) => ReactElement | null,
) {
  return (request: FastifyRequest, reply: FastifyReply, data: Data, title: HeadText, status = 200) =>
    context.sendPage(request, reply, {
      entry,
      data,
      status,
      forms: true,
      render: (pageData) => createElement(Page, { data: pageData }),
      head: { title, noindex: true },
    });
}
