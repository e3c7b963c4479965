import { describe, expect, it } from "vitest";
import { ctaLog, searchLog } from "./log-calls";

describe("log records", () => {
  it("R3.10 the search log: search_term and search_type PRESENT", () => {
    expect(searchLog(" water cycle ")).toEqual({ search_term: "water cycle", search_type: "PRESENT" });
  });

  it("R3.10 the CTA log: cta_location, cta_text, cta_type LINK or BUTTON, target_url", () => {
    expect(ctaLog("bottom_band", "Learn more", "BUTTON", "/product/")).toEqual({
      cta_location: "bottom_band",
      cta_text: "Learn more",
      cta_type: "BUTTON",
      target_url: "/product/",
    });
  });
});
