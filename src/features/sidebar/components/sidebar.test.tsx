// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { messagesFor } from "../../../i18n/catalogues";
import { createPodiumIntl } from "../../../i18n/locales";
import type { Card } from "../../../lib/card";
import { PodiumApp } from "../../../ui/PodiumApp";
import { videoCard } from "../service";
import { Sidebar } from "./Sidebar";

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
