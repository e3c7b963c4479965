// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { messagesFor } from "../../../i18n/catalogues";
import { createPodiumIntl } from "../../../i18n/locales";
import type { Card } from "../../../lib/card";
import { PodiumApp } from "../../../ui/PodiumApp";
import { videoCard } from "../service";
import { Sidebar } from "./Sidebar";
import { sidebarFromMarkup } from "./sidebar-markup";

/** Every observed thumbnail is in view at once. */
beforeAll(() => {
  globalThis.IntersectionObserver = class {
    constructor(private readonly callback: IntersectionObserverCallback) {}
    observe(target: Element) {
      this.callback(
        [{ isIntersecting: true, target } as IntersectionObserverEntry],
        this as unknown as IntersectionObserver,
      );
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
        <Sidebar data={{ videos: [video], templates: [template] }} topPicks={[]} />
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

describe("issue 11: the sidebar's cards travel once, as markup", () => {
  const card = (overrides: Partial<Card>): Card => ({ ...template, ...overrides });
  const data = {
    videos: [
      card({
        type: "VIDEO",
        path: "/video/explore/#a",
        title: "With a preview",
        previewAnimation: "/video/preview/a.svg",
      }),
      card({ type: "VIDEO", path: "/video/explore/#b", title: "Without one", subTitleLines: 1 }),
    ],
    templates: [card({ title: `Fish & chips <"quoted">`, subTitle: "  spaced  ", titleLines: 1, subTitleLines: 3 })],
  };
  const topPicks = [card({ type: "PRESENTATION", path: "/p/abcdefghijkl/deck/", subTitle: "", titleLines: 2 })];
  const intl = createPodiumIntl("en", messagesFor("en"));

  it("the view page's entry reads back every card the server drew, and hydrating from them matches the markup", async () => {
    const container = document.createElement("div");
    document.body.append(container);
    container.innerHTML = renderToString(
      <PodiumApp intl={intl}>
        <Sidebar data={data} topPicks={topPicks} />
      </PodiumApp>,
    );
    const read = sidebarFromMarkup(container);
    expect(read).toEqual({ sidebar: data, topPicks });

    const problems: unknown[] = [];
    const consoleError = vi.spyOn(console, "error").mockImplementation((...args) => problems.push(args));
    const markup = container.innerHTML;
    await act(async () => {
      hydrateRoot(
        container,
        <PodiumApp intl={intl}>
          <Sidebar data={read.sidebar ?? { videos: [], templates: [] }} topPicks={read.topPicks} />
        </PodiumApp>,
        { onRecoverableError: (error) => problems.push(error) },
      );
    });
    consoleError.mockRestore();
    expect(problems).toEqual([]);
    // Hydrated, the cards behave: the lazy thumbnails load, the preview plays on hover.
    const withPreview = within(container).getByRole("link", { name: /With a preview/ });
    const thumbnail = withPreview.querySelector("img");
    expect(thumbnail?.getAttribute("src")).toBe(template.thumbnail);
    act(() => {
      fireEvent.mouseEnter(withPreview);
    });
    expect(thumbnail?.getAttribute("src")).toBe("/video/preview/a.svg");
    expect(markup).toContain('data-hover-src="/video/preview/a.svg"');
    container.remove();
  });

  it("a page without a sidebar reads back none", () => {
    expect(sidebarFromMarkup(document.createElement("div"))).toEqual({ sidebar: null, topPicks: [] });
  });
});
