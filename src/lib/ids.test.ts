import { describe, expect, it } from "vitest";
import { isOid, newOid, slugify, stableOid } from "./ids";

describe("ids", () => {
  it("makes random 12-character oids", () => {
    const oids = new Set(Array.from({ length: 1000 }, newOid));
    expect(oids.size).toBe(1000);
    for (const oid of oids) expect(isOid(oid)).toBe(true);
  });
  it("derives stable oids for seeded content", () => {
    expect(stableOid("deck:sourdough")).toBe(stableOid("deck:sourdough"));
    expect(stableOid("deck:sourdough")).not.toBe(stableOid("deck:sourdougH"));
    expect(isOid(stableOid("anything"))).toBe(true);
  });
  it("rejects oids with odd characters", () => {
    for (const bad of ["", "ABCDEFGHIJKL", "abc", "abcdefghijk/", "../../etc/pa", "abcdefghijklm", "abcdefghijk%"]) {
      expect(isOid(bad)).toBe(false);
    }
  });
  it("slugifies titles for readable URLs", () => {
    expect(slugify("Sourdough: the Basics!")).toBe("sourdough-the-basics");
    expect(slugify("Crème brûlée 101")).toBe("creme-brulee-101");
    expect(slugify("日本語")).toBe("presentation");
  });
});

describe("stable oids", () => {
  it("do not repeat themselves (both halves differ)", () => {
    for (const key of ["deck:a", "deck:b", "user:ada", "template:pitch-deck"]) {
      const oid = stableOid(key);
      expect(oid.slice(0, 6)).not.toBe(oid.slice(6));
    }
  });
});
