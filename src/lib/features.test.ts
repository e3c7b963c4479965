import { describe, expect, it } from "vitest";
import { readFeature } from "./features";

describe("feature flags", () => {
  it("R5.4 R8.5 reading an unknown flag throws 'Feature not passed from backend'", () => {
    expect(() => readFeature({ known: true }, "unknown")).toThrow(new Error("Feature not passed from backend"));
    expect(() => readFeature({}, "toString")).toThrow("Feature not passed from backend");
  });
  it("R3.6 reads flags passed from the backend", () => {
    expect(readFeature({ "allow-content-curation": true }, "allow-content-curation")).toBe(true);
    expect(readFeature({ "allow-content-curation": false }, "allow-content-curation")).toBe(false);
  });
});
