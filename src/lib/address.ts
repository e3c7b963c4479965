/**
 * Issue 27 item 6: IPv6 addresses are counted by their /64 prefix. One home or phone usually gets
 * a whole /64 and may use any address in it (privacy extensions pick a new one every day or so),
 * so counting each IPv6 address apart let one person count as billions. IPv4 is counted by the
 * full address, an IPv4-mapped IPv6 address (`::ffff:203.0.113.7`, how a dual-stack socket sees
 * an IPv4 visitor) as the IPv4 address it maps.
 */
const IPV6_PREFIX_GROUPS = 4;

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const HEX_GROUP = /^[0-9a-f]{1,4}$/;

/**
 * Whom a per-address limit counts for this address: the IPv4 address itself, or an IPv6 address's
 * /64 as `2001:db8:1:2::/64`. Anything else (an empty address, a name) is its own key, lower-cased.
 */
export function addressKey(address: string): string {
  const text = address.trim().toLowerCase();
  if (IPV4.test(text)) return text;
  const groups = ipv6Groups(text);
  if (!groups) return text;
  if (isMappedIpv4(groups)) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
  }
  return `${groups
    .slice(0, IPV6_PREFIX_GROUPS)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}

/** `::ffff:a.b.c.d` (or its hexadecimal form): the first 80 bits zero, then 16 bits of ones. */
function isMappedIpv4(groups: readonly number[]): boolean {
  return groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
}

/** The eight 16-bit groups of an IPv6 address (zone removed, `::` expanded, a trailing IPv4 read), or null. */
function ipv6Groups(text: string): number[] | null {
  const address = text.replace(/%.*$/, "");
  if (!address.includes(":")) return null;
  const halves = address.split("::");
  if (halves.length > 2) return null;
  const read = (part: string | undefined): number[] | null => {
    if (!part) return [];
    const groups: number[] = [];
    const pieces = part.split(":");
    for (const [index, piece] of pieces.entries()) {
      const ipv4 = index === pieces.length - 1 ? IPV4.exec(piece) : null;
      if (ipv4) {
        const bytes = ipv4.slice(1).map(Number);
        if (bytes.some((byte) => byte > 255)) return null;
        const [a = 0, b = 0, c = 0, d = 0] = bytes;
        groups.push((a << 8) | b, (c << 8) | d);
      } else if (HEX_GROUP.test(piece)) {
        groups.push(Number.parseInt(piece, 16));
      } else {
        return null;
      }
    }
    return groups;
  };
  const head = read(halves[0]);
  const tail = read(halves[1]);
  if (!head || !tail) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const missing = 8 - head.length - tail.length;
  if (missing < 1) return null;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}
