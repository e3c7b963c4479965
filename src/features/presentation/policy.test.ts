import { describe, expect, it } from "vitest";
import type { Viewer } from "../viewer";
import { type AccessFacts, accessOf, isListed } from "./policy";

const person = (userId: string, extra: Partial<NonNullable<Viewer>> = {}): Viewer => ({
  userId,
  oid: `${userId}`.padEnd(12, "x"),
  email: `${userId}@x.test`,
  firstName: "A",
  lastName: "B",
  publicDisplayName: null,
  language: null,
  isAdmin: false,
  isCurator: false,
  ...extra,
});
const facts = (extra: Partial<AccessFacts> = {}): AccessFacts => ({
  ownerId: "1",
  privacy: "public",
  hidden: false,
  collaboratorRight: null,
  ...extra,
});

describe("presentation policy", () => {
  it("public, reusable and unlisted presentations are watchable by anyone; only listed ones are listed", () => {
    for (const privacy of ["public", "reusable", "unlisted"] as const) {
      expect(accessOf(facts({ privacy }), null)).toEqual({ view: true, edit: false, comment: false, manage: false });
    }
    expect(isListed({ privacy: "public", hidden: false })).toBe(true);
    expect(isListed({ privacy: "reusable", hidden: false })).toBe(true);
    expect(isListed({ privacy: "unlisted", hidden: false })).toBe(false);
    expect(isListed({ privacy: "private", hidden: false })).toBe(false);
    expect(isListed({ privacy: "public", hidden: true })).toBe(false);
  });

  it("private presentations: the owner and collaborators, or a live view link", () => {
    const privateFacts = facts({ privacy: "private" });
    expect(accessOf(privateFacts, null).view).toBe(false);
    expect(accessOf(privateFacts, person("2")).view).toBe(false);
    expect(accessOf(privateFacts, person("1"))).toEqual({ view: true, edit: true, comment: true, manage: true });
    expect(accessOf(facts({ privacy: "private", collaboratorRight: "comment" }), person("2"))).toEqual({
      view: true,
      edit: false,
      comment: true,
      manage: false,
    });
    expect(accessOf(facts({ privacy: "private", collaboratorRight: "edit" }), person("2"))).toEqual({
      view: true,
      edit: true,
      comment: true,
      manage: false,
    });
    expect(accessOf(privateFacts, null, { viaLiveLink: true }).view).toBe(true);
    // A collaborator right means nothing to an anonymous visitor.
    expect(accessOf(facts({ privacy: "private", collaboratorRight: "edit" }), null).view).toBe(false);
  });

  it("hidden presentations are seen only by their owner and admins", () => {
    const hidden = facts({ hidden: true });
    expect(accessOf(hidden, null).view).toBe(false);
    expect(accessOf(hidden, person("2")).view).toBe(false);
    expect(accessOf(hidden, person("2"), { viaLiveLink: true }).view).toBe(false);
    expect(accessOf(facts({ hidden: true, collaboratorRight: "edit" }), person("2"))).toEqual({
      view: false,
      edit: false,
      comment: false,
      manage: false,
    });
    expect(accessOf(hidden, person("1")).view).toBe(true);
    expect(accessOf(hidden, person("9", { isAdmin: true })).view).toBe(true);
  });
});
