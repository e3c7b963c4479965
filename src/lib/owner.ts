/** Spec §3 Owner and Avatar rules, shared by server and browser. */

export interface OwnerNames {
  firstName: string;
  lastName: string;
  publicDisplayName: string | null;
}

/** Spec §3: publicDisplayName if present, otherwise first name plus last name. */
export function ownerDisplayName(owner: OwnerNames): string {
  const publicName = owner.publicDisplayName?.trim();
  if (publicName) return publicName;
  return [owner.firstName.trim(), owner.lastName.trim()].filter(Boolean).join(" ");
}

/** Spec §3: uppercase initials from first and last name; fallback the email's first letter. */
export function avatarInitials(owner: { firstName: string; lastName: string; email: string | null }): string {
  const initials = [owner.firstName, owner.lastName]
    .map((name) => Array.from(name.trim())[0] ?? "")
    .join("")
    .toLocaleUpperCase();
  if (initials) return initials;
  return (Array.from(owner.email?.trim() ?? "")[0] ?? "").toLocaleUpperCase();
}

/**
 * Spec §3, §9: an 8-colour palette. Each colour carries white initials at a contrast of
 * at least 4.5:1 (WCAG 2.2 AA for text).
 */
export const AVATAR_PALETTE = [
  "#1f5fbf",
  "#8a3ffc",
  "#b0306a",
  "#c2410c",
  "#0f766e",
  "#4d7c0f",
  "#6d28d9",
  "#0e7490",
] as const;
/** Spec §3: grey when neither email nor username exists. */
export const AVATAR_GREY = "#5f6368";

/** Spec §3: colour by hashing the email, else the username, else grey. */
export function avatarColor(owner: { email: string | null; username: string | null }): string {
  const key = owner.email?.trim().toLowerCase() || owner.username?.trim() || "";
  if (!key) return AVATAR_GREY;
  let hash = 0;
  for (const char of key) hash = (Math.imul(hash, 31) + (char.codePointAt(0) ?? 0)) | 0;
  return AVATAR_PALETTE[Math.abs(hash) % AVATAR_PALETTE.length] ?? AVATAR_GREY;
}
