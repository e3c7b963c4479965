import { Redis } from "ioredis";

/**
 * The Redis connection every process shares its limits through (issue 16 item 1; REDIS_URL).
 * Commands never wait for a lost connection: with the offline queue off, a command fails at once
 * while Redis is away, and the limits fall back (server/shared/redis-limits.ts; README
 * "Deployment: several processes"). ioredis reconnects by itself.
 */

/** A Redis command that hasn't answered in this long fails (a stalled Redis must not hold requests). */
export const REDIS_COMMAND_TIMEOUT_MS = 500;
/** Connecting gives up after this long, then retries. */
const REDIS_CONNECT_TIMEOUT_MS = 2_000;
/** Reconnection waits grow by this much per try, up to REDIS_MAX_RECONNECT_DELAY_MS. */
const REDIS_RECONNECT_STEP_MS = 200;
const REDIS_MAX_RECONNECT_DELAY_MS = 2_000;
/** How long a start waits for the first connection before it goes on (not ready until it connects). */
export const REDIS_FIRST_CONNECT_WAIT_MS = 5_000;
/** The same warning about a lost Redis is logged at most this often. */
const REDIS_WARNING_INTERVAL_MS = 30_000;

export interface SharedRedis {
  /** The client; every key it names is prefixed with PODIUM_REDIS_PREFIX. */
  readonly client: Redis;
  /** Connected right now. */
  connected(): boolean;
  /** Says a warning once in REDIS_WARNING_INTERVAL_MS (a flood of failed commands logs one line). */
  warn(message: string): void;
  /** Resolves once connected or after `ms`, whichever comes first. */
  waitUntilConnected(ms: number): Promise<boolean>;
  close(): Promise<void>;
}

export function openRedis(url: string, prefix: string, log: (message: string) => void): SharedRedis {
  const client = new Redis(url, {
    keyPrefix: prefix,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    retryStrategy: (times) => Math.min(times * REDIS_RECONNECT_STEP_MS, REDIS_MAX_RECONNECT_DELAY_MS),
  });
  let lastWarning = 0;
  let closing = false;
  const warn = (message: string) => {
    const now = Date.now();
    if (now - lastWarning < REDIS_WARNING_INTERVAL_MS) return;
    lastWarning = now;
    log(message);
  };
  let wasReady = false;
  client.on("error", (error: Error) => {
    if (!closing) warn(`Redis unreachable (${error.message}); limits count in this process until it is back`);
  });
  client.on("ready", () => {
    if (wasReady) log("Redis reachable again; limits are shared again");
    wasReady = true;
    lastWarning = 0;
  });
  return {
    client,
    connected: () => client.status === "ready",
    warn,
    async waitUntilConnected(ms) {
      if (client.status === "ready") return true;
      return new Promise((resolve) => {
        const done = (ok: boolean) => {
          clearTimeout(timer);
          client.off("ready", onReady);
          resolve(ok);
        };
        const onReady = () => done(true);
        const timer = setTimeout(() => done(false), ms);
        client.on("ready", onReady);
      });
    },
    async close() {
      closing = true;
      try {
        await client.quit();
      } catch {
        client.disconnect();
      }
    },
  };
}
