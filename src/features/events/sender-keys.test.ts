import { describe, expect, it } from "vitest";
import { ADDRESS_KEY_CACHE_SIZE, createSenderKeyer } from "./sender-keys";

const SECRET = "sender-keys-test-secret-sender-keys-test";
const NOON = Date.parse("2025-06-03T12:00:00Z");
const EARLY = Date.parse("2025-06-03T00:20:00Z");

describe("sender keys (issue 14 item 3; issue 32 item 4: address keys cached)", () => {
  it("a cached address key is the one a fresh keyer makes, for each address, presentation and day", () => {
    const cached = createSenderKeyer(SECRET);
    const senders = [
      { address: "192.0.2.1", presentationOid: "abcdefghijkl", now: NOON },
      { address: "192.0.2.1", presentationOid: "bcdefghijklm", now: NOON },
      { address: "192.0.2.1", presentationOid: null, now: NOON },
      { address: "192.0.2.2", presentationOid: "abcdefghijkl", now: NOON },
      { address: "192.0.2.1", presentationOid: "abcdefghijkl", now: NOON + 24 * 60 * 60 * 1000 },
      { address: "192.0.2.1", presentationOid: "abcdefghijkl", now: EARLY },
    ];
    const first = senders.map((sender) => cached.keysOf({ ...sender, visitorId: null }));
    const again = senders.map((sender) => cached.keysOf({ ...sender, visitorId: null }));
    const fresh = senders.map((sender) => createSenderKeyer(SECRET).keysOf({ ...sender, visitorId: null }));
    expect(again).toEqual(first);
    expect(first).toEqual(fresh);
    // Each address, presentation and day has a key of its own (the last sender is the first's, on its day).
    expect(new Set(first.map((keys) => keys.address)).size).toBe(senders.length - 1);
    expect(first[5]?.address).toBe(first[0]?.address);
    // In the first hour of a day, the day before's key too: the one noon of the day before has.
    const dayBefore = cached.keysOf({
      address: "192.0.2.1",
      presentationOid: "abcdefghijkl",
      visitorId: null,
      now: NOON - 24 * 60 * 60 * 1000,
    });
    expect(first[5]?.addressBefore).toBe(dayBefore.address);
    expect(first[0]?.addressBefore).toBeNull();
  });

  it("past its size the cache starts again and still gives each sender its own key", () => {
    const keyer = createSenderKeyer(SECRET);
    const reference = createSenderKeyer(SECRET);
    const count = ADDRESS_KEY_CACHE_SIZE + 5;
    const addressOf = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    const keys = Array.from(
      { length: count },
      (_, i) =>
        keyer.keysOf({ address: addressOf(i), visitorId: null, presentationOid: "abcdefghijkl", now: NOON }).address,
    );
    expect(new Set(keys).size).toBe(count);
    for (const i of [0, 1, ADDRESS_KEY_CACHE_SIZE - 1, ADDRESS_KEY_CACHE_SIZE, count - 1]) {
      const sender = { address: addressOf(i), visitorId: null, presentationOid: "abcdefghijkl", now: NOON };
      expect(keyer.keysOf(sender).address).toBe(reference.keysOf(sender).address);
      expect(keys[i]).toBe(reference.keysOf(sender).address);
    }
  });
});
