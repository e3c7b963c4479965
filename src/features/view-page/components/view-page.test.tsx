// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { messagesFor } from "../../../i18n/catalogues";
import { formatWithoutPluralRules } from "../../../i18n/plural-fallback";
import { createPodiumIntl } from "../../../i18n/podium-intl";
import type { Card } from "../../../lib/card";
import { PodiumApp } from "../../../ui/PodiumApp";
import { stubDialog, stubIntersectionObserver, stubResizeObserver } from "../../../ui/testing/jsdom-stubs";
import { trackEvent, trackViewPageLoaded } from "../../events/client";
import { flushTimers, holdNextLog } from "../../events/testing/held-log";
import { sendLike } from "../../likes/like-client";
import type { PresentationPageData } from "../../presentation/page-data";
import { TEST_OID, viewPageData } from "../../presentation/testing/page-data";
import { OwnerTools, PresentationPage } from "./PresentationPage";

vi.mock("../../events/client", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../events/client")>()),
  trackEvent: vi.fn(async () => true),
  trackViewPageLoaded: vi.fn(async () => true),
}));
vi.mock("../../likes/like-client", () => ({ sendLike: vi.fn(async () => undefined) }));

beforeAll(() => {
  stubResizeObserver();
  stubIntersectionObserver();
  stubDialog();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.mocked(trackEvent).mockClear();
  vi.mocked(sendLike).mockClear();
});

const OID = TEST_OID;

function card(overrides: Partial<Card>): Card {
  return {
    title: "Pitch deck",
    subTitle: "Template",
    path: "/presentation-template/pitch-deck/",
    thumbnail: "/p/zyxwvutsrqpo/thumbnail.svg",
    type: "TEMPLATE",
    previewAnimation: null,
    titleLines: 2,
    subTitleLines: 2,
    ...overrides,
  };
}

const pageData = viewPageData;

function renderPage(data: PresentationPageData) {
  return render(
    <PodiumApp intl={createPodiumIntl("en", messagesFor("en"), undefined, undefined, formatWithoutPluralRules)}>
      <PresentationPage data={data} />
    </PodiumApp>,
  );
}

const toolbarGroup = (side: "left" | "right") => {
  const group = document.querySelector<HTMLElement>(`.toolbar__group--${side}`);
  if (!group) throw new Error(`no ${side} toolbar group`);
  return within(group);
};

const flush = flushTimers;

const logged = () => vi.mocked(trackEvent).mock.calls.map(([name, fields]) => [name, fields]);

describe("public view page toolbar", () => {
  it("R2.16 views count and like on the left; embed, share, report and curation on the right", () => {
    renderPage(pageData({ canCurate: true }));
    const left = toolbarGroup("left");
    const right = toolbarGroup("right");
    expect(left.getByText("1,234 views")).toBeTruthy();
    expect(left.getByRole("button", { name: /^Like/ })).toBeTruthy();
    expect(right.getByRole("button", { name: "Embed" })).toBeTruthy();
    expect(right.getByRole("button", { name: "Share" })).toBeTruthy();
    expect(right.getByRole("link", { name: /^Report/ }).getAttribute("href")).toBe(`/contact/abuse/${OID}/`);
    expect(right.getByRole("link", { name: "Curate" }).getAttribute("href")).toBe(`/curation/${OID}/`);
    for (const name of ["Embed", "Share"]) expect(left.queryByRole("button", { name })).toBeNull();
    expect(right.queryByRole("button", { name: /^Like/ })).toBeNull();
    expect(right.queryByText("1,234 views")).toBeNull();
  });

  it("R2.16 the groups hold only what applies: no views at 0, no curation without the right", () => {
    renderPage(pageData({ viewCount: 0, canCurate: false }));
    expect(document.querySelector(".toolbar__views")).toBeNull();
    expect(toolbarGroup("left").getByRole("button", { name: /^Like/ })).toBeTruthy();
    expect(toolbarGroup("right").queryByRole("link", { name: "Curate" })).toBeNull();
  });
});

describe("issue 28: the player takes the deck's page shape", () => {
  it("issue 28 the server's markup gives the player the deck's and the poster's page shapes, before any script runs", () => {
    const html = renderToString(
      <PodiumApp intl={createPodiumIntl("en", messagesFor("en"))}>
        <PresentationPage data={pageData({ pageAspect: 0.7727, posterAspect: 1.3333 })} />
      </PodiumApp>,
    );
    const player = /<div class="player [^"]*"[^>]*>/.exec(html)?.[0] ?? "";
    expect(player).toContain("--page-aspect:0.7727");
    expect(player).toContain("--poster-aspect:1.3333");
  });
});

describe("issue 12: the owner's and collaborators' toolbar", () => {
  // Issue 30: the tools are a part of their own, loaded as hydration begins where they are shown.
  beforeAll(() => OwnerTools.preload());

  it("issue 12 the owner gets Edit, Share settings and Analytics, their likes as a figure, no Report or Like", () => {
    renderPage(pageData({ isOwner: true, viewerRights: { edit: true, comment: true }, schemaVersion: "0" }));
    const left = toolbarGroup("left");
    const right = toolbarGroup("right");
    expect(left.getByText("3 likes")).toBeTruthy();
    expect(left.queryByRole("button", { name: /^Like/ })).toBeNull();
    expect(right.queryByRole("link", { name: /^Report/ })).toBeNull();
    expect(right.getByRole("link", { name: "Edit" }).getAttribute("href")).toBe(`/${OID}/edit/`);
    expect(right.getByRole("link", { name: "Share settings for Sourdough basics" }).getAttribute("href")).toBe(
      `/dashboard/next/presentations/${OID}/#sharing`,
    );
    expect(right.getByRole("link", { name: "Analytics for Sourdough basics" }).getAttribute("href")).toBe(
      `/dashboard/next/presentations/${OID}/#activity`,
    );
    expect(right.queryByRole("link", { name: "Create your own" })).toBeNull();
  });

  it("issue 12 a collaborator who may edit gets Edit (pitch editor) beside Like and Report, not the owner's settings", () => {
    renderPage(pageData({ viewerRights: { edit: true, comment: true } }));
    const right = toolbarGroup("right");
    expect(right.getByRole("link", { name: "Edit" }).getAttribute("href")).toBe(`/p/edit/${OID}/`);
    expect(right.getByRole("link", { name: /^Report/ })).toBeTruthy();
    expect(toolbarGroup("left").getByRole("button", { name: /^Like/ })).toBeTruthy();
    expect(right.queryByRole("link", { name: /Share settings|Analytics/ })).toBeNull();
  });

  it("issue 12 a commenter gets Comment; a signed-in stranger gets Create your own; nobody else gets either", () => {
    const { unmount } = renderPage(pageData({ viewerRights: { edit: false, comment: true }, schemaVersion: "0" }));
    expect(toolbarGroup("right").getByRole("link", { name: "Comment" }).getAttribute("href")).toBe(
      `/${OID}/edit/#present`,
    );
    unmount();
    renderPage(pageData());
    const right = toolbarGroup("right");
    expect(right.queryByRole("link", { name: /^(Edit|Comment)$/ })).toBeNull();
    expect(right.getByRole("link", { name: "Create your own" })).toBeTruthy();
  });

  it("issue 12 the Edit button logs open_editor before it navigates", async () => {
    const assign = vi.fn();
    vi.stubGlobal("location", { ...window.location, assign });
    renderPage(pageData({ isOwner: true, viewerRights: { edit: true, comment: true } }));
    vi.mocked(trackEvent).mockClear();
    const settle = holdNextLog();
    fireEvent.click(toolbarGroup("right").getByRole("link", { name: "Edit" }));
    expect(logged()).toEqual([["open_editor", { oid: OID }]]);
    await flush();
    expect(assign).not.toHaveBeenCalled();
    await settle(true);
    expect(assign).toHaveBeenCalledWith(expect.stringMatching(new RegExp(`/p/edit/${OID}/$`)));
  });

  it("issue 12 a signed-out Like says why before the click, and leads to sign-up with the reason", () => {
    const assign = vi.fn();
    vi.stubGlobal("location", { ...window.location, assign, pathname: `/p/${OID}/` });
    renderPage(pageData({ isAuthenticated: false }));
    const like = toolbarGroup("left").getByRole("button", { name: /^Like/ });
    expect(like.getAttribute("title")).toBe("Sign up to like this presentation");
    fireEvent.click(like);
    expect(assign).toHaveBeenCalledWith(`/signup/?next=%2Fp%2F${OID}%2F&reason=like`);
  });
});

describe("public view page logging", () => {
  it("R4.11 tracked actions send their events: loaded page, show and close modal", async () => {
    const { container } = renderPage(pageData());
    // The loaded event, with the page's visitor id (issue 28 item 4; events/client.test.ts).
    expect(trackViewPageLoaded).toHaveBeenCalledWith(OID);
    // Issue 30: the dialogs are not part of the page until asked for (their chunk loads then).
    expect(container.querySelector("dialog")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Embed" }));
    const embed = await screen.findByRole("dialog", { name: "Embed" });
    expect(trackEvent).toHaveBeenLastCalledWith("show_modal", { oid: OID, modal: "embed" });
    fireEvent.click(within(embed).getByRole("button", { name: "Close" }));
    expect(trackEvent).toHaveBeenLastCalledWith("close_modal", { oid: OID, modal: "embed" });
    fireEvent.click(screen.getByRole("button", { name: "Share" }));
    const share = await screen.findByRole("dialog", { name: "Share" });
    expect(trackEvent).toHaveBeenCalledWith("show_modal", { oid: OID, modal: "share" });
    fireEvent.click(within(share).getByRole("button", { name: "Close" }));
    expect(trackEvent).toHaveBeenLastCalledWith("close_modal", { oid: OID, modal: "share" });
  });

  it("R4.11 R3.10 presentation card opened and CTA clicked (with the CTA log) are logged, and their links followed once the log settles", async () => {
    const assign = vi.fn();
    vi.stubGlobal("location", { ...window.location, assign });
    // Issue 11: the sidebar's cards come from sidebar.json once it nears the viewport (here at once).
    vi.stubGlobal(
      "IntersectionObserver",
      class {
        constructor(private readonly callback: IntersectionObserverCallback) {}
        observe(target: Element) {
          this.callback([{ isIntersecting: true, target } as IntersectionObserverEntry], this as never);
        }
        unobserve() {}
        disconnect() {}
      },
    );
    const rows = { sidebar: { videos: [], templates: [card({})] }, topPicks: [] };
    const answers: Record<string, unknown> = {
      [`/p/${OID}/sidebar.json`]: rows,
      [`/p/${OID}/more.json`]: { byAuthor: [], related: [] },
    };
    vi.stubGlobal(
      "fetch",
      vi.fn(
        async (url: string) =>
          new Response(JSON.stringify(answers[url] ?? null), { status: url in answers ? 200 : 404 }),
      ),
    );
    renderPage(pageData());
    await screen.findByRole("link", { name: /^Pitch deck/ });
    const links: [string, string, Record<string, unknown>][] = [
      [
        "Pitch deck",
        "presentation_card_opened",
        { oid: OID, card_type: "TEMPLATE", target_url: "/presentation-template/pitch-deck/" },
      ],
      [
        "Learn more",
        "cta_clicked",
        { oid: OID, cta_location: "video_banner", cta_text: "Learn more", cta_type: "LINK", target_url: "/video" },
      ],
      [
        "Learn about Podium",
        "cta_clicked",
        {
          oid: OID,
          cta_location: "bottom_band",
          // R3.10: the log carries the button's own text, as shown.
          cta_text: "Learn about Podium",
          cta_type: "BUTTON",
          target_url: "/product/",
        },
      ],
    ];
    for (const [name, eventName, fields] of links) {
      assign.mockClear();
      const settle = holdNextLog();
      const link = screen.getByRole("link", { name: new RegExp(`^${name}`) });
      expect(fireEvent.click(link)).toBe(false);
      expect(trackEvent).toHaveBeenLastCalledWith(eventName, fields);
      await flush();
      await flush();
      expect(assign).not.toHaveBeenCalled();
      // Spec §4, §8: a failed log still lets the navigation go.
      await settle(false);
      expect(assign).toHaveBeenCalledWith((link as HTMLAnchorElement).href);
    }
  });

  it("R7.7 native logging: like and unlike, open social share, share presentation by network, copy view link", async () => {
    const open = vi.fn();
    vi.stubGlobal("open", open);
    Object.defineProperty(navigator, "clipboard", { value: { writeText: vi.fn(async () => {}) }, configurable: true });
    renderPage(pageData());

    const like = toolbarGroup("left").getByRole("button", { name: /^Like/ });
    await act(async () => fireEvent.click(like));
    expect(sendLike).toHaveBeenLastCalledWith({ oid: OID }, true, { preproduction: false });
    expect(trackEvent).toHaveBeenLastCalledWith("like", { oid: OID });
    await act(async () => fireEvent.click(like));
    expect(sendLike).toHaveBeenLastCalledWith({ oid: OID }, false, { preproduction: false });
    expect(trackEvent).toHaveBeenLastCalledWith("unlike", { oid: OID });

    fireEvent.click(screen.getByRole("button", { name: "Share" }));
    const dialog = within(await screen.findByRole("dialog", { name: "Share" }));
    expect(trackEvent).toHaveBeenCalledWith("open_social_share", { oid: OID });
    fireEvent.click(dialog.getByRole("button", { name: "Twitter" }));
    expect(open).toHaveBeenCalledOnce();
    expect(trackEvent).toHaveBeenLastCalledWith("share_presentation", { oid: OID, type: "TWITTER" });
    await act(async () => fireEvent.click(dialog.getByRole("button", { name: "Copy" })));
    expect(trackEvent).toHaveBeenLastCalledWith("copy_view_link", { oid: OID });
  });

  it("R7.7 a failed like is not logged as a like", async () => {
    vi.mocked(sendLike).mockRejectedValueOnce(new Error("Forbidden"));
    renderPage(pageData());
    await act(async () => fireEvent.click(toolbarGroup("left").getByRole("button", { name: /^Like/ })));
    expect(logged().map(([name]) => name)).not.toContain("like");
  });

  it("R7.7 R7.10 a share from the phone's share sheet logs share presentation with type MOBILE", async () => {
    const share = vi.fn(async () => {});
    Object.defineProperty(navigator, "share", { value: share, configurable: true });
    // Issue 12: mobile is the viewport (narrower than 768 px), whatever the user agent guessed.
    vi.stubGlobal("matchMedia", (query: string) => ({ matches: query === "(max-width: 767px)", media: query }));
    try {
      renderPage(pageData({ isMobile: false }));
      await act(async () => fireEvent.click(screen.getByRole("button", { name: "Share" })));
      expect(share).toHaveBeenCalledWith({
        title: "Sourdough basics",
        url: `http://localhost:3000/p/${OID}/sourdough-basics/`,
      });
      expect(trackEvent).toHaveBeenCalledWith("share_presentation", { oid: OID, type: "MOBILE" });
    } finally {
      Reflect.deleteProperty(navigator, "share");
    }
  });

  it("R7.10 issue 12: a wide viewport opens the share modal even when the user agent said mobile", async () => {
    const share = vi.fn(async () => {});
    Object.defineProperty(navigator, "share", { value: share, configurable: true });
    vi.stubGlobal("matchMedia", (query: string) => ({ matches: false, media: query }));
    try {
      renderPage(pageData({ isMobile: true }));
      await act(async () => fireEvent.click(screen.getByRole("button", { name: "Share" })));
      expect(share).not.toHaveBeenCalled();
      expect(screen.getByRole("dialog", { name: "Share" })).toBeTruthy();
    } finally {
      Reflect.deleteProperty(navigator, "share");
    }
  });

  it("R7.7 make a copy logs copy presentation (source VIEW_PAGE), then posts the form once the log settles", async () => {
    const submit = vi.spyOn(HTMLFormElement.prototype, "submit").mockImplementation(() => {});
    renderPage(pageData({ showMakeACopyButton: true, makeACopyRedirectUrl: `/p/${OID}/copy/` }));
    const settle = holdNextLog();
    fireEvent.click(screen.getByRole("button", { name: "Make a copy" }));
    expect(trackEvent).toHaveBeenLastCalledWith("copy_presentation", { oid: OID, source: "VIEW_PAGE" });
    await flush();
    expect(submit).not.toHaveBeenCalled();
    await settle(true);
    expect(submit).toHaveBeenCalledOnce();
  });
});

describe("locale data", () => {
  it("R8.4 missing plural rules: one console error, and the page shows a readable view count", () => {
    const pluralRules = Intl.PluralRules;
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    Reflect.deleteProperty(Intl, "PluralRules");
    try {
      renderPage(pageData());
      expect(screen.getByRole("heading", { level: 1, name: "Sourdough basics" })).toBeTruthy();
      expect(document.querySelector(".toolbar__views")?.textContent).toBe("1,234 views");
      const messages = consoleError.mock.calls.map((args) => args.map(String).join(" "));
      expect(messages.filter((message) => message.includes("Intl.PluralRules is not available"))).toHaveLength(1);
    } finally {
      Object.defineProperty(Intl, "PluralRules", { value: pluralRules, configurable: true, writable: true });
    }
  });
});

describe("issue 28: the author's and related decks hold their room before they come", () => {
  it("issue 28 before more.json answers, each list is its heading and as many empty cards as the page data says", () => {
    const { container } = renderPage(pageData({ isPublicView: true, moreDecksCounts: { byAuthor: 3, related: 2 } }));
    const more = container.querySelector(".more-decks") as HTMLElement;
    expect(more.dataset.state).toBe("waiting");
    const lists = [...more.querySelectorAll("section")].map((section) => [
      section.querySelector("h2")?.textContent,
      section.querySelectorAll(".more-card--placeholder").length,
    ]);
    expect(lists).toEqual([
      ["More from Ada Okafor", 3],
      ["Related presentations", 2],
    ]);
  });

  it("issue 28 an empty list takes no room: no heading, no card", () => {
    const { container } = renderPage(pageData({ isPublicView: true, moreDecksCounts: { byAuthor: 0, related: 0 } }));
    expect(container.querySelectorAll(".more-decks section")).toHaveLength(0);
  });
});
