import { describe, expect, it } from "vitest";
import { addressKey } from "./address";

describe("addressKey (issue 27 item 6): whom a per-address limit counts", () => {
  it("counts an IPv4 address by the full address", () => {
    expect(addressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("203.0.113.8")).not.toBe(addressKey("203.0.113.7"));
  });

  it("counts an IPv4-mapped IPv6 address as the IPv4 address it maps, in either notation", () => {
    expect(addressKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("::FFFF:cb00:7107")).toBe("203.0.113.7");
    expect(addressKey("0:0:0:0:0:ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("::ffff:203.0.113.8")).not.toBe(addressKey("::ffff:203.0.113.7"));
  });

  it("counts an IPv6 address by its /64 prefix, however it is written", () => {
    const key = addressKey("2001:db8:1:2::1");
    expect(key).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe(key);
    expect(addressKey("2001:0DB8:0001:0002:0000:0000:0000:0001")).toBe(key);
    expect(addressKey("2001:db8:1:2::5%eth0")).toBe(key);
    // The next /64 is someone else.
    expect(addressKey("2001:db8:1:3::1")).not.toBe(key);
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("fe80::1")).toBe("fe80:0:0:0::/64");
  });

  it("keeps what isn't an address as its own key", () => {
    expect(addressKey("")).toBe("");
    expect(addressKey("not:an:address::x")).toBe("not:an:address::x");
    expect(addressKey("1::2::3")).toBe("1::2::3");
  });
});
