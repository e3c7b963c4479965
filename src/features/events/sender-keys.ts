import { createHmac } from "node:crypto";
import { addressKey } from "../../lib/address";

/**
 * Who sent a usage event, as keys the server derives (issue 14 item 3), never the address itself
 * and never anything the browser chose unchecked. Plausible's design: an HMAC of a salt that
 * changes every UTC day with the sending address, and (issue 28 item 4) with the visitor the
 * server signed an id for (visitor-id.ts: a usage session of one browser) and the presentation.
 * Every process derives the same day's salt from the app's secret, so several processes agree
 * on a visitor without talking to each other. In the first hour of a day an event also carries its keys under the day
 * before's salt, so a visitor (or address) is still known across midnight for the 30-minute view
 * window and the hourly address cap; otherwise one day's keys can't be joined with another's.
 */
export interface SenderKeys {
  /**
   * The sending address, keyed with the day's salt: the per-address view cap. Issue 27 item 6: an
   * IPv6 address by its /64 (one person's), IPv4 by the full address (lib/address.ts).
   */
  address: string;
  /**
   * The visitor of a presentation (the usage session a server-issued visitor id was signed for, and
   * the presentation), keyed with the day's salt; null when the event names no presentation or
   * carries no valid visitor id (then it counts no view).
   */
  visitor: string | null;
  /** The address under the day before's salt, in the first hour of a UTC day; else null. */
  addressBefore: string | null;
  /** The visitor under the day before's salt, in the first hour of a UTC day; else null. */
  visitorBefore: string | null;
}

export interface SenderKeyer {
  keysOf(sender: {
    address: string;
    /** The usage session a valid visitor id was signed for (visitor-id.ts), else null. */
    visitorId: string | null;
    presentationOid: string | null;
    now: number;
  }): SenderKeys;
}

/** One UTC day in ms: the salt's lifetime. */
const SALT_DAY_MS = 24 * 60 * 60 * 1000;
/** How long into a day the day before's keys still matter: the longest window they are compared in (the hourly address cap). */
const KEYS_OVERLAP_MS = 60 * 60 * 1000;
/**
 * Issue 32 item 4: address keys kept at most (an address sends many events about one deck; an
 * HMAC was a tenth of the intake's CPU per event). Past it the cache starts again.
 */
export const ADDRESS_KEY_CACHE_SIZE = 10_000;

export function createSenderKeyer(secret: string): SenderKeyer {
  const salts = new Map<number, Buffer>();
  const saltOf = (day: number) => {
    let salt = salts.get(day);
    if (!salt) {
      salt = createHmac("sha256", secret).update(`podium usage-event salt ${day}`).digest();
      if (salts.size >= 4) salts.clear();
      salts.set(day, salt);
    }
    return salt;
  };
  const key = (salt: Buffer, parts: readonly string[]) =>
    createHmac("sha256", salt).update(parts.join("\u0000")).digest("base64url").slice(0, 22);
  /** Address keys by day, address and presentation (the same inputs always give the same key). */
  let addressKeys = new Map<string, string>();
  const addressKeyOf = (day: number, address: string, presentationOid: string | null) => {
    const cached = `${day} ${address} ${presentationOid ?? ""}`;
    let made = addressKeys.get(cached);
    if (made === undefined) {
      // Issue 33 item 6: made for one presentation (or none), so one address's keys can't be joined
      // across decks; the cap compares them only within a deck.
      made = key(
        saltOf(day),
        presentationOid === null ? ["address", addressKey(address)] : ["address", addressKey(address), presentationOid],
      );
      if (addressKeys.size >= ADDRESS_KEY_CACHE_SIZE) addressKeys = new Map();
      addressKeys.set(cached, made);
    }
    return made;
  };
  const keysUnder = (day: number, address: string, visitorId: string | null, presentationOid: string | null) => ({
    address: addressKeyOf(day, address, presentationOid),
    visitor:
      presentationOid === null || visitorId === null
        ? null
        : key(saltOf(day), ["visitor-id", visitorId, presentationOid]),
  });
  return {
    keysOf({ address, visitorId, presentationOid, now }) {
      const day = Math.floor(now / SALT_DAY_MS);
      const today = keysUnder(day, address, visitorId, presentationOid);
      const before =
        now - day * SALT_DAY_MS < KEYS_OVERLAP_MS ? keysUnder(day - 1, address, visitorId, presentationOid) : null;
      // Issue 32 item 4: the properties written out; `{ ...today, … }` took V8's slow path, 2.4 µs an event.
      return {
        address: today.address,
        visitor: today.visitor,
        addressBefore: before?.address ?? null,
        visitorBefore: before?.visitor ?? null,
      };
    },
  };
}
