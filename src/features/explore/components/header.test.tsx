// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import type { ReactElement } from "react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { messagesFor } from "../../../i18n/catalogues";
import { createPodiumIntl } from "../../../i18n/podium-intl";
import { PodiumApp } from "../../../ui/PodiumApp";
import { AccountMenu } from "../../../ui/SiteLayout";
import { trackEvent } from "../../events/client";
import { flushTimers, holdNextLog } from "../../events/testing/held-log";
import type { HeaderAppData } from "../header-data";
import { SEARCH_TERMS } from "../search";
import { NativeAppBadges, ViewerHeader } from "./ViewerHeader";

vi.mock("../../events/client", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../events/client")>()),
  trackEvent: vi.fn(async () => true),
}));

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.mocked(trackEvent).mockClear();
});

const flush = flushTimers;

const renderIntl = (element: ReactElement) =>
  render(<PodiumApp intl={createPodiumIntl("en", messagesFor("en"))}>{element}</PodiumApp>);

const appData = (overrides: Partial<HeaderAppData> = {}): HeaderAppData => ({
  oid: "abcdefghijkl",
  schemaVersion: "2",
  authorSegment: "other",
  isAuthenticated: false,
  viewerName: null,
  viewerEmail: null,
  searchTerms: SEARCH_TERMS,
  searchableCount: 1234,
  nativeApps: [],
  ...overrides,
});

describe("viewer header", () => {
  // Issue 30: the signed-in parts load as hydration begins in a browser that shows them.
  beforeAll(() => Promise.all([AccountMenu.preload(), NativeAppBadges.preload()]));

  it("R2.23 is not rendered without searchTerms", () => {
    const { container } = renderIntl(<ViewerHeader appData={appData({ searchTerms: null })} />);
    expect(container.querySelector("header")).toBeNull();
  });

  it("R2.6 R2.22 anonymous: Log in and Get started; the placeholder states the count in locale format", () => {
    renderIntl(<ViewerHeader appData={appData()} />);
    expect(screen.getByRole("link", { name: "Log in" }).getAttribute("href")).toBe("/login/");
    expect(screen.getByRole("link", { name: "Get started" }).getAttribute("href")).toBe("/signup/");
    expect(screen.getByRole("combobox").getAttribute("placeholder")).toBe("Search 1,234 presentations");
    expect(screen.getByRole("link", { name: "Podium home" }).getAttribute("href")).toBe("/");
  });

  it("R2.5 R3.6 trending terms follow the author segment (anything else counts as other)", () => {
    renderIntl(<ViewerHeader appData={appData({ authorSegment: "teacher" })} />);
    const links = screen.getAllByRole("link").filter((a) => a.getAttribute("href")?.startsWith("/explore/search/"));
    expect(links.map((a) => a.textContent)).toEqual(SEARCH_TERMS.teacher);
    expect(links[0]?.getAttribute("href")).toBe(
      `/explore/search/?search=${encodeURIComponent(SEARCH_TERMS.teacher[0] ?? "")}`,
    );
  });

  it("R2.25 shows a back button only when a back callback is given", () => {
    const onBack = vi.fn();
    const { unmount } = renderIntl(<ViewerHeader appData={appData()} />);
    expect(screen.queryByRole("button", { name: /Back/ })).toBeNull();
    unmount();
    renderIntl(<ViewerHeader appData={appData()} onBack={onBack} />);
    fireEvent.click(screen.getByRole("button", { name: /Back/ }));
    expect(onBack).toHaveBeenCalledOnce();
  });

  it("R2.24 signed in: the name opens a menu with dashboard, settings and log out; an outside click closes it", () => {
    renderIntl(<ViewerHeader appData={appData({ isAuthenticated: true, viewerName: "Ada Okafor" })} />);
    const button = screen.getByRole("button", { name: "Ada Okafor" });
    expect(button.getAttribute("aria-expanded")).toBe("false");
    fireEvent.click(button);
    expect(button.getAttribute("aria-expanded")).toBe("true");
    expect(screen.getByRole("link", { name: "My dashboard" }).getAttribute("href")).toBe(
      "/dashboard/next/?click_source=viewer_header",
    );
    expect(screen.getByRole("link", { name: "Account settings" }).getAttribute("href")).toBe(
      "/settings/?click_source=viewer_header",
    );
    expect(screen.getByRole("button", { name: "Log out" })).toBeTruthy();
    fireEvent.mouseDown(document.body);
    expect(button.getAttribute("aria-expanded")).toBe("false");
  });

  it("R2.19 R2.26 R9.11 both store badges show (iPhone and Android); each tries its app, then its store after 300 ms", () => {
    vi.useFakeTimers();
    const assign = vi.fn();
    vi.stubGlobal("location", { ...window.location, assign });
    const nativeApps = [
      {
        type: "android" as const,
        url: "https://play.example/podium",
        ownProtocolUrl: "podium-android://open",
        openAppTimeout: 300,
      },
      {
        type: "ios" as const,
        url: "https://store.example/podium",
        ownProtocolUrl: "podium://open",
        openAppTimeout: 300,
      },
    ];
    const { unmount } = renderIntl(<ViewerHeader appData={appData({ nativeApps })} />);
    expect(screen.queryByRole("button", { name: "Open in the iPhone app" })).toBeNull();
    unmount();
    renderIntl(<ViewerHeader appData={appData({ nativeApps, isAuthenticated: true, viewerName: "A" })} />);
    const group = screen.getByRole("group", { name: "Podium has apps for iPhone and Android." });
    const badges = [...group.querySelectorAll("button")].map((button) => button.textContent);
    expect(badges).toEqual(["Open in the iPhone app", "Open in the Android app"]);
    for (const app of [nativeApps[1], nativeApps[0]]) {
      assign.mockClear();
      const name = app?.type === "ios" ? "Open in the iPhone app" : "Open in the Android app";
      fireEvent.click(screen.getByRole("button", { name }));
      expect(assign).toHaveBeenCalledWith(app?.ownProtocolUrl);
      act(() => {
        vi.advanceTimersByTime(299);
      });
      expect(assign).toHaveBeenCalledTimes(1);
      act(() => {
        vi.advanceTimersByTime(1);
      });
      expect(assign).toHaveBeenLastCalledWith(app?.url);
    }
  });

  it("R7.8 R3.10 search presentations is logged with the search log, and the search goes once the log settles", async () => {
    const assign = vi.fn();
    vi.stubGlobal("location", { ...window.location, assign });
    vi.stubGlobal("matchMedia", () => ({ matches: false }));
    renderIntl(<ViewerHeader appData={appData()} />);
    const box = screen.getByRole("combobox");
    fireEvent.change(box, { target: { value: "water cycle" } });
    const settle = holdNextLog();
    fireEvent.submit(box.closest("form") as HTMLFormElement);
    expect(trackEvent).toHaveBeenLastCalledWith("search_presentations", {
      oid: "abcdefghijkl",
      search_term: "water cycle",
      search_type: "PRESENT",
    });
    await flush();
    expect(assign).not.toHaveBeenCalled();
    await settle(false);
    expect(assign).toHaveBeenCalledWith("/explore/search/?search=water%20cycle");

    // A trending-search button is a search too.
    const trending = screen.getAllByRole("link").find((a) => a.textContent === SEARCH_TERMS.other[0]);
    if (!trending) throw new Error("no trending term");
    fireEvent.click(trending);
    expect(trackEvent).toHaveBeenLastCalledWith("search_presentations", {
      oid: "abcdefghijkl",
      search_term: SEARCH_TERMS.other[0],
      search_type: "PRESENT",
    });
  });

  it("R7.8 the search bar logs being clicked and entered", () => {
    renderIntl(<ViewerHeader appData={appData({ oid: null })} />);
    const box = screen.getByRole("combobox");
    fireEvent.focus(box);
    expect(trackEvent).toHaveBeenLastCalledWith("enter_search_bar", {});
    fireEvent.click(box);
    expect(trackEvent).toHaveBeenLastCalledWith("search_bar_clicked", {});
  });

  it("R7.8 Log in logs visit pricing page, Get started visit sign-up page, the logo click logo; each navigates after its log", async () => {
    const assign = vi.fn();
    vi.stubGlobal("location", { ...window.location, assign });
    renderIntl(<ViewerHeader appData={appData()} />);
    const cases: [string, string, RegExp][] = [
      ["Log in", "visit_pricing_page", /\/login\/$/],
      ["Get started", "visit_signup_page", /\/signup\/$/],
      ["Podium home", "click_logo", /^http:\/\/[^/]+\/$/],
    ];
    for (const [name, eventName, target] of cases) {
      assign.mockClear();
      const settle = holdNextLog();
      const link = screen.getByRole("link", { name });
      // The click's own navigation is held back until the log settles.
      expect(fireEvent.click(link)).toBe(false);
      expect(trackEvent).toHaveBeenLastCalledWith(eventName, { oid: "abcdefghijkl" });
      await flush();
      await flush();
      expect(assign).not.toHaveBeenCalled();
      await settle(true);
      expect(assign).toHaveBeenCalledWith(expect.stringMatching(target));
    }
  });
});
