import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";

/** OWASP's scrypt guidance: N = 2^17 (with r = 8: 128 MiB of memory per hash). */
export const PASSWORD_HASH_LOG2N = 17;
/** Issue 29: the cheapest N tests may ask for (2^10: about a millisecond a hash). */
const TEST_PASSWORD_HASH_MIN_LOG2N = 10;

/**
 * Issue 29: the scrypt cost new hashes get, as log2 N. PODIUM_TEST_PASSWORD_HASH_COST lowers it
 * for tests, whose hundreds of sign-ups and logins spent most of their time in scrypt (0.35 s a
 * hash on a quiet core, 2 s on a busy one). It is honoured only where no real person's password
 * can be stored: under Vitest, or a server on an in-memory database (PODIUM_DATA_DIR=memory://,
 * no DATABASE_URL). Anywhere else it is refused, and the server does not start (config.ts).
 * Hashes keep their parameters ("scrypt$N$…"), so either kind verifies under any setting.
 */
export function passwordHashLog2N(env: NodeJS.ProcessEnv = process.env): number {
  const asked = env.PODIUM_TEST_PASSWORD_HASH_COST;
  if (asked === undefined || asked === "") return PASSWORD_HASH_LOG2N;
  const log2N = Number(asked);
  if (!Number.isInteger(log2N) || log2N < TEST_PASSWORD_HASH_MIN_LOG2N || log2N > PASSWORD_HASH_LOG2N) {
    throw new Error(
      `PODIUM_TEST_PASSWORD_HASH_COST must be a whole number from ${TEST_PASSWORD_HASH_MIN_LOG2N} to ${PASSWORD_HASH_LOG2N}, not "${asked}".`,
    );
  }
  const throwaway = env.VITEST !== undefined || (env.PODIUM_DATA_DIR?.startsWith("memory://") && !env.DATABASE_URL);
  if (!throwaway) {
    throw new Error(
      "PODIUM_TEST_PASSWORD_HASH_COST is for tests on an in-memory database only (PODIUM_DATA_DIR=memory://, no DATABASE_URL): real passwords get the full cost.",
    );
  }
  return log2N;
}

/** Passwords are hashed with scrypt (memory-hard, in node:crypto), r = 8, p = 1. */
const SCRYPT = { r: 8, p: 1, keyLength: 64, maxmem: 256 * 1024 * 1024 } as const;
/** N for new hashes, read once, when the first is made (a bad setting stops the server first: config.ts). */
let hashN: number | null = null;

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
  hashN ??= 2 ** passwordHashLog2N();
  const key = await derive(
    password,
    salt,
    { N: hashN, r: SCRYPT.r, p: SCRYPT.p, maxmem: SCRYPT.maxmem },
    SCRYPT.keyLength,
  );
  return ["scrypt", hashN, SCRYPT.r, SCRYPT.p, salt.toString("base64url"), key.toString("base64url")].join("$");
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
