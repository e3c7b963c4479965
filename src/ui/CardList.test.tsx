// @vitest-environment jsdom
import { cleanup, render } from "@testing-library/react";
import type { ReactElement } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { messagesFor } from "../i18n/catalogues";
import { createPodiumIntl } from "../i18n/podium-intl";
import { type Card, MARK_END, MARK_START } from "../lib/card";
import { CardList, FIRST_ROW_CARDS } from "./CardList";
import { PodiumApp } from "./PodiumApp";

afterEach(cleanup);

const renderIntl = (element: ReactElement, locale: "en" | "de" = "en") =>
  render(<PodiumApp intl={createPodiumIntl(locale, messagesFor(locale))}>{element}</PodiumApp>);

const cards: Card[] = Array.from({ length: 7 }, (_, n) => ({
  title: `Deck ${n}`,
  subTitle: "",
  path: `/p/deck${n}/`,
  thumbnail: `/p/deck${n}/thumbnail.svg`,
  type: "TEMPLATE",
  previewAnimation: null,
  titleLines: 2,
  subTitleLines: 1,
}));

const loading = () => [...document.querySelectorAll("img")].map((image) => image.getAttribute("loading"));

describe("card list thumbnails", () => {
  it("issue 30: the first row of the page's first list loads with the page (its largest paint is never lazy); the rest when near the screen", () => {
    renderIntl(<CardList cards={cards} label="Recent" eager={FIRST_ROW_CARDS} />);
    expect(loading()).toEqual([null, null, null, null, "lazy", "lazy", "lazy"]);
  });

  it("a list further down the page loads every thumbnail lazily", () => {
    renderIntl(<CardList cards={cards} label="Recent" />);
    expect(loading().every((value) => value === "lazy")).toBe(true);
  });
});

describe("issue 32 cards drawn as one string", () => {
  const written = '"><img src=x onerror="alert(1)"> & <b>bold</b> \'quoted\'';
  const card: Card = {
    title: written,
    subTitle: `<i>${written}</i>`,
    path: '/p/abc/"x"/',
    thumbnail: "/p/abc/thumbnail.svg?a=1&b=2",
    type: "PRESENTATION",
    previewAnimation: null,
    titleLines: 2,
    subTitleLines: 1,
    stats: { views: 1234, likes: 1, lastModified: "2019-03-04T10:00:00.000Z" },
    marked: {
      title: `${MARK_START}<b>${MARK_END} rest`,
      snippet: `before ${MARK_START}match${MARK_END} <script>x</script>`,
    },
  };

  it("what an owner wrote stays text: titles, subtitles, snippets and addresses are escaped", () => {
    const { container } = renderIntl(<CardList cards={[card]} label={'Results for "<b>"'} />);
    // Nothing written became an element: the only elements are the card's own.
    expect(container.querySelectorAll("b, i, script, img[onerror]")).toHaveLength(0);
    expect(container.querySelectorAll("img")).toHaveLength(1);
    const link = container.querySelector("a.card");
    expect(link?.getAttribute("href")).toBe('/p/abc/"x"/');
    expect(link?.getAttribute("title")).toBe(written);
    expect(container.querySelector("img")?.getAttribute("src")).toBe("/p/abc/thumbnail.svg?a=1&b=2");
    expect(container.querySelector("ul")?.getAttribute("aria-label")).toBe('Results for "<b>"');
    expect(container.querySelector(".card__subtitle")?.textContent).toBe(`<i>${written}</i>`);
    // The marked words are <mark>, the rest text.
    expect([...container.querySelectorAll("mark")].map((mark) => mark.textContent)).toEqual(["<b>", "match"]);
    expect(container.querySelector(".card__title")?.textContent).toBe("<b> rest");
    expect(container.querySelector(".card__snippet")?.textContent).toBe("before match <script>x</script>");
  });

  it("issue 12: a presentation's facts in the visitor's language: compact views, likes, and an old date with its year", () => {
    const { container } = renderIntl(<CardList cards={[card]} label="Results" />);
    const facts = [...container.querySelectorAll(".card__facts > span")].map((span) => span.textContent);
    expect(facts).toEqual(["1.2K views", "1 like", "Mar 4, 2019"]);
    expect(container.querySelector("time")?.getAttribute("datetime")).toBe("2019-03-04T10:00:00.000Z");
    cleanup();
    const german = renderIntl(<CardList cards={[card]} label="Ergebnisse" />, "de").container;
    const inGerman = [...german.querySelectorAll(".card__facts > span")].map((span) => span.textContent);
    expect(inGerman).toEqual(["1234 Aufrufe", "1 Like", "4. März 2019"]);
  });

  it("issue 28: a date is its UTC day, without the year this year, however the instant is written", () => {
    const year = new Date().getUTCFullYear();
    const dateShown = (lastModified: string) => {
      cleanup();
      const stats = { views: 0, likes: 0, lastModified };
      const { container } = renderIntl(<CardList cards={[{ ...card, stats }]} label="Results" />);
      return container.querySelector("time")?.textContent;
    };
    expect(dateShown(`${year}-01-02T23:59:59.999Z`)).toBe("Jan 2");
    expect(dateShown(`${year}-01-02T00:00:00Z`)).toBe("Jan 2");
    expect(dateShown("2019-12-31T23:59:59.999Z")).toBe("Dec 31, 2019");
    // Not as toISOString writes it: read as an instant first (this one is 2019-12-31 in UTC).
    expect(dateShown("2020-01-01T01:00:00+02:00")).toBe("Dec 31, 2019");
    expect(dateShown("not a date")).toBe("");
  });
});
