// @vitest-environment jsdom
import { cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { Card } from "../lib/card";
import { CardList, FIRST_ROW_CARDS } from "./CardList";

afterEach(cleanup);

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
    render(<CardList cards={cards} label="Recent" eager={FIRST_ROW_CARDS} />);
    expect(loading()).toEqual([null, null, null, null, "lazy", "lazy", "lazy"]);
  });

  it("a list further down the page loads every thumbnail lazily", () => {
    render(<CardList cards={cards} label="Recent" />);
    expect(loading().every((value) => value === "lazy")).toBe(true);
  });
});
