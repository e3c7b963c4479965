import { randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { createElement } from "react";
import { transcriptPlainText } from "../../document/transcript";
import { isOid } from "../../lib/ids";
import { COOKIE_CONSENT_COOKIE, readUsageSessionId } from "../../lib/usage-session";
import { ErrorPage, type ErrorPageData } from "../../ui/ErrorPage";
import type { LinkGateData } from "../../ui/LinkGate";
import { createLoginThrottle } from "../accounts/login-throttle";
import { PasswordHashingBusyError, verifyPassword } from "../accounts/password";
import { LISTS_TAG, presentationTag, SHOWCASE_TAG, userTag, VIDEOS_TAG } from "../content-changes";
import { createSenderKeyer } from "../events/sender-keys";
import { type FeatureContext, isMobileUserAgent, type PagePerson, PUBLIC_PAGE_CACHE_CONTROL } from "../http";
import { EmbedPage } from "../presentation/components/EmbedPage";
import {
  LINK_GRANT_MAX_AGE_SECONDS,
  type LinkState,
  linkGrantCookie,
  linkGrantFor,
  linkRouteOf,
  linkStateOf,
  PASSCODE_MAX_LENGTH,
} from "../presentation/link-gate";
import type { PresentationPageData } from "../presentation/page-data";
import { findViewLink, type LinkVisit } from "../presentation/repository";
import { stepThumbnailPathOf, VIEW_LINK_PATTERN } from "../presentation/service";
import { PresentationPage } from "./components/PresentationPage";
import { ReadingPage } from "./components/ReadingPage";
import { ReadingSlides } from "./components/ReadingSlides";
import { ViewLinkPage } from "./components/ViewLinkPage";
import type { ReadingPageData } from "./reading-data";
import {
  createViewPageSources,
  getEmbedPage,
  getLinkReadingPage,
  getMoreDecks,
  getPrivateViewPage,
  getPublicReadingPage,
  getPublicViewPage,
  getSidebarRows,
  getStepPreview,
  type ViewRequest,
} from "./service";

/** Longest meta description we send (search engines show about 160 characters). */
const META_DESCRIPTION_LENGTH = 160;

type OidRequest = FastifyRequest<{ Params: { oid: string }; Querystring: Record<string, string | undefined> }>;
type LinkRequest = FastifyRequest<{ Params: { linkId: string } }>;

/** The view page, the embed page and the private view page (product brief, routes; spec §2). */
export function registerViewPageRoutes(app: FastifyInstance, context: FeatureContext): void {
  const { db } = context;
  // This app's small caches (issue 11): header count, sidebar cards, staff-pick pool.
  const sources = createViewPageSources(db, context.changes);
  // Issue 33: a view through a link is counted like a public view, by keys (never the address).
  const senderKeys = createSenderKeyer(context.secret);
  const linkVisitOf = (request: FastifyRequest, linkId: string): LinkVisit => {
    // The usage session's cookie is there only where the visitor allowed it (or none is asked):
    // then a reload is the same visitor; else each page load is a new one, as on the public page.
    const cookies = request.cookies as Record<string, string | undefined>;
    const consented = !context.cookieConsentRequired || cookies[COOKIE_CONSENT_COOKIE] === "performance";
    const session = (consented ? readUsageSessionId({ cookie: request.headers.cookie ?? "" }) : null) ?? randomUUID();
    const now = Date.now();
    const keys = senderKeys.keysOf({ address: request.ip, visitorId: session, presentationOid: `link:${linkId}`, now });
    return {
      visitor: keys.visitor ?? session,
      visitorBefore: keys.visitorBefore,
      address: keys.address,
      addressBefore: keys.addressBefore,
      at: new Date(now),
    };
  };
  const viewRequest = (request: FastifyRequest): ViewRequest => ({
    viewer: request.viewer,
    isMobile: isMobileUserAgent(request.headers["user-agent"]),
    features: context.features,
    nativeApp: context.nativeApp,
    nativeApps: context.nativeApps,
  });

  // One summary per transcript: a kept presentation's transcript is the same object every time.
  const summaries = new WeakMap<object, string | undefined>();
  const summaryOf = (data: PresentationPageData) => {
    const transcript = data.transcriptData;
    if (transcript && summaries.has(transcript)) return summaries.get(transcript);
    const text = transcriptPlainText(transcript).replace(/\s+/g, " ").trim();
    const summary = text ? truncate(text, META_DESCRIPTION_LENGTH) : undefined;
    if (transcript) summaries.set(transcript, summary);
    return summary;
  };

  // The public view page: /p/{oid}/ and /p/{oid}/{slug}/ (product brief, routes).
  const viewPage = async (request: OidRequest, reply: FastifyReply) => {
    const { oid } = request.params;
    if (!isOid(oid)) return context.sendNotFound(request, reply);
    const found = await getPublicViewPage(db, sources, { ...viewRequest(request), oid });
    if (!found) return context.sendNotFound(request, reply);
    // Issue 34 item 5: `?step=N`, a step's own address: the player starts there and the link
    // preview is that step's (its slide's title and image). A value that isn't a step is no step.
    const linked = await getStepPreview(db, { oid, viewer: request.viewer, step: request.query.step });
    const data = linked ? { ...found, linkedStep: linked.step, shouldAutoplay: true } : found;
    const pageUrl = `${context.publicUrl}${data.canonicalPath}`;
    reply.header("cache-control", PUBLIC_PAGE_CACHE_CONTROL);
    reply.header("vary", "Cookie, User-Agent");
    // What the page shows, for the page cache: the deck, its owner's name, the header's count (its
    // promotional rows come from sidebar.json, issue 11).
    const tags = [presentationTag(data.oid), userTag(data.owner.oid), SHOWCASE_TAG];
    context.cacheTags(reply, tags);
    return context.sendPage(request, reply, {
      entry: "presentation",
      data,
      // Signed in, a template per situation (issue 11): the transcript is the tags' business, and the
      // view count may lag like the anonymous page's. (topPicks is empty here: the picks come with
      // the sidebar's rows.)
      personal: { tags, shared: ["transcriptData", "viewCount"], mask: withPerson },
      render: (pageData) => createElement(PresentationPage, { data: pageData }),
      head: {
        title: linked?.title || data.title,
        description: linked
          ? { id: "viewPage.stepDescription", values: { step: linked.step, total: linked.total, title: data.title } }
          : summaryOf(data),
        canonicalUrl: pageUrl,
        shareUrl: linked ? `${pageUrl}?step=${linked.step}` : undefined,
        imageUrl: `${context.publicUrl}${linked ? stepThumbnailPathOf(data.oid, linked.step) : data.thumbnailUrl}`,
        oembedUrl: `${context.publicUrl}/oembed?format=json&url=${encodeURIComponent(pageUrl)}`,
        noindex: data.privacy === "unlisted",
        largestImage: data.previewUrl,
      },
    });
  };
  app.get("/p/:oid/", viewPage);
  app.get("/p/:oid/:slug/", viewPage);

  /**
   * Issue 12: an embed whose presentation is private, removed or unknown answers 404 with a branded
   * "isn't available" page that other sites may frame (like the embed page itself), noindex, never
   * stored by a cache, and the same for every reason, so it tells nothing about the presentation.
   */
  const embedUnavailable = (request: FastifyRequest, reply: FastifyReply) => {
    reply.header("cache-control", "no-store");
    return context.sendPage<ErrorPageData>(request, reply, {
      entry: "error",
      status: 404,
      frameable: true,
      data: { status: 404, reason: null, frame: true },
      render: (pageData) => createElement(ErrorPage, { data: pageData }),
      head: { title: { id: "embed.unavailable.title" }, noindex: true },
    });
  };

  // The embeddable player (spec §2 /p/embed/{id}/): frameable by any site; ?autoplay=1 plays at once.
  // Issue 34: its options are URL parameters (embed-options.ts), a bad value is the default.
  app.get("/p/embed/:oid/", async (request: OidRequest, reply) => {
    const { oid } = request.params;
    if (!isOid(oid)) return embedUnavailable(request, reply);
    const data = await getEmbedPage(db, { ...viewRequest(request), oid, query: request.query });
    if (!data) return embedUnavailable(request, reply);
    reply.header("cache-control", PUBLIC_PAGE_CACHE_CONTROL);
    context.cacheTags(reply, [presentationTag(data.oid), userTag(data.owner.oid)]);
    return context.sendPage(request, reply, {
      entry: "embed",
      data,
      frameable: true,
      // Issue 34: only the sites the owner listed may frame it (the header differs per deck; the
      // page cache keeps it with the page, and a change of the list drops the page: migration 0022).
      frameAncestors: data.embedHosts ?? [],
      render: (pageData) => createElement(EmbedPage, { data: pageData }),
      head: {
        title: data.title,
        description: summaryOf(data),
        canonicalUrl: `${context.publicUrl}${data.canonicalPath}`,
        noindex: true,
        largestImage: data.previewUrl,
      },
    });
  });

  // Issue 33: a view link's passcode is throttled by the login rules (the link id for the email).
  const passcodeThrottle = createLoginThrottle(context.accountLimits, context.secret, context.limits, "link-passcode");

  /**
   * Issue 33: a closed view link's page: why, in words (turned off, expired), or the passcode form.
   * It is a 404 for a closed link (nothing of the deck in it), 401 while it asks for a passcode.
   */
  const sendLinkGate = (
    request: FastifyRequest,
    reply: FastifyReply,
    linkId: string,
    state: Exclude<LinkState, "open">,
    problem: LinkGateData["problem"] = null,
    status = state === "passcode" ? 401 : 404,
    seconds?: number,
  ) => {
    reply.header("cache-control", "private, no-store");
    // The link id stays off other sites (no Referer leaves the origin); "no-referrer" would make
    // the passcode form's POST carry `Origin: null`, which the CSRF check rightly refuses.
    reply.header("referrer-policy", "same-origin");
    const linkGate: LinkGateData = { state, action: `/view/${linkId}/passcode`, problem };
    if (seconds !== undefined) linkGate.seconds = seconds;
    return context.sendPage<ErrorPageData>(request, reply, {
      entry: "error",
      status,
      forms: state === "passcode",
      data: { status, reason: null, linkGate },
      render: (pageData) => createElement(ErrorPage, { data: pageData }),
      head: { title: { id: `linkGate.${state}.title` }, noindex: true },
    });
  };

  // The private full-screen view page, opened through a view link (product brief).
  app.get("/view/:linkId/", async (request: LinkRequest, reply) => {
    const { linkId } = request.params;
    const found = await getPrivateViewPage(db, {
      ...viewRequest(request),
      ...linkRouteOf(linkId, request.cookies),
      visit: (id) => linkVisitOf(request, id),
    });
    if (!found) return context.sendNotFound(request, reply);
    if (found.state !== "open") return sendLinkGate(request, reply, linkId, found.state);
    const { data } = found;
    // The link is a secret: keep it out of caches and Referer headers.
    reply.header("cache-control", "private, no-store");
    reply.header("referrer-policy", "no-referrer");
    return context.sendPage(request, reply, {
      entry: "view",
      data,
      render: (pageData) => createElement(ViewLinkPage, { data: pageData }),
      head: { title: data.title, noindex: true, largestImage: data.previewUrl },
    });
  });

  // Issue 33: the passcode form's answer: right, a grant cookie and back to the link; wrong, the form again.
  app.post("/view/:linkId/passcode", async (request: LinkRequest, reply) => {
    const { linkId } = request.params;
    const link = VIEW_LINK_PATTERN.test(linkId) ? await findViewLink(db, linkId) : null;
    if (!link) return context.sendNotFound(request, reply);
    const state = linkStateOf(link, undefined);
    // Turned off or expired: the passcode changes nothing (and isn't checked).
    if (state !== "passcode" || link.passcodeHash === null) {
      return state === "open" ? reply.redirect(`/view/${linkId}/`, 303) : sendLinkGate(request, reply, linkId, state);
    }
    const body = request.body as Record<string, unknown> | undefined;
    const passcode = typeof body?.passcode === "string" ? body.passcode : "";
    const attempt = await passcodeThrottle.begin({ email: linkId, address: request.ip, deviceCookie: undefined });
    if (!attempt.allowed) {
      reply.header("retry-after", String(attempt.retryAfterSeconds));
      return sendLinkGate(request, reply, linkId, "passcode", "tooMany", 429, attempt.retryAfterSeconds);
    }
    let right: boolean;
    try {
      right =
        passcode.length > 0 &&
        passcode.length <= PASSCODE_MAX_LENGTH &&
        (await verifyPassword(passcode, link.passcodeHash));
    } catch (error) {
      await attempt.end("aborted");
      if (error instanceof PasswordHashingBusyError)
        return sendLinkGate(request, reply, linkId, "passcode", "busy", 503);
      throw error;
    }
    await attempt.end(right ? "success" : "failure");
    if (!right) return sendLinkGate(request, reply, linkId, "passcode", "wrong");
    reply.setCookie(linkGrantCookie(linkId), linkGrantFor({ linkId, passcodeHash: link.passcodeHash }), {
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secure: context.publicUrl.startsWith("https:"),
      maxAge: LINK_GRANT_MAX_AGE_SECONDS,
    });
    return reply.redirect(`/view/${linkId}/`, 303);
  });

  // Issue 12: the view page's "More from this author" and related lists, loaded as they near the screen.
  app.get("/p/:oid/more.json", async (request: OidRequest, reply) => {
    const { oid } = request.params;
    if (!isOid(oid)) return context.sendNotFound(request, reply);
    const found = await getMoreDecks(db, sources, { viewer: request.viewer, oid });
    if (!found) return context.sendNotFound(request, reply);
    reply.header("cache-control", PUBLIC_PAGE_CACHE_CONTROL);
    context.cacheTags(reply, [LISTS_TAG, presentationTag(oid), ...found.owners.map(userTag)]);
    return reply.send(found.data);
  });

  // Issue 11: the view page's promotional rows (videos, templates, staff picks without this deck),
  // loaded after the page. Shared by every visitor: cached like more.json.
  app.get("/p/:oid/sidebar.json", async (request: OidRequest, reply) => {
    const { oid } = request.params;
    if (!isOid(oid)) return context.sendNotFound(request, reply);
    const rows = await getSidebarRows(db, sources, { viewer: request.viewer, oid });
    if (!rows) return context.sendNotFound(request, reply);
    reply.header("cache-control", PUBLIC_PAGE_CACHE_CONTROL);
    // Templates and staff picks (showcase), the video cards (videos), the picks' titles and names
    // (lists), and this deck (its privacy decides the 404).
    context.cacheTags(reply, [SHOWCASE_TAG, VIDEOS_TAG, LISTS_TAG, presentationTag(oid)]);
    return reply.send(rows);
  });

  // Issue 12, reading mode: every step as a column of slides with its text. `/p/read/{oid}/`, not
  // `/p/{oid}/read/`, which is the view page of a presentation titled "Read".
  const readingPage = (data: ReadingPageData) => ({
    entry: "reading" as const,
    data,
    // The slides are drawn here only; the browser keeps their markup (ServerMarkup).
    render: (pageData: ReadingPageData) =>
      createElement(ReadingPage, {
        data: pageData,
        slides: pageData.document
          ? createElement(ReadingSlides, { document: pageData.document, playerPath: pageData.playerPath })
          : null,
      }),
  });
  app.get("/p/read/:oid/", async (request: OidRequest, reply) => {
    const { oid } = request.params;
    if (!isOid(oid)) return context.sendNotFound(request, reply);
    const data = await getPublicReadingPage(db, sources, { ...viewRequest(request), oid });
    if (!data) return context.sendNotFound(request, reply);
    // Cached like the view page, and dropped with it when the deck or its owner's name changes.
    reply.header("cache-control", PUBLIC_PAGE_CACHE_CONTROL);
    reply.header("vary", "Cookie, User-Agent");
    context.cacheTags(reply, [presentationTag(data.oid), userTag(data.owner.oid)]);
    return context.sendPage(request, reply, {
      ...readingPage(data),
      head: {
        title: { id: "reading.pageTitle", values: { title: data.title } },
        canonicalUrl: `${context.publicUrl}${data.playerPath}`,
        imageUrl: `${context.publicUrl}/p/${data.oid}/thumbnail.svg`,
        noindex: false,
      },
    });
  });
  app.get("/view/:linkId/read/", async (request: LinkRequest, reply) => {
    const data = await getLinkReadingPage(db, {
      ...viewRequest(request),
      ...linkRouteOf(request.params.linkId, request.cookies),
    });
    if (!data) return context.sendNotFound(request, reply);
    // The link is a secret: keep it out of caches and Referer headers.
    reply.header("cache-control", "private, no-store");
    reply.header("referrer-policy", "no-referrer");
    return context.sendPage(request, reply, {
      ...readingPage(data),
      head: { title: { id: "reading.pageTitle", values: { title: data.title } }, noindex: true },
    });
  });
}

/** The page data with `person`'s strings where the viewer's are (the header's name, the email). */
export function withPerson(data: PresentationPageData, person: PagePerson): PresentationPageData {
  return {
    ...data,
    viewerName: person.displayName,
    viewerEmail: person.email,
    appData: data.appData && { ...data.appData, viewerName: person.label, viewerEmail: person.email },
  };
}

function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max - 1).replace(/\s+\S*$/, "")}…`;
}
