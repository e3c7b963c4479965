import { describe, expect, it } from "vitest";
import { AVATAR_GREY, AVATAR_PALETTE, avatarColor, avatarInitials, ownerDisplayName } from "./owner";

/** WCAG relative luminance contrast of white text on a #rrggbb background. */
function contrastWithWhite(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
  return 1.05 / (luminance + 0.05);
}

describe("owner display name", () => {
  it("R3.1 uses publicDisplayName when present", () => {
    expect(ownerDisplayName({ firstName: "Ada", lastName: "Okafor", publicDisplayName: "Dr. Ada" })).toBe("Dr. Ada");
  });
  it("R3.1 falls back to first name plus last name", () => {
    expect(ownerDisplayName({ firstName: "Ada", lastName: "Okafor", publicDisplayName: null })).toBe("Ada Okafor");
    expect(ownerDisplayName({ firstName: "Ada", lastName: "Okafor", publicDisplayName: "  " })).toBe("Ada Okafor");
    expect(ownerDisplayName({ firstName: "Ada", lastName: "", publicDisplayName: null })).toBe("Ada");
  });
});

describe("avatar", () => {
  it("R3.2 shows uppercase initials of first and last name", () => {
    expect(avatarInitials({ firstName: "ada", lastName: "okafor", email: "x@y.z" })).toBe("AO");
    expect(avatarInitials({ firstName: "Élodie", lastName: "", email: null })).toBe("É");
  });
  it("R3.2 falls back to the first letter of the email", () => {
    expect(avatarInitials({ firstName: "", lastName: "", email: "grace@podium.test" })).toBe("G");
    expect(avatarInitials({ firstName: "", lastName: "", email: null })).toBe("");
  });
  it("R3.3 picks a palette colour by the email, else the username, else grey", () => {
    const byEmail = avatarColor({ email: "grace@podium.test", username: "grace" });
    expect(AVATAR_PALETTE).toContain(byEmail);
    expect(avatarColor({ email: "grace@podium.test", username: "someone-else" })).toBe(byEmail);
    expect(avatarColor({ email: null, username: "grace" })).toBe(avatarColor({ email: "", username: "grace" }));
    expect(AVATAR_PALETTE).toContain(avatarColor({ email: null, username: "grace" }));
    expect(avatarColor({ email: null, username: null })).toBe(AVATAR_GREY);
  });
  it("R3.3 R9.7 spreads over all 8 palette colours", () => {
    expect(AVATAR_PALETTE).toHaveLength(8);
    const seen = new Set(
      Array.from({ length: 400 }, (_, i) => avatarColor({ email: `user${i}@x.test`, username: null })),
    );
    expect(seen.size).toBe(8);
  });
  it("keeps white initials readable on every palette colour (WCAG AA 4.5:1)", () => {
    for (const colour of [...AVATAR_PALETTE, AVATAR_GREY])
      expect(contrastWithWhite(colour)).toBeGreaterThanOrEqual(4.5);
  });
});
