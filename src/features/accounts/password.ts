import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";

/**
 * Passwords are hashed with scrypt (memory-hard, in node:crypto). Parameters follow
 * OWASP's scrypt guidance (N=2^17, r=8, p=1: 128 MiB of memory per hash).
 */
const SCRYPT = { N: 2 ** 17, r: 8, p: 1, keyLength: 64, maxmem: 256 * 1024 * 1024 } as const;

/**
 * Derivations running at once, per process. scrypt runs on libuv's thread pool (4 threads
 * unless UV_THREADPOOL_SIZE says otherwise), the same pool that compresses responses (zlib),
 * reads files and resolves names. Unbounded, 20 signups at once held every pool thread for
 * seconds (gzip'd pages stalled up to 4.1 s) and 128 MiB each (memory 668 → 1,181 MiB). One at
 * a time leaves the other threads to zlib and fs and caps scrypt's memory at 128 MiB; logins
 * and signups wait their turn in order (each takes a few hundred milliseconds).
 */
export const MAX_CONCURRENT_HASHES = 1;

/**
 * Derivations that may wait for their turn (about 64 × 0.1–0.5 s). Beyond this a new one is
 * refused at once (`PasswordHashingBusyError`: the routes answer 503 with Retry-After) rather
 * than keeping people waiting longer than they would, or letting a flood of logins queue
 * without bound.
 */
export const MAX_WAITING_HASHES = 64;

/** More password work is waiting than the server will queue: try again in a few seconds. */
export class PasswordHashingBusyError extends Error {
  override readonly name = "PasswordHashingBusyError";
  readonly statusCode = 503;
  constructor() {
    super("Too many password checks are waiting; try again in a few seconds.");
  }
}

/** A FIFO of work with at most `concurrency` items running and `maxWaiting` waiting. */
export function createWorkQueue(concurrency: number, maxWaiting: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  return {
    async run<T>(work: () => Promise<T>): Promise<T> {
      if (running >= concurrency) {
        if (waiting.length >= maxWaiting) throw new PasswordHashingBusyError();
        // The slot is handed over by the item that finishes (running stays the same).
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else {
        running += 1;
      }
      try {
        return await work();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else running -= 1;
      }
    },
    /** What runs and waits right now (for tests and diagnostics). */
    stats: () => ({ running, waiting: waiting.length }),
  };
}

const hashing = createWorkQueue(MAX_CONCURRENT_HASHES, MAX_WAITING_HASHES);

/** The password queue's state right now: derivations running and waiting. */
export const passwordHashingStats = hashing.stats;

function derive(password: string, salt: Buffer, options: ScryptOptions, keyLength: number): Promise<Buffer> {
  return hashing.run(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        scrypt(password.normalize("NFKC"), salt, keyLength, options, (error, key) =>
          error ? reject(error) : resolve(key),
        );
      }),
  );
}

/** "scrypt$N$r$p$salt$hash" (base64url), so parameters can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(
    password,
    salt,
    { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p, maxmem: SCRYPT.maxmem },
    SCRYPT.keyLength,
  );
  return ["scrypt", SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const key = await derive(
    password,
    Buffer.from(salt, "base64url"),
    { N: Number(n), r: Number(r), p: Number(p), maxmem: SCRYPT.maxmem },
    expected.length,
  );
  return key.length === expected.length && timingSafeEqual(key, expected);
}
