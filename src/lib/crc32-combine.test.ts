import { randomBytes } from "node:crypto";
import { crc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { crc32Combine, crc32Shift } from "./crc32-combine";

describe("issue 32 item 5: CRC-32 of a concatenation from its pieces' CRCs", () => {
  it("agrees with zlib's CRC of the whole, for pieces of every size from empty to 100 KB", () => {
    const sizes = [0, 1, 2, 3, 7, 8, 255, 256, 1_000, 65_535, 65_536, 100_000];
    for (const sizeA of sizes) {
      for (const sizeB of sizes) {
        const a = randomBytes(sizeA);
        const b = randomBytes(sizeB);
        const whole = crc32(Buffer.concat([a, b]));
        expect(crc32Combine(crc32(a), crc32(b), crc32Shift(sizeB)), `${sizeA} + ${sizeB}`).toBe(whole);
      }
    }
  });

  it("folds many pieces in order, as a page's parts and a person's strings alternate", () => {
    const pieces = Array.from({ length: 50 }, (_, i) => randomBytes((i * 7919) % 3000));
    let crc = 0;
    for (const piece of pieces) crc = crc32Combine(crc, crc32(piece), crc32Shift(piece.length));
    expect(crc).toBe(crc32(Buffer.concat(pieces)));
  });
});
