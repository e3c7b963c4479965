// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { messagesFor } from "../../../i18n/catalogues";
import { createPodiumIntl } from "../../../i18n/podium-intl";
import type { Card } from "../../../lib/card";
import { PodiumApp } from "../../../ui/PodiumApp";
import { videoCard } from "../service";
import { SIDEBAR_LOAD_AHEAD_PX, type SidebarRows } from "../sidebar-rows";
import { LazySidebar, Sidebar, SidebarCards } from "./Sidebar";

/** Tells an IntersectionObserver's callback that `target` came into view. */
function cameIntoView(callback: IntersectionObserverCallback, observer: object, target: Element) {
  callback([{ isIntersecting: true, target } as IntersectionObserverEntry], observer as IntersectionObserver);
}

/** Every observed thumbnail is in view at once. */
beforeAll(() => {
  globalThis.IntersectionObserver = class {
    constructor(private readonly callback: IntersectionObserverCallback) {}
    observe(target: Element) {
      cameIntoView(this.callback, this, target);
    }
    unobserve() {}
    disconnect() {}
  } as unknown as typeof IntersectionObserver;
});
afterEach(cleanup);

const template: Card = {
  title: "Startup Pitch Deck",
  subTitle: "Ten slides that raise money",
  path: "/presentation-template/pitch-deck/",
  thumbnail: "/p/zyxwvutsrqpo/thumbnail.svg",
  type: "TEMPLATE",
  previewAnimation: null,
  titleLines: 2,
  subTitleLines: 3,
};

describe("sidebar cards", () => {
  // Issue 30: the cards are a part of their own, which LazySidebar loads with the rows.
  beforeAll(() => SidebarCards.preload());

  it("R3.8 a card shows its title and subTitle within their line limits, its thumbnail, opens its path and plays its previewAnimation on hover", () => {
    const video = videoCard({
      slug: "record-yourself",
      title: "Record yourself",
      subTitle: "2 min",
      path: "/video/record-yourself/",
      colors: ["#000000", "#ffffff"],
      hasPreviewAnimation: true,
      position: 1,
    });
    expect(video).toEqual({
      title: "Record yourself",
      subTitle: "2 min",
      path: "/video/record-yourself/",
      thumbnail: "/video/thumbnail/record-yourself.svg",
      type: "VIDEO",
      previewAnimation: "/video/preview/record-yourself.svg",
      titleLines: 2,
      subTitleLines: 1,
    });
    render(
      <PodiumApp intl={createPodiumIntl("en", messagesFor("en"))}>
        <Sidebar rows={{ sidebar: { videos: [video], templates: [template] }, topPicks: [] }} state="loaded" />
      </PodiumApp>,
    );

    const templateLink = within(screen.getByRole("list", { name: "Templates" })).getByRole("link");
    expect(templateLink.getAttribute("href")).toBe("/presentation-template/pitch-deck/");
    expect(templateLink.getAttribute("data-card-type")).toBe("TEMPLATE");
    const title = within(templateLink).getByText("Startup Pitch Deck");
    const subTitle = within(templateLink).getByText("Ten slides that raise money");
    expect(title.style.getPropertyValue("-webkit-line-clamp")).toBe("2");
    expect(subTitle.style.getPropertyValue("-webkit-line-clamp")).toBe("3");
    expect(templateLink.querySelector("img")?.getAttribute("src")).toBe("/p/zyxwvutsrqpo/thumbnail.svg");

    const videoLink = within(screen.getByRole("list", { name: "Videos" })).getByRole("link");
    expect(videoLink.getAttribute("href")).toBe("/video/record-yourself/");
    expect(videoLink.getAttribute("data-card-type")).toBe("VIDEO");
    const thumbnail = videoLink.querySelector("img");
    expect(thumbnail?.getAttribute("src")).toBe("/video/thumbnail/record-yourself.svg");
    act(() => {
      fireEvent.mouseEnter(videoLink);
    });
    expect(thumbnail?.getAttribute("src")).toBe("/video/preview/record-yourself.svg");
    act(() => {
      fireEvent.mouseLeave(videoLink);
    });
    expect(thumbnail?.getAttribute("src")).toBe("/video/thumbnail/record-yourself.svg");
    // Without a previewAnimation the thumbnail stays.
    act(() => {
      fireEvent.mouseEnter(templateLink);
    });
    expect(templateLink.querySelector("img")?.getAttribute("src")).toBe("/p/zyxwvutsrqpo/thumbnail.svg");
  });
});

describe("issue 11: the sidebar's rows load after the page", () => {
  const card = (overrides: Partial<Card>): Card => ({ ...template, ...overrides });
  const rows: SidebarRows = {
    sidebar: {
      videos: [
        card({
          type: "VIDEO",
          path: "/video/explore/#a",
          title: "With a preview",
          previewAnimation: "/video/preview/a.svg",
        }),
        card({ type: "VIDEO", path: "/video/explore/#b", title: "Without one", subTitleLines: 1 }),
      ],
      templates: [card({ title: `Fish & chips <"quoted">`, subTitleLines: 2 })],
    },
    topPicks: [card({ type: "PRESENTATION", path: "/p/abcdefghijkl/deck/", subTitle: "Ada", titleLines: 2 })],
  };
  const intl = createPodiumIntl("en", messagesFor("en"));
  /** The observers made, with their margins, and a way to bring their targets into view. */
  let observers: { margin: string | undefined; show: () => void }[] = [];
  beforeEach(() => {
    observers = [];
    globalThis.IntersectionObserver = class {
      constructor(
        private readonly callback: IntersectionObserverCallback,
        options?: IntersectionObserverInit,
      ) {
        this.margin = options?.rootMargin;
      }
      margin: string | undefined;
      observe(target: Element) {
        observers.push({
          margin: this.margin,
          show: () => cameIntoView(this.callback, this, target),
        });
      }
      unobserve() {}
      disconnect() {}
    } as unknown as typeof IntersectionObserver;
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });
  const sidebarObserver = () => {
    const found = observers.find((observer) => observer.margin === `${SIDEBAR_LOAD_AHEAD_PX}px`);
    if (!found) throw new Error("the sidebar isn't watched");
    return found;
  };
  const answer = (body: unknown, status = 200) =>
    Promise.resolve(new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } }));

  it("the server's sidebar has no cards, only headings, held room and plain links to the catalogue pages; it hydrates without a mismatch", async () => {
    const fetchSpy = vi.fn(() => answer(rows));
    vi.stubGlobal("fetch", fetchSpy);
    const container = document.createElement("div");
    document.body.append(container);
    const html = renderToString(
      <PodiumApp intl={intl}>
        <LazySidebar oid="abcdefghijkl" />
      </PodiumApp>,
    );
    container.innerHTML = html;
    expect(html).not.toContain("sidebar-card");
    expect(container.querySelectorAll(".sidebar__placeholder")).toHaveLength(3);
    expect(
      [...container.querySelectorAll<HTMLAnchorElement>("a.sidebar__more")].map((a) => a.getAttribute("href")),
    ).toEqual(["/video/explore/", "/presentation-template/", "/gallery/"]);
    expect([...container.querySelectorAll("h2")].map((h) => h.textContent)).toEqual([
      "Videos",
      "Templates",
      "Staff picks",
    ]);

    const problems: unknown[] = [];
    const consoleError = vi.spyOn(console, "error").mockImplementation((...args) => problems.push(args));
    await act(async () => {
      hydrateRoot(
        container,
        <PodiumApp intl={intl}>
          <LazySidebar oid="abcdefghijkl" />
        </PodiumApp>,
        { onRecoverableError: (error) => problems.push(error) },
      );
    });
    consoleError.mockRestore();
    expect(problems).toEqual([]);
    // Not near the viewport yet: nothing asked.
    expect(fetchSpy).not.toHaveBeenCalled();
    container.remove();
  });

  it("within 600 px of the viewport it fetches /p/{oid}/sidebar.json once and draws the rows with the same cards", async () => {
    const fetchSpy = vi.fn((_url: string) => answer(rows));
    vi.stubGlobal("fetch", fetchSpy);
    render(
      <PodiumApp intl={intl}>
        <LazySidebar oid="abcdefghijkl" />
      </PodiumApp>,
    );
    expect(screen.queryByRole("list", { name: "Videos" })).toBeNull();
    await act(async () => sidebarObserver().show());
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    expect(fetchSpy.mock.calls[0]?.[0]).toBe("/p/abcdefghijkl/sidebar.json");
    const videos = await screen.findByRole("list", { name: "Videos" });
    expect(within(videos).getAllByRole("link")).toHaveLength(2);
    expect(within(screen.getByRole("list", { name: "Templates" })).getByRole("link").textContent).toContain(
      `Fish & chips <"quoted">`,
    );
    expect(
      within(screen.getByRole("list", { name: "Staff picks" }))
        .getByRole("link")
        .getAttribute("href"),
    ).toBe("/p/abcdefghijkl/deck/");
    expect(document.querySelector(".sidebar__placeholder")).toBeNull();
    expect(document.querySelector(".sidebar")?.getAttribute("data-state")).toBe("loaded");
    // Loaded, the cards behave: the lazy thumbnails load, the preview plays on hover.
    const withPreview = within(videos).getByRole("link", { name: /With a preview/ });
    act(() => {
      for (const observer of observers.slice(1)) observer.show();
    });
    const thumbnail = withPreview.querySelector("img");
    expect(thumbnail?.getAttribute("src")).toBe(template.thumbnail);
    act(() => {
      fireEvent.mouseEnter(withPreview);
    });
    expect(thumbnail?.getAttribute("src")).toBe("/video/preview/a.svg");
  });

  it("a failed load says so with Retry (in the visitor's language), and Retry loads the rows", async () => {
    const fetchSpy = vi
      .fn()
      .mockImplementationOnce(() => answer({ error: "nope" }, 500))
      .mockImplementationOnce(() => Promise.reject(new TypeError("offline")))
      .mockImplementation(() => answer(rows));
    vi.stubGlobal("fetch", fetchSpy);
    render(
      <PodiumApp intl={createPodiumIntl("de", messagesFor("de"))}>
        <LazySidebar oid="abcdefghijkl" />
      </PodiumApp>,
    );
    await act(async () => sidebarObserver().show());
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain(messagesFor("de")["sidebar.loadError"]);
    // No held room left empty under an error: the columns keep their headings and links.
    expect(document.querySelector(".sidebar__placeholder")).toBeNull();
    expect(screen.getAllByRole("link")).toHaveLength(3);
    fireEvent.click(within(alert).getByRole("button", { name: messagesFor("de")["sidebar.retry"] }));
    expect(document.activeElement).toBe(document.querySelector("aside.sidebar"));
    // Offline this time: the error again, then the rows.
    const again = await screen.findByRole("alert");
    fireEvent.click(within(again).getByRole("button"));
    expect(await screen.findByRole("list", { name: messagesFor("de")["sidebar.videos"] })).toBeTruthy();
    expect(screen.queryByRole("alert")).toBeNull();
    expect(fetchSpy).toHaveBeenCalledTimes(3);
  });

  it("the staff picks' column goes when there are none", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(() => answer({ ...rows, topPicks: [] })),
    );
    render(
      <PodiumApp intl={intl}>
        <LazySidebar oid="abcdefghijkl" />
      </PodiumApp>,
    );
    await act(async () => sidebarObserver().show());
    await screen.findByRole("list", { name: "Videos" });
    expect(screen.queryByRole("heading", { name: "Staff picks" })).toBeNull();
  });
});
