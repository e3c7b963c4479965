import { existsSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { compile as compileTrust } from "@fastify/proxy-addr";
import { passwordHashLog2N } from "../features/accounts/password";
import { DEFAULT_EVENT_QUEUE_LIMIT } from "../features/events/pipeline/in-process";
import {
  DEFAULT_EVENT_STREAM,
  DEFAULT_EVENT_STREAM_MB,
  EVENT_DRAIN_MAX_MS,
} from "../features/events/pipeline/jetstream";
import { DEFAULT_CLIENT_LOG_RETENTION_DAYS, DEFAULT_EVENT_RETENTION_DAYS } from "../features/events/retention";
import type { LiveLimits } from "../features/live/routes";
import type { FeatureFlags } from "../lib/features";
import { type LogFormat, logFormatFrom } from "./request-log";
import { DOCUMENT_WORK_TIMEOUT_MS } from "./workers/documents";
import { PDF_CHILD_MEMORY_MB } from "./workers/pdf-pool";

/** Spec/brief environments: production, pre-production, local, dev, and the no-cookie test host. */
export const ENVIRONMENTS = ["production", "preproduction", "local", "dev", "nocookie"] as const;
export type PodiumEnv = (typeof ENVIRONMENTS)[number];

export interface Config {
  port: number;
  host: string;
  /** A PostgreSQL URL; when absent, the embedded PGlite database in dataDir. */
  databaseUrl: string | null;
  /** Where PGlite keeps its files; "memory://" keeps nothing. */
  dataDir: string;
  env: PodiumEnv;
  /** The origin Podium is reached at, for absolute URLs (sitemap, canonical links). */
  publicUrl: string;
  /** Built browser assets (Vite's client output with its manifest); null serves pages without scripts. */
  clientDir: string | null;
  /** Where the built document worker is (document-worker.js); null: beside the server bundle. */
  workerDir: string | null;
  /** How long one document task (import, export, preview) may run in its worker. */
  documentWorkTimeoutMs: number;
  /** Issue 27: the PDF converter child's resident-memory ceiling in MiB (PODIUM_PDF_MEMORY_MB). */
  pdfMemoryLimitMb: number;
  /** Feature flags passed to pages (spec §3). */
  features: FeatureFlags;
  /** Requests per minute per address before 429 (architecture: rates are limited). */
  rateLimitPerMinute: number;
  /** Log requests and errors: JSON lines, or one readable line a request (server/request-log.ts); false for none. */
  logger: LogFormat | false;
  /** Seed the demo content on start. */
  seedDemo: boolean;
  /** Signs CSRF tokens; when absent, a secret generated once and kept in the database. */
  secret: string | null;
  /** Like and unlike calls per minute per signed-in person (spec §7; 429 beyond). */
  likeRateLimitPerMinute: number;
  /** Login and signup throttling (429 with Retry-After beyond). */
  accountLimits: AccountLimits;
  /** Spec §3 nativeApp: the store and app-protocol URLs of a native app, when there is one (the first configured). */
  nativeApp: NativeAppConfig | null;
  /** R2.26: every configured native app (the iPhone and the Android one), for the header's store badges. */
  nativeApps: NativeAppConfig[];
  /** Spec §4: whether visitors are asked before the usage-session cookie is set (PODIUM_COOKIE_CONSENT). */
  cookieConsentRequired: boolean;
  /** Issue 11: bytes the anonymous page cache may hold (PODIUM_PAGE_CACHE_MB; 0 turns it off). */
  pageCacheMaxBytes: number;
  /**
   * Issue 32 item 3: where searches are found and ranked (PODIUM_SEARCH_INDEX): "memory", the
   * index each process holds (explore/search-memory.ts; the default), or "database", every search
   * a statement (explore/repository.ts).
   */
  searchIndex: SearchIndexKind;
  /** Issue 11 item 4: server processes sharing the port (PODIUM_WORKERS); 1 is a single process, no cluster. */
  workers: number;
  /**
   * Issue 16: which addresses may name the visitor's address in X-Forwarded-For (PODIUM_TRUST_PROXY):
   * the load balancer or CDN in front. false trusts none (the socket's address is the visitor's).
   */
  trustProxy: false | number | string[];
  /** Issue 16 item 1: Redis for the limits every process shares (REDIS_URL); null counts in each process. */
  redisUrl: string | null;
  /** Issue 16 item 1: what every Podium key in Redis starts with (PODIUM_REDIS_PREFIX). */
  redisPrefix: string;
  /**
   * Issue 16 item 6: after SIGTERM, how long /readyz answers 503 while requests are still served,
   * so a load balancer stops sending new ones before the process stops listening (PODIUM_DRAIN_SECONDS).
   */
  drainMs: number;
  /** Issue 14 item 5: days raw usage events are kept (PODIUM_EVENT_RETENTION_DAYS); the per-day view counts stay. */
  eventRetentionDays: number;
  /** Issue 14 item 5: days client logs are kept (PODIUM_CLIENT_LOG_RETENTION_DAYS). */
  clientLogRetentionDays: number;
  /** Issue 14 items 1–2: where accepted usage events wait before they are stored. */
  events: EventPipelineConfig;
  /**
   * Issue 35: live sessions' limits and stream settings (features/live: LIVE_LIMITS,
   * LIVE_HUB_DEFAULTS); tests set smaller ones. Live sessions use NATS_URL when it is set.
   */
  live?: {
    limits?: Partial<LiveLimits>;
    maxBufferedBytes?: number;
    heartbeatMs?: number;
    reactionFlushMs?: number;
  };
}

/** Issue 14 items 1–2: the usage-event pipeline's settings. */
export interface EventPipelineConfig {
  /** NATS_URL: events go through a JetStream stream; null: the in-process queue. */
  natsUrl: string | null;
  /** PODIUM_EVENT_STREAM: the JetStream stream (its durable consumer is `<stream>_writer`). */
  stream: string;
  /** PODIUM_EVENT_STREAM_MB: the stream's size limit in bytes (beyond it, 503). */
  streamMaxBytes: number;
  /** PODIUM_EVENT_QUEUE: events the in-process queue holds at most (beyond it, 503). */
  queueLimit: number;
  /**
   * On close, how long the JetStream consumer goes on storing what the stream holds
   * (EVENT_DRAIN_MAX_MS, within the 10 s a stop allows; issue 29: tests allow longer, since a busy
   * machine stored 226 of 500 events in 7 s).
   */
  drainMaxMs: number;
}

export interface NativeAppConfig {
  type: "ios" | "android";
  url: string;
  ownProtocolUrl: string;
  openAppTimeout: number;
}

export interface AccountLimits {
  /** Failed logins per address in 15 minutes (successful ones don't count). */
  loginPerAddress: number;
  /**
   * Failed logins per account in 15 minutes from browsers that never signed in to it: the only
   * account-wide limit, and it never holds back the owner's browser (features/accounts/login-throttle.ts).
   */
  loginFailuresPerAccount: number;
  /** Signups per address in an hour. */
  signupsPerAddress: number;
}

export const DEFAULT_ACCOUNT_LIMITS: AccountLimits = {
  loginPerAddress: 20,
  loginFailuresPerAccount: 100,
  signupsPerAddress: 10,
};

/**
 * Feature flags passed from the backend (spec §3, §6): config/features.json (or the file
 * PODIUM_FEATURES_FILE names), then PODIUM_FEATURES="name=on,other=off" on top. These are the
 * defaults when there is no file.
 */
export const DEFAULT_FEATURES: FeatureFlags = {
  "allow-content-curation": true,
  "gm-view-page-banner-human-connection": false,
  "gm-view-page-banner-human-connection-edu": false,
  "embed-responsive-only": false,
  // Spec §2 restart overlay, R2.29: the promotional variant (video ad and get-the-product link).
  "restart-promo-video": false,
};

/** The features Podium knows: a flag must name one of them (issue 13: an unknown name is a mistake, not a no-op). */
export function knownFeatures(): string[] {
  return Object.keys(DEFAULT_FEATURES);
}

/** The error for a flag no feature knows, naming it and the known ones. */
function unknownFeature(where: string, name: string): ConfigError {
  return new ConfigError(
    `${where}: "${name}" is not a feature Podium knows (a typo?). Known features: ${knownFeatures().join(", ")}.`,
  );
}

/** Reads a JSON object of booleans; a missing default file is fine, a broken one is an error. */
export function readFeatureFile(path: string, required: boolean): FeatureFlags {
  if (!existsSync(path)) {
    if (required) throw new ConfigError(`PODIUM_FEATURES_FILE: ${path} does not exist.`);
    return DEFAULT_FEATURES;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ConfigError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
    throw new ConfigError(`${path} must hold a JSON object.`);
  for (const [name, value] of Object.entries(parsed)) {
    if (!Object.hasOwn(DEFAULT_FEATURES, name)) throw unknownFeature(path, name);
    if (typeof value !== "boolean") throw new ConfigError(`${path}: the flag "${name}" must be true or false.`);
  }
  return { ...DEFAULT_FEATURES, ...(parsed as Record<string, boolean>) };
}

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

export function parseFeatures(spec: string | undefined, base: FeatureFlags = DEFAULT_FEATURES): FeatureFlags {
  const flags: Record<string, boolean> = { ...base };
  for (const item of (spec ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const match = /^([a-z0-9-]+)=(on|off|true|false|1|0)$/.exec(item);
    if (!match?.[1] || !match[2]) {
      throw new ConfigError(`PODIUM_FEATURES: "${item}" is not name=on or name=off.`);
    }
    if (!Object.hasOwn(DEFAULT_FEATURES, match[1])) throw unknownFeature("PODIUM_FEATURES", match[1]);
    flags[match[1]] = ["on", "true", "1"].includes(match[2]);
  }
  return flags;
}

/**
 * PODIUM_NATIVE_APP="ios|https://store.example/app|podium://open" (type, store URL, app URL); R2.26:
 * both apps as two such entries separated by a comma, at most one of each type.
 */
function nativeAppsFrom(env: NodeJS.ProcessEnv): NativeAppConfig[] {
  const raw = env.PODIUM_NATIVE_APP;
  if (!raw) return [];
  const apps: NativeAppConfig[] = [];
  for (const entry of raw.split(",").map((item) => item.trim())) {
    const [type, url, ownProtocolUrl, extra] = entry.split("|");
    if (
      (type !== "ios" && type !== "android") ||
      !url?.startsWith("https://") ||
      !ownProtocolUrl?.includes("://") ||
      extra !== undefined
    ) {
      throw new ConfigError(
        'PODIUM_NATIVE_APP must be "ios|https://…|app://…", "android|https://…|app://…", or both separated by a comma.',
      );
    }
    if (apps.some((app) => app.type === type)) {
      throw new ConfigError(`PODIUM_NATIVE_APP names the ${type} app twice.`);
    }
    apps.push({ type, url, ownProtocolUrl, openAppTimeout: NATIVE_APP_OPEN_TIMEOUT_MS });
  }
  return apps;
}

/** Spec §9: a native-app click falls back to the store after 300 ms by default. */
const NATIVE_APP_OPEN_TIMEOUT_MS = 300;

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new ConfigError(`${name} must be a positive whole number.`);
  return value;
}

export type SearchIndexKind = "memory" | "database";

function searchIndexKind(env: NodeJS.ProcessEnv): SearchIndexKind {
  const raw = env.PODIUM_SEARCH_INDEX;
  if (raw === undefined || raw === "" || raw === "memory") return "memory";
  if (raw === "database") return "database";
  throw new ConfigError(`PODIUM_SEARCH_INDEX must be "memory" or "database", not "${raw}".`);
}

/** Issue 11: the anonymous page cache's default size; a view page takes about 60 KB in all three encodings. */
export const DEFAULT_PAGE_CACHE_MB = 64;

function pageCacheMegabytes(env: NodeJS.ProcessEnv): number {
  const raw = env.PODIUM_PAGE_CACHE_MB;
  if (raw === undefined || raw === "") return DEFAULT_PAGE_CACHE_MB;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 16384) {
    throw new ConfigError(`PODIUM_PAGE_CACHE_MB must be a whole number of megabytes from 0 to 16384, not "${raw}".`);
  }
  return value;
}

/** Issue 16 item 1: the Redis key prefix when PODIUM_REDIS_PREFIX is not set. */
export const DEFAULT_REDIS_PREFIX = "podium:";
/** Issue 16 item 6: the longest drain PODIUM_DRAIN_SECONDS may ask for (the shutdown grace comes after it). */
export const MAX_DRAIN_SECONDS = 300;

/**
 * PODIUM_TRUST_PROXY (issue 16): a number of proxy hops in front of Podium, or a comma-separated
 * list of the proxies' addresses and ranges (`10.0.0.0/8`, `loopback`, `uniquelocal`), read with
 * the parser Fastify uses for it, so a value Fastify would read otherwise stops the start here.
 */
function trustProxyFrom(env: NodeJS.ProcessEnv): false | number | string[] {
  const raw = (env.PODIUM_TRUST_PROXY ?? "").trim();
  if (raw === "" || raw === "off") return false;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops >= 1 && hops <= 10) return hops;
  }
  const list = raw
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  try {
    compileTrust(list);
  } catch {
    throw new ConfigError(
      `PODIUM_TRUST_PROXY must be a number of proxies (1 to 10) or a comma-separated list of proxy addresses and ranges (such as 10.0.0.0/8 or loopback), not "${raw}".`,
    );
  }
  return list;
}

function redisUrlFrom(env: NodeJS.ProcessEnv): string | null {
  const raw = env.REDIS_URL;
  if (raw === undefined || raw === "") return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`REDIS_URL must be a redis:// or rediss:// address, not "${raw}".`);
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:") {
    throw new ConfigError(`REDIS_URL must be a redis:// or rediss:// address, not "${raw}".`);
  }
  return raw;
}

function redisPrefixFrom(env: NodeJS.ProcessEnv): string {
  const raw = env.PODIUM_REDIS_PREFIX;
  if (raw === undefined || raw === "") return DEFAULT_REDIS_PREFIX;
  if (raw.length > 100 || /[\s*?[\]]/.test(raw)) {
    throw new ConfigError(
      `PODIUM_REDIS_PREFIX must be up to 100 characters without spaces or the pattern characters * ? [ ], not "${raw}".`,
    );
  }
  return raw;
}

function drainMsFrom(env: NodeJS.ProcessEnv): number {
  const raw = env.PODIUM_DRAIN_SECONDS;
  if (raw === undefined || raw === "") return 0;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > MAX_DRAIN_SECONDS) {
    throw new ConfigError(
      `PODIUM_DRAIN_SECONDS must be a number of seconds from 0 to ${MAX_DRAIN_SECONDS}, not "${raw}".`,
    );
  }
  return Math.round(value * 1000);
}

/** Issue 11 item 4: the most server processes PODIUM_WORKERS may ask for. */
export const MAX_WORKERS = 64;

/**
 * PODIUM_WORKERS: one process per core on PostgreSQL, one on PGlite. PGlite is an embedded
 * database that lives inside one process, so more than one process can't share it.
 */
function workerCount(env: NodeJS.ProcessEnv, onPostgres: boolean): number {
  const raw = env.PODIUM_WORKERS;
  if (raw === undefined || raw === "") return onPostgres ? Math.min(MAX_WORKERS, availableParallelism()) : 1;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > MAX_WORKERS) {
    throw new ConfigError(`PODIUM_WORKERS must be a whole number from 1 to ${MAX_WORKERS}, not "${raw}".`);
  }
  if (value > 1 && !onPostgres) {
    throw new ConfigError(
      `PODIUM_WORKERS=${value} needs PostgreSQL: the embedded database (PGlite) lives inside one process and can't be shared by several. Set DATABASE_URL to a PostgreSQL server, or PODIUM_WORKERS=1.`,
    );
  }
  return value;
}

/** Issue 14 items 1–2: NATS_URL, PODIUM_EVENT_STREAM, PODIUM_EVENT_STREAM_MB, PODIUM_EVENT_QUEUE. */
function eventPipelineConfig(env: NodeJS.ProcessEnv): EventPipelineConfig {
  const natsUrl = env.NATS_URL || null;
  if (natsUrl !== null && !/^(nats|tls|wss?):\/\/[^\s]+$/.test(natsUrl)) {
    throw new ConfigError(`NATS_URL must be a NATS server URL such as nats://127.0.0.1:4222, not "${natsUrl}".`);
  }
  const stream = env.PODIUM_EVENT_STREAM || DEFAULT_EVENT_STREAM;
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(stream)) {
    throw new ConfigError(
      `PODIUM_EVENT_STREAM must be 1 to 64 letters, digits, "_" or "-" (a JetStream stream name), not "${stream}".`,
    );
  }
  return {
    natsUrl,
    stream,
    streamMaxBytes: positiveInt(env, "PODIUM_EVENT_STREAM_MB", DEFAULT_EVENT_STREAM_MB) * 1024 * 1024,
    queueLimit: positiveInt(env, "PODIUM_EVENT_QUEUE", DEFAULT_EVENT_QUEUE_LIMIT),
    drainMaxMs: EVENT_DRAIN_MAX_MS,
  };
}

export function configFromEnv(
  env: NodeJS.ProcessEnv,
  defaults: { clientDir: string | null; workerDir?: string | null },
): Config {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT must be a whole number from 0 to 65535, not "${env.PORT}".`);
  }
  const podiumEnv = env.PODIUM_ENV ?? "production";
  if (!(ENVIRONMENTS as readonly string[]).includes(podiumEnv)) {
    throw new ConfigError(`PODIUM_ENV must be one of ${ENVIRONMENTS.join(", ")}, not "${podiumEnv}".`);
  }
  const rate = Number(env.PODIUM_RATE_LIMIT ?? 600);
  if (!Number.isInteger(rate) || rate < 1) throw new ConfigError("PODIUM_RATE_LIMIT must be a positive whole number.");
  const likeRate = Number(env.PODIUM_LIKE_RATE_LIMIT ?? 120);
  if (!Number.isInteger(likeRate) || likeRate < 1) {
    throw new ConfigError("PODIUM_LIKE_RATE_LIMIT must be a positive whole number.");
  }
  const secret = env.PODIUM_SECRET || null;
  const nativeApps = nativeAppsFrom(env);
  if (secret !== null && secret.length < 32) throw new ConfigError("PODIUM_SECRET must be at least 32 characters.");
  const dataDir = env.PODIUM_DATA_DIR ?? "./data";
  try {
    passwordHashLog2N(env);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  const consent = env.PODIUM_COOKIE_CONSENT ?? "required";
  if (consent !== "required" && consent !== "not-required") {
    throw new ConfigError(`PODIUM_COOKIE_CONSENT must be "required" or "not-required", not "${consent}".`);
  }
  return {
    port,
    host: env.HOST ?? "0.0.0.0",
    databaseUrl: env.DATABASE_URL || null,
    dataDir: dataDir.startsWith("memory://") ? dataDir : resolve(dataDir),
    env: podiumEnv as PodiumEnv,
    publicUrl: (env.PODIUM_PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, ""),
    clientDir: defaults.clientDir,
    workerDir: defaults.workerDir ?? null,
    documentWorkTimeoutMs: DOCUMENT_WORK_TIMEOUT_MS,
    pdfMemoryLimitMb: positiveInt(env, "PODIUM_PDF_MEMORY_MB", PDF_CHILD_MEMORY_MB),
    features: parseFeatures(
      env.PODIUM_FEATURES,
      readFeatureFile(env.PODIUM_FEATURES_FILE ?? resolve("config/features.json"), Boolean(env.PODIUM_FEATURES_FILE)),
    ),
    rateLimitPerMinute: rate,
    logger: logFormatFrom(env.PODIUM_LOG, process.stdout.isTTY === true),
    seedDemo: env.PODIUM_SEED !== "off",
    secret,
    likeRateLimitPerMinute: likeRate,
    nativeApp: nativeApps[0] ?? null,
    nativeApps,
    cookieConsentRequired: consent === "required",
    pageCacheMaxBytes: pageCacheMegabytes(env) * 1024 * 1024,
    searchIndex: searchIndexKind(env),
    workers: workerCount(env, Boolean(env.DATABASE_URL)),
    trustProxy: trustProxyFrom(env),
    redisUrl: redisUrlFrom(env),
    redisPrefix: redisPrefixFrom(env),
    drainMs: drainMsFrom(env),
    eventRetentionDays: positiveInt(env, "PODIUM_EVENT_RETENTION_DAYS", DEFAULT_EVENT_RETENTION_DAYS),
    clientLogRetentionDays: positiveInt(env, "PODIUM_CLIENT_LOG_RETENTION_DAYS", DEFAULT_CLIENT_LOG_RETENTION_DAYS),
    events: eventPipelineConfig(env),
    accountLimits: {
      loginPerAddress: positiveInt(env, "PODIUM_LOGIN_RATE_LIMIT", DEFAULT_ACCOUNT_LIMITS.loginPerAddress),
      loginFailuresPerAccount: positiveInt(
        env,
        "PODIUM_LOGIN_ACCOUNT_LIMIT",
        DEFAULT_ACCOUNT_LIMITS.loginFailuresPerAccount,
      ),
      signupsPerAddress: positiveInt(env, "PODIUM_SIGNUP_RATE_LIMIT", DEFAULT_ACCOUNT_LIMITS.signupsPerAddress),
    },
  };
}
