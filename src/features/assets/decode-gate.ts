import sharp from "sharp";

/**
 * Issue 27, item 5: how many images this process decodes at once, and how much memory they may
 * hold together. Every sharp pipeline that decodes a picture from people (uploads, the thumbnails'
 * images) goes through `imageDecodes`, one per process.
 *
 * Measured (libvips 8.18, 2 cores): a 50 MP PNG that isn't interlaced streams through the resize
 * (+90 MB RGB, +245 MB RGBA), but an interlaced one has to be decoded whole (+420 MB for 8-bit
 * RGBA, +615 MB for 16-bit), and so does a progressive JPEG's coefficients: what an image costs
 * follows its decoded size, not its file's. Counting decodes alone let two such images run
 * together (+833 MB for two 50 MP interlaced PNGs; 1.28 GB for six in the probe).
 */

/** Decodes at once per process: sharp works on libuv's 4 threads, shared with zlib and scrypt. */
export const MAX_CONCURRENT_DECODES = 2;
/**
 * Decoded bytes (see `decodeCost`) the decodes in flight may hold together: one image at the
 * pixel limit in 16-bit RGBA (50 MP × 8 bytes). Anything bigger runs alone; ordinary photos
 * (12 MP RGB, 36 MB) two at a time. The process's ceiling for image work is about 1.6 times this
 * (the most a decode was measured to need over its decoded size).
 */
export const DECODE_MEMORY_BUDGET_BYTES = 400 * 1024 * 1024;
/** Decodes waiting their turn at most; more are refused with 503 (a short wait beats a long queue). */
export const MAX_WAITING_DECODES = 16;

// Every image Podium reads is new to libvips (content-addressed, each read once), so its operation
// cache only kept up to 50 MB of finished work nobody asks for again.
sharp.cache(false);
// One libvips thread per image: two images use two of libuv's threads, never all four.
sharp.concurrency(1);

/** What a header says about an image, as sharp's metadata gives it. */
export interface ImageHeader {
  width?: number;
  height?: number;
  pages?: number;
  pageHeight?: number;
  channels?: number;
  depth?: string;
  isProgressive?: boolean;
}

const BYTES_PER_SAMPLE: Record<string, number> = { uchar: 1, char: 1, ushort: 2, short: 2, uint: 4, int: 4, float: 4 };

/** Pixels of every frame together: what the pixel limit counts. */
export function headerPixels(header: ImageHeader): number {
  const width = header.width ?? 0;
  const frameHeight = header.pageHeight ?? header.height ?? 0;
  const pages = header.pages ?? 1;
  return width * frameHeight * pages;
}

/**
 * An image's decoded size from its header (every frame, every channel, at its bit depth), twice
 * that when it is interlaced or progressive: libvips then holds the whole image while it reads it.
 */
export function decodeCost(header: ImageHeader): number {
  const bytes = headerPixels(header) * (header.channels ?? 4) * (BYTES_PER_SAMPLE[header.depth ?? "uchar"] ?? 4);
  return header.isProgressive ? bytes * 2 : bytes;
}

/** Refused because too many decodes are waiting already. */
export class DecodeQueueFullError extends Error {
  override readonly name = "DecodeQueueFullError";
}

/**
 * A FIFO gate: at most `concurrency` decodes at once, holding at most `budgetBytes` of cost
 * together (one that costs more than the budget runs alone), at most `maxWaiting` waiting. The
 * oldest waits first, even when a cheaper one behind it would fit: nobody waits forever.
 */
export function createDecodeGate(options: { concurrency?: number; budgetBytes?: number; maxWaiting?: number } = {}) {
  const concurrency = options.concurrency ?? MAX_CONCURRENT_DECODES;
  const budget = options.budgetBytes ?? DECODE_MEMORY_BUDGET_BYTES;
  const maxWaiting = options.maxWaiting ?? MAX_WAITING_DECODES;
  let running = 0;
  let reserved = 0;
  let peak = 0;
  const waiting: Array<{ cost: number; start: () => void }> = [];
  const fits = (cost: number) => running === 0 || (running < concurrency && reserved + cost <= budget);
  const begin = (cost: number) => {
    running += 1;
    reserved += cost;
    peak = Math.max(peak, running);
  };
  const admit = () => {
    while (waiting.length > 0 && fits(waiting[0]?.cost ?? 0)) {
      const next = waiting.shift();
      if (!next) break;
      begin(next.cost);
      next.start();
    }
  };
  return {
    /** Runs `work` once its cost fits; the cost is held until it settles. */
    async run<T>(cost: number, work: () => Promise<T>): Promise<T> {
      const held = Math.min(Math.max(cost, 0), budget);
      if (waiting.length === 0 && fits(held)) begin(held);
      else {
        if (waiting.length >= maxWaiting) throw new DecodeQueueFullError("too many images are waiting");
        await new Promise<void>((start) => waiting.push({ cost: held, start }));
      }
      try {
        return await work();
      } finally {
        running -= 1;
        reserved -= held;
        admit();
      }
    },
    /** Running now, the most ever running at once (the counter tests read), waiting, bytes held. */
    stats: () => ({ running, peak, waiting: waiting.length, reservedBytes: reserved }),
    resetPeak: () => {
      peak = running;
    },
  };
}

export type DecodeGate = ReturnType<typeof createDecodeGate>;

/** This process's gate: uploads and thumbnails share it. */
export const imageDecodes: DecodeGate = createDecodeGate();
