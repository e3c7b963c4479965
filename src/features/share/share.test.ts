import { describe, expect, it } from "vitest";
import {
  hashtagsOf,
  LINKEDIN_POPUP_SIZE,
  popupFeatures,
  SHARE_POPUP_SIZE,
  SOCIAL_NETWORKS,
  shareUrlFor,
} from "./share";

const target = {
  url: "https://podium.example/p/abcdefghijkl/x/",
  title: "Bread & butter",
  tags: "baking, sour dough,bread",
};

describe("share", () => {
  it("R9.5 the networks", () => {
    expect(SOCIAL_NETWORKS).toEqual(["FACEBOOK", "LINKEDIN", "TWITTER", "GOOGLE_CLASSROOM"]);
  });
  it("R7.9 sends the text with comma-joined hashtags from the tags", () => {
    expect(hashtagsOf("baking, sour dough,bread")).toBe("baking,sourdough,bread");
    const twitter = new URL(shareUrlFor("TWITTER", target));
    expect(twitter.searchParams.get("text")).toBe("Bread & butter");
    expect(twitter.searchParams.get("hashtags")).toBe("baking,sourdough,bread");
    expect(twitter.searchParams.get("url")).toBe(target.url);
  });
  it("R7.9 Google Classroom gets only url and title", () => {
    const classroom = new URL(shareUrlFor("GOOGLE_CLASSROOM", target));
    expect([...classroom.searchParams.keys()].sort()).toEqual(["title", "url"]);
    expect(classroom.searchParams.get("title")).toBe("Bread & butter");
  });
  it("R9.4 popups are 520×570 (LinkedIn 1300×570), centred", () => {
    expect(SHARE_POPUP_SIZE).toEqual({ width: 520, height: 570 });
    expect(LINKEDIN_POPUP_SIZE).toEqual({ width: 1300, height: 570 });
    expect(popupFeatures("FACEBOOK", { width: 1920, height: 1080 })).toBe(
      "width=520,height=570,left=700,top=255,noopener,noreferrer",
    );
    expect(popupFeatures("LINKEDIN", { width: 1920, height: 1080 })).toBe(
      "width=1300,height=570,left=310,top=255,noopener,noreferrer",
    );
  });
});
