/**
 * Spec §3 "Client log record", §7 and §8: a client-side log line for Podium's operators (a
 * script that failed, a chunk that didn't load). In production mode it is POSTed to the log
 * endpoint as a JSON array holding one record, with a 20 s time-out, and the response is
 * ignored; in every other mode it is written to the console.
 */

/** §9: log request time-out, and the default log level (Python logging's INFO). */
export const CLIENT_LOG_TIMEOUT_MS = 20_000;
export const DEFAULT_LOG_LEVEL = 20;
/** §3: the level names a record may carry, and their numbers. */
export const LOG_LEVELS = { INFO: 20, WARN: 30, ERROR: 40 } as const;
export type LogLevelName = keyof typeof LOG_LEVELS;

/** §8: the exact messages. */
export const MISSING_LOG_ENDPOINT = "Missing logApiEndpoint in production mode!";
export const NULL_LOG_MESSAGE = "logMessage is null";

/** What a caller logs: a message and any fields of its own (the "payload fields"). */
export interface ClientLogMessage {
  msg: string;
  levelname?: LogLevelName;
  levelno?: number;
  object?: string;
  action?: string;
  trigger?: string;
  source?: string;
  category?: string;
  name?: string;
  platform?: string;
  /** The presentation concerned, when there is one. */
  presentation_id?: string;
  [field: string]: unknown;
}

export interface ClientLogRecord extends ClientLogMessage {
  current_time: number;
  created: number;
  msecs: number;
  client_datetime: string;
  object: string;
  action: string;
  trigger: string;
  category: string;
  source: string;
  levelname: LogLevelName;
  name: string;
  levelno: number;
  relativeCreated: number;
  platform: string;
  session_id: string;
}

/** The record for a message at a moment (ms since the epoch), `pageStart` ms after the page began. */
export function buildClientLogRecord(
  message: ClientLogMessage,
  context: { now: number; pageStart: number; sessionId: string },
): ClientLogRecord {
  const levelname = message.levelname ?? "INFO";
  return {
    ...message,
    current_time: context.now,
    created: context.now / 1000,
    msecs: context.now % 1000,
    client_datetime: new Date(context.now).toISOString(),
    object: message.object ?? "",
    action: message.action ?? "",
    trigger: message.trigger ?? "",
    category: message.category ?? "website",
    source: message.source ?? "",
    levelname,
    name: message.name ?? "debug",
    levelno: message.levelno ?? (message.levelname ? LOG_LEVELS[levelname] : DEFAULT_LOG_LEVEL),
    relativeCreated: context.now - context.pageStart,
    msg: message.msg,
    platform: message.platform ?? "website",
    session_id: context.sessionId,
  };
}

export interface ClientLogger {
  /** Resolves once sent (or written to the console); rejects only for the §8 errors. */
  log(message: ClientLogMessage | null): Promise<void>;
}

export function createClientLogger(options: {
  production: boolean;
  logApiEndpoint: string | null;
  sessionId: () => string;
  fetch: (url: string, init: RequestInit) => Promise<unknown>;
  console: Pick<Console, "info" | "warn" | "error">;
  now?: () => number;
  pageStart?: number;
}): ClientLogger {
  const now = options.now ?? (() => Date.now());
  const pageStart = options.pageStart ?? now();
  return {
    async log(message) {
      if (message === null) throw new Error(NULL_LOG_MESSAGE);
      const record = buildClientLogRecord(message, { now: now(), pageStart, sessionId: options.sessionId() });
      if (!options.production) {
        const write = record.levelname === "ERROR" ? "error" : record.levelname === "WARN" ? "warn" : "info";
        options.console[write]("podium client log", record);
        return;
      }
      if (!options.logApiEndpoint) throw new Error(MISSING_LOG_ENDPOINT);
      try {
        await options.fetch(options.logApiEndpoint, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          credentials: "same-origin",
          keepalive: true,
          body: JSON.stringify([record]),
          signal: AbortSignal.timeout(CLIENT_LOG_TIMEOUT_MS),
        });
      } catch {
        // §8: logging failures are ignored; the response is never read.
      }
    },
  };
}
