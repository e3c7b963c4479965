import { describe, expect, it, vi } from "vitest";
import { BREAKPOINTS, KEY_CODES } from "./constants";
import { randomSubset, SUBSET_TOO_LARGE_MESSAGE } from "./random-subset";
import { REDIRECT_WAIT_MS, redirectAfter } from "./redirect";

describe("random subset", () => {
  it("R5.6 R8.6 rejects a count larger than the source with the spec's words", () => {
    expect(() => randomSubset([1, 2, 3], 4)).toThrow(
      new Error("Invalid number of elements provided. Subarray cannot have more elements than original array."),
    );
    expect(SUBSET_TOO_LARGE_MESSAGE).toContain("Subarray cannot have more elements");
  });
  it("returns distinct elements of the source", () => {
    const source = Array.from({ length: 20 }, (_, i) => i);
    for (let run = 0; run < 50; run += 1) {
      const subset = randomSubset(source, 7);
      expect(subset).toHaveLength(7);
      expect(new Set(subset).size).toBe(7);
      for (const item of subset) expect(source).toContain(item);
    }
    expect(randomSubset(source, 0)).toEqual([]);
    expect(randomSubset(source, 20).sort((a, b) => a - b)).toEqual(source);
  });
  it("R8.7 names the missing secure random source", () => {
    const original = globalThis.crypto;
    vi.stubGlobal("crypto", undefined);
    try {
      expect(() => randomSubset([1], 1)).toThrow("crypto.getRandomValues() not supported");
    } finally {
      vi.stubGlobal("crypto", original);
    }
  });
});

describe("redirect helper", () => {
  it("R7.11 R8.10 navigates after the promise settles, even when it fails", async () => {
    const navigate = vi.fn();
    await redirectAfter(navigate, "/a", Promise.reject(new Error("log failed")));
    expect(navigate).toHaveBeenCalledWith("/a");
  });
  it("R7.11 R9.12 without a promise it waits 500 ms by default", async () => {
    const navigate = vi.fn();
    const wait = vi.fn(async () => {});
    await redirectAfter(navigate, "/b", undefined, wait);
    expect(wait).toHaveBeenCalledWith(500);
    expect(REDIRECT_WAIT_MS).toBe(500);
    expect(navigate).toHaveBeenCalledWith("/b");
  });
});

describe("constants", () => {
  it("R2.33 R9.13 breakpoints and key codes", () => {
    expect(BREAKPOINTS).toEqual({ extraSmall: 434, small: 768, medium: 992, large: 1200 });
    expect(KEY_CODES).toEqual({ escape: 27, enter: 13, space: 32, comma: 188 });
  });
});
