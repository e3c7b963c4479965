// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/** R8.7 with a browser that has no crypto.getRandomValues: a fresh copy of the events client each time. */
beforeEach(() => {
  vi.resetModules();
  document.documentElement.dataset.env = "production";
  document.documentElement.dataset.cookies = "off";
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("usage session ids without secure random numbers", () => {
  it("R8.7 raise 'crypto.getRandomValues() not supported' instead of an id of zeros", async () => {
    vi.stubGlobal("crypto", {});
    const { randomId, NO_SECURE_RANDOM_MESSAGE } = await import("./client");
    expect(NO_SECURE_RANDOM_MESSAGE).toBe("crypto.getRandomValues() not supported");
    expect(() => randomId()).toThrow(new Error("crypto.getRandomValues() not supported"));
  });

  it("R8.7 R8.10 an event then isn't sent with a made-up id: the error is reported and trackEvent resolves false", async () => {
    vi.stubGlobal("crypto", {});
    const beacon = vi.fn(() => true);
    Object.defineProperty(navigator, "sendBeacon", { configurable: true, value: beacon });
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    const { trackEvent } = await import("./client");
    expect(await trackEvent("transcript_opened", { oid: "abcdefghijkl" })).toBe(false);
    expect(beacon).not.toHaveBeenCalled();
    expect(consoleError).toHaveBeenCalledWith(new Error("crypto.getRandomValues() not supported"));
  });

  it("R8.7 with crypto.getRandomValues, ids are 24 random hex digits", async () => {
    const { randomId } = await import("./client");
    const a = randomId();
    expect(a).toMatch(/^[0-9a-f]{24}$/);
    expect(a).not.toBe("0".repeat(24));
    expect(randomId()).not.toBe(a);
  });
});
