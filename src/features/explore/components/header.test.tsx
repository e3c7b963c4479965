// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import type { ReactElement } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { messagesFor } from "../../../i18n/catalogues";
import { createPodiumIntl } from "../../../i18n/locales";
import { PodiumApp } from "../../../ui/PodiumApp";
import type { HeaderAppData } from "../header-data";
import { SEARCH_TERMS } from "../search";
import { ViewerHeader } from "./ViewerHeader";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

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
  nativeApp: null,
  ...overrides,
});

describe("viewer header", () => {
  it("R2.23 is not rendered without searchTerms", () => {
    const { container } = renderIntl(<ViewerHeader appData={appData({ searchTerms: null })} />);
    expect(container.querySelector("header")).toBeNull();
  });

  it("R2.6 R2.22 anonymous: Log in and Get started; the placeholder states the count in locale format", () => {
    renderIntl(<ViewerHeader appData={appData()} />);
    expect(screen.getByRole("link", { name: "Log in" }).getAttribute("href")).toBe("/login/");
    expect(screen.getByRole("link", { name: "Get started" }).getAttribute("href")).toBe("/signup/");
    expect(screen.getByRole("searchbox").getAttribute("placeholder")).toBe("Search 1,234 presentations");
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

  it("R2.19 R2.26 R9.11 the native-app badge tries the app, then the store after 300 ms", () => {
    vi.useFakeTimers();
    const assign = vi.fn();
    vi.stubGlobal("location", { ...window.location, assign });
    const nativeApp = {
      type: "ios" as const,
      url: "https://store.example/podium",
      ownProtocolUrl: "podium://open",
      openAppTimeout: 300,
    };
    const { unmount } = renderIntl(<ViewerHeader appData={appData({ nativeApp })} />);
    expect(screen.queryByRole("button", { name: "Open in the iPhone app" })).toBeNull();
    unmount();
    renderIntl(<ViewerHeader appData={appData({ nativeApp, isAuthenticated: true, viewerName: "A" })} />);
    fireEvent.click(screen.getByRole("button", { name: "Open in the iPhone app" }));
    expect(assign).toHaveBeenCalledWith("podium://open");
    act(() => {
      vi.advanceTimersByTime(299);
    });
    expect(assign).toHaveBeenCalledTimes(1);
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(assign).toHaveBeenLastCalledWith("https://store.example/podium");
  });
});
