/** Public ids: 12 characters of [a-z0-9], like the spec's presentation oids. */
export const OID_PATTERN = /^[a-z0-9]{12}$/;
const OID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

export function isOid(value: string): boolean {
  return OID_PATTERN.test(value);
}

/** A fresh random oid (crypto-strong; spec §8 names the error when that is unavailable). */
export function newOid(): string {
  const cryptoApi = globalThis.crypto;
  if (!cryptoApi?.getRandomValues) throw new Error("crypto.getRandomValues() not supported");
  let oid = "";
  while (oid.length < 12) {
    for (const byte of cryptoApi.getRandomValues(new Uint8Array(16))) {
      // 252 is the largest multiple of 36 below 256: skipping bytes above it keeps characters uniform.
      if (byte < 252 && oid.length < 12) oid += OID_ALPHABET[byte % 36];
    }
  }
  return oid;
}

/** A stable oid for seeded content, derived from a key (FNV-1a, two rounds). */
export function stableOid(key: string): string {
  let oid = "";
  let round = 0;
  while (oid.length < 12) {
    let hash = 0x811c9dc5;
    for (const char of `${round}:${key}`) {
      hash ^= char.codePointAt(0) ?? 0;
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
    oid += hash.toString(36).padStart(7, "0").slice(-6);
    round += 1;
  }
  return oid.slice(0, 12);
}

/** "Sourdough: the Basics!" → "sourdough-the-basics" for readable URLs. */
export function slugify(title: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/g, "");
  return slug || "presentation";
}
