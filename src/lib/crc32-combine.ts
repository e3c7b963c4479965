/**
 * CRC-32 (the gzip one) of a concatenation from the CRCs of its pieces, as zlib's crc32_combine
 * does: crc(A ‖ B) = (crc(A) × x^(8·|B|)) mod P ⊕ crc(B), in GF(2) with bits reflected. Issue 32
 * item 5: a signed-in page's gzip trailer needs the CRC of the whole page; its template's parts are
 * the same on every request, so their CRCs and shifts are worked out once, and each page costs a
 * pass over the person's few strings only.
 */

/** The CRC-32 polynomial, reflected. */
const POLY = 0xedb88320;

/** a × b modulo P, both reflected polynomials (zlib's multmodp). */
function multiplyModP(a: number, b: number): number {
  let m = 0x80000000;
  let p = 0;
  let x = b >>> 0;
  for (;;) {
    if ((a & m) !== 0) {
      p ^= x;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    x = x & 1 ? (x >>> 1) ^ POLY : x >>> 1;
  }
  return p >>> 0;
}

/** x^(2^k) modulo P for k = 0…31 (zlib's x2n_table). */
const X2N: number[] = (() => {
  const table: number[] = [];
  let p = 0x40000000; // x^1
  table.push(p);
  for (let n = 1; n < 32; n++) {
    p = multiplyModP(p, p);
    table.push(p);
  }
  return table;
})();

/** The operator that appends `length` bytes to a CRC (x^(8·length) mod P): for crc32Combine. */
export function crc32Shift(length: number): number {
  let p = 0x80000000; // x^0
  let n = length;
  let k = 3; // 8 = 2^3 bits a byte
  while (n > 0) {
    if (n % 2 === 1) p = multiplyModP(X2N[k & 31] as number, p);
    n = Math.floor(n / 2);
    k++;
  }
  return p >>> 0;
}

/** crc(A ‖ B) from crc(A), crc(B) and crc32Shift(|B|). */
export function crc32Combine(crcA: number, crcB: number, shiftB: number): number {
  return (multiplyModP(shiftB, crcA) ^ crcB) >>> 0;
}
