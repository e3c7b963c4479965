import { randomFillSync } from "node:crypto";

/** Random bytes drawn from the system at once, for this many ids (as randomUUID buffers its own). */
const IDS_PER_DRAW = 512;
/** Random bytes in one id: 74 random bits of UUIDv7's 80, the version and variant bits set over them. */
const RANDOM_BYTES = 10;
const VARIANT_DIGITS = "89ab";

let pool = Buffer.alloc(0);
let taken = 0;

/**
 * Issue 32 item 4: an accepted event's id, a UUIDv7 (RFC 9562): the acceptance time in ms in its
 * first 48 bits, then 74 random bits. `usage_events.event_uid` is unique (a redelivered batch stores
 * nothing twice), and random (v4) ids landed all over that index: each insert touched a leaf
 * of its own (after a checkpoint, each a full page in the WAL) and split leaves half full. Ids that
 * grow with time land at the index's right edge, as the serial primary key's do. Two ids of one
 * millisecond differ by their random bits only (74 of them: as unlikely to meet as two v4 ids).
 */
export function timeOrderedId(now: number): string {
  if (taken + RANDOM_BYTES > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafe(IDS_PER_DRAW * RANDOM_BYTES));
    taken = 0;
  }
  const random = pool.toString("hex", taken, taken + RANDOM_BYTES);
  taken += RANDOM_BYTES;
  // 48 bits of ms: 12 hex digits until the year 10889.
  const time = Math.max(0, Math.floor(now)).toString(16).padStart(12, "0");
  // The version (7) replaces the first random digit, the variant (0b10) the top two bits of the fifth.
  const variant = VARIANT_DIGITS.charAt(Number.parseInt(random.charAt(4), 16) & 3);
  return `${time.slice(0, 8)}-${time.slice(8)}-7${random.slice(1, 4)}-${variant}${random.slice(5, 8)}-${random.slice(8)}`;
}
