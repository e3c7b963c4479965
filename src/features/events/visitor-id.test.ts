import { describe, expect, it } from "vitest";
import { createVisitorIds, VISITOR_ID_MAX_AGE_MS } from "./visitor-id";

const SECRET = "visitor-id-test-secret-visitor-id-test-secret";
const OID = "abcdefghijkl";
const NOW = Date.parse("2026-03-04T10:00:00Z");

describe("signed visitor ids (issue 28 item 4)", () => {
  const ids = createVisitorIds(SECRET);

  it("an id issued for a presentation and session is valid for them, in every process with the same secret", () => {
    const id = ids.issue(OID, "session-1", NOW);
    expect(id).toMatch(/^v1\.[0-9a-z]+\.[A-Za-z0-9_-]{22}$/);
    expect(ids.verify(id, OID, "session-1", NOW + 1000)).toBe(true);
    expect(createVisitorIds(SECRET).verify(id, OID, "session-1", NOW)).toBe(true);
  });

  it("is worth nothing for another presentation, another session, under another secret, or altered", () => {
    const id = ids.issue(OID, "session-1", NOW);
    expect(ids.verify(id, "mnopqrstuvwx", "session-1", NOW)).toBe(false);
    expect(ids.verify(id, OID, "session-2", NOW)).toBe(false);
    expect(createVisitorIds(`${SECRET}-other`).verify(id, OID, "session-1", NOW)).toBe(false);
    const [version, issued, signature = ""] = id.split(".");
    const flipped = `${signature.slice(0, 5)}${signature[5] === "a" ? "b" : "a"}${signature.slice(6)}`;
    expect(ids.verify(`${version}.${issued}.${flipped}`, OID, "session-1", NOW)).toBe(false);
    expect(ids.verify(`${version}.${issued}.${signature.slice(0, 21)}`, OID, "session-1", NOW)).toBe(false);
    expect(ids.verify(`v1.zzz.${signature}`, OID, "session-1", NOW)).toBe(false);
    expect(ids.verify(`${id}.more`, OID, "session-1", NOW)).toBe(false);
    expect(ids.verify("", OID, "session-1", NOW)).toBe(false);
    // The separator can't be moved between the parts: ("ab", "c") is not ("a", "bc").
    expect(ids.verify(ids.issue("abcdefghijkl", "xy", NOW), "abcdefghijk", "lxy", NOW)).toBe(false);
  });

  it("expires: an id older than VISITOR_ID_MAX_AGE_MS, or from the future beyond a minute's clock skew, is refused", () => {
    const id = ids.issue(OID, "session-1", NOW);
    expect(ids.verify(id, OID, "session-1", NOW + VISITOR_ID_MAX_AGE_MS - 1000)).toBe(true);
    expect(ids.verify(id, OID, "session-1", NOW + VISITOR_ID_MAX_AGE_MS + 1000)).toBe(false);
    expect(ids.verify(id, OID, "session-1", NOW - 30_000)).toBe(true);
    expect(ids.verify(id, OID, "session-1", NOW - 2 * 60_000)).toBe(false);
  });
});
