import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "../db/testing";
import { ConfigError, configFromEnv } from "./config";
import { createTestApp } from "./testing";

/**
 * Issue 16: behind a load balancer every request comes from the balancer's address. With
 * PODIUM_TRUST_PROXY naming it, X-Forwarded-For names the visitor, so the per-address request limit
 * (and the per-address view cap, and trending's one count per address) apply to visitors; from
 * anyone else the header is ignored, so a visitor can't name an address of their choosing.
 */
describe("PODIUM_TRUST_PROXY (issue 16)", () => {
  it("reads a hop count or a list of proxy addresses, and says what is wrong with anything else", () => {
    const read = (value: string | undefined) =>
      configFromEnv(value === undefined ? {} : { PODIUM_TRUST_PROXY: value }, { clientDir: null }).trustProxy;
    expect(read(undefined)).toBe(false);
    expect(read("1")).toBe(1);
    expect(read("10.0.0.0/8, 127.0.0.1")).toEqual(["10.0.0.0/8", "127.0.0.1"]);
    expect(read("loopback")).toEqual(["loopback"]);
    expect(() => read("10.0.0.0/99")).toThrow(ConfigError);
    expect(() => read("the balancer")).toThrow(/PODIUM_TRUST_PROXY must be/);
  });

  const [target] = testDatabaseTargets();
  if (!target) return;
  const LIMIT = 3;
  let trusting: Awaited<ReturnType<typeof createTestApp>>;
  let plain: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    trusting = await createTestApp(target, { rateLimitPerMinute: LIMIT, trustProxy: ["192.0.2.10"] });
    plain = await createTestApp(target, { rateLimitPerMinute: LIMIT });
  });
  afterAll(async () => {
    await trusting?.close();
    await plain?.close();
  });

  const statuses = async (
    app: Awaited<ReturnType<typeof createTestApp>>["app"],
    from: string,
    forwardedFor: (i: number) => string,
  ) => {
    const codes: number[] = [];
    for (let i = 0; i < LIMIT + 2; i += 1) {
      const response = await app.inject({
        method: "GET",
        url: "/explore/",
        remoteAddress: from,
        headers: { "x-forwarded-for": forwardedFor(i) },
      });
      codes.push(response.statusCode);
    }
    return codes;
  };

  it("through the trusted balancer, each visitor has their own request limit", async () => {
    const codes = await statuses(trusting.app, "192.0.2.10", (i) => `198.51.100.${i + 1}`);
    expect(codes.every((code) => code === 200)).toBe(true);
    // One visitor through the balancer still meets the limit.
    const one = await statuses(trusting.app, "192.0.2.10", () => "198.51.100.200");
    expect(one.slice(0, LIMIT).every((code) => code === 200)).toBe(true);
    expect(one.slice(LIMIT)).toEqual([429, 429]);
  });

  it("from an address that isn't the balancer, X-Forwarded-For is ignored", async () => {
    const forged = await statuses(trusting.app, "203.0.113.9", (i) => `198.51.100.${i + 50}`);
    expect(forged.slice(LIMIT)).toEqual([429, 429]);
    const untrusted = await statuses(plain.app, "192.0.2.10", (i) => `198.51.100.${i + 80}`);
    expect(untrusted.slice(LIMIT)).toEqual([429, 429]);
  });
});
