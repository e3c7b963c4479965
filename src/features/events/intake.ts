import type { IncomingMessage, ServerResponse } from "node:http";
import secureJson from "secure-json-parse";
import { COOKIE_CONSENT_COOKIE } from "../../lib/usage-session";
import { acceptUsageEvent, cookieValue, type Sender } from "./accepted-event";
import { EVENT_RETRY_AFTER_SECONDS, type EventPipeline } from "./pipeline/types";
import type { SenderKeyer } from "./sender-keys";
import { STEP_ENGAGEMENT_EVENT } from "./step-engagement";
import type { VisitorIds } from "./visitor-id";

/** Spec §7: where pages send usage events (sendBeacon, then fetch as the fallback). */
export const USAGE_EVENT_PATHS: readonly string[] = ["/log/json", "/fallback/json"];
/** Largest usage-event request (one event; spec §7: a JSON array holding one). */
export const USAGE_EVENT_MAX_BYTES = 8 * 1024;
/** The per-address count's window (the request limit's: PODIUM_RATE_LIMIT per minute). */
const EVENT_LIMIT_WINDOW_MS = 60_000;

/** What a usage-event request is answered: a status and, unless 204, a JSON body a person can read. */
export interface EventAnswer {
  status: 204 | 400 | 413 | 429 | 503;
  headers: Record<string, string>;
  body: { statusCode: number; error: string; message: string } | null;
}

const answers = {
  accepted: { status: 204, headers: {}, body: null },
  invalid: {
    status: 400,
    headers: {},
    body: { statusCode: 400, error: "Bad Request", message: "A usage event must be a JSON array holding one event." },
  },
  tooLarge: {
    status: 413,
    headers: {},
    body: {
      statusCode: 413,
      error: "Payload Too Large",
      message: `A usage event must be at most ${USAGE_EVENT_MAX_BYTES / 1024} KiB.`,
    },
  },
  busy: {
    status: 503,
    headers: { "retry-after": String(EVENT_RETRY_AFTER_SECONDS) },
    body: {
      statusCode: 503,
      error: "Service Unavailable",
      message: `Podium is recording too many events right now; please send this one again in ${EVENT_RETRY_AFTER_SECONDS} second.`,
    },
  },
} as const satisfies Record<string, EventAnswer>;

export interface EventIntakeOptions {
  pipeline: EventPipeline;
  senderKeys: SenderKeyer;
  /** Checks the visitor ids view pages were issued (issue 28 item 4), made from the app's secret. */
  visitorIds: VisitorIds;
  /** The visitor's address on a raw request, as request.ip says (app.ts, PODIUM_TRUST_PROXY). */
  addressOf: (request: IncomingMessage) => string;
  /** Usage-event requests per address per minute in this process (PODIUM_RATE_LIMIT). */
  perMinute: number;
  /**
   * Spec §4, issue 33 item 6: visitors are asked before anything of their visit is kept
   * (PODIUM_COOKIE_CONSENT=required). Then a player's step events are stored only from a browser
   * that allowed performance cookies; without it they are answered 204 and dropped.
   */
  consentRequired: boolean;
  now?: () => number;
}

/**
 * Issue 14 item 1: usage events at tens of thousands a second. A beacon's POST is answered
 * straight from Node's HTTP server (as a page-cache hit is), without Fastify's request, hooks and
 * reply: read at most USAGE_EVENT_MAX_BYTES, parsed (secure-json-parse: `__proto__` and
 * `constructor` keys are refused, as Fastify's onProtoPoisoning "error" does), validated, stamped,
 * handed to the pipeline, and answered 204 once it is queued. Each address may send `perMinute`
 * events a minute to this process (429 beyond). A request that isn't a JSON POST to one of
 * USAGE_EVENT_PATHS goes to Fastify, whose routes (and app.inject) answer through `answer` too.
 */
export interface EventIntake {
  /** True when it has taken the request (and will answer it). */
  serveRaw(request: IncomingMessage, response: ServerResponse): boolean;
  /** The answer to a parsed body from a sender (the Fastify route's path). */
  answer(body: unknown, sender: Sender): Promise<EventAnswer>;
}

export function createEventIntake(options: EventIntakeOptions): EventIntake {
  const now = options.now ?? Date.now;
  let windowStart = 0;
  let counts = new Map<string, number>();
  const rateLimited = (address: string): EventAnswer | null => {
    const at = now();
    if (at - windowStart >= EVENT_LIMIT_WINDOW_MS) {
      windowStart = at;
      counts = new Map();
    }
    const count = (counts.get(address) ?? 0) + 1;
    counts.set(address, count);
    if (count <= options.perMinute) return null;
    const wait = Math.max(1, Math.ceil((windowStart + EVENT_LIMIT_WINDOW_MS - at) / 1000));
    return {
      status: 429,
      headers: { "retry-after": String(wait) },
      body: {
        statusCode: 429,
        error: "Too Many Requests",
        message: `Too many requests. Please wait ${wait} seconds and try again.`,
      },
    };
  };

  const answer = async (body: unknown, sender: Sender): Promise<EventAnswer> => {
    const event = acceptUsageEvent(body, sender, options.senderKeys, options.visitorIds, now());
    if (event === null) return answers.invalid;
    if (event.eventName === STEP_ENGAGEMENT_EVENT && !consented(sender)) return answers.accepted;
    return (await options.pipeline.accept(event)) === "queued" ? answers.accepted : answers.busy;
  };

  const consented = (sender: Sender) =>
    !options.consentRequired || cookieValue(sender.cookie, COOKIE_CONSENT_COOKIE) === "performance";

  const send = (response: ServerResponse, reply: EventAnswer, close = false) => {
    if (reply.body === null) {
      response.writeHead(reply.status, reply.headers);
      response.end();
      return;
    }
    const text = JSON.stringify(reply.body);
    response.writeHead(reply.status, {
      ...reply.headers,
      "content-type": "application/json; charset=utf-8",
      "content-length": Buffer.byteLength(text),
      ...(close ? { connection: "close" } : {}),
    });
    response.end(text);
  };

  return {
    answer,
    serveRaw(request, response) {
      if (request.method !== "POST" || !isEventPath(request.url) || !isJson(request.headers["content-type"])) {
        return false;
      }
      const address = options.addressOf(request);
      const limited = rateLimited(address);
      const declared = Number(request.headers["content-length"] ?? 0);
      const refusal = limited ?? (declared > USAGE_EVENT_MAX_BYTES ? answers.tooLarge : null);
      if (refusal) {
        // The body isn't read: the connection closes after the answer.
        send(response, refusal, true);
        request.resume();
        return true;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let refused = false;
      request.on("data", (chunk: Buffer) => {
        if (refused) return;
        size += chunk.length;
        if (size > USAGE_EVENT_MAX_BYTES) {
          refused = true;
          send(response, answers.tooLarge, true);
          return;
        }
        chunks.push(chunk);
      });
      request.on("error", () => {
        refused = true;
      });
      request.on("end", () => {
        if (refused) return;
        let body: unknown;
        try {
          const text = Buffer.concat(chunks, size).toString("utf8");
          body = parseEventJson(text);
        } catch {
          send(response, answers.invalid);
          return;
        }
        answer(body, { address, cookie: request.headers.cookie }).then(
          (reply) => send(response, reply),
          () => send(response, answers.busy),
        );
      });
      return true;
    },
  };
}

/**
 * A beacon's JSON as Fastify's parser reads it (onProtoPoisoning and onConstructorPoisoning
 * "error"). Issue 32 item 4: secure-json-parse scans every text with two expressions that try an
 * escaped form of each letter at every position, a twentieth of the intake's CPU; a text that
 * names neither key and escapes nothing can hold neither, so plain JSON.parse reads it, and only
 * the others take the careful path.
 */
const BYTE_ORDER_MARK = 0xfeff;

export function parseEventJson(text: string): unknown {
  if (
    text.charCodeAt(0) !== BYTE_ORDER_MARK &&
    !text.includes("__proto__") &&
    !text.includes("constructor") &&
    !text.includes("\\u")
  ) {
    return JSON.parse(text);
  }
  return secureJson.parse(text, null, { protoAction: "error", constructorAction: "error" });
}

/** One of USAGE_EVENT_PATHS, with or without a trailing slash or a query (the router's ignoreTrailingSlash). */
function isEventPath(url: string | undefined): boolean {
  if (!url) return false;
  const query = url.indexOf("?");
  let path = query === -1 ? url : url.slice(0, query);
  if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
  return USAGE_EVENT_PATHS.includes(path);
}

/** What Fastify's JSON parser takes: application/json, with or without parameters. */
function isJson(type: string | undefined): boolean {
  if (!type) return false;
  const semicolon = type.indexOf(";");
  return (semicolon === -1 ? type : type.slice(0, semicolon)).trim().toLowerCase() === "application/json";
}
