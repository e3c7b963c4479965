/**
 * Issue 34 item 3: the embed API's messages between a host page and `/p/embed/{oid}/`, versioned
 * JSON in one namespace. A request is `{podium: 1, method, id?, step?}`; the answer
 * `{podium: 1, id, result}` or `{podium: 1, id, error}`; an event `{podium: 1, event, ...}`.
 * Anything else is ignored: nothing received is ever evaluated, and what is sent is the deck's
 * public state only (steps, titles), never notes or who is watching.
 */

/** The protocol's version, the value of the `podium` key. */
export const EMBED_API_VERSION = 1;
export const EMBED_API_NAMESPACE = "podium";
export const EMBED_METHODS = ["next", "prev", "goTo", "getState", "getSteps"] as const;
export type EmbedMethod = (typeof EMBED_METHODS)[number];
export const EMBED_EVENTS = ["ready", "stepchange", "ended"] as const;
export type EmbedEvent = (typeof EMBED_EVENTS)[number];

/** A request's id: what the answer carries back (a short string or a number). */
export type EmbedRequestId = string | number | null;
/** The longest id, and the longest message (as JSON text) that is read at all. */
export const EMBED_ID_MAX_LENGTH = 64;
export const EMBED_MESSAGE_MAX_LENGTH = 1024;

export interface EmbedRequest {
  method: EmbedMethod;
  id: EmbedRequestId;
  /** goTo's step, 1-based. */
  step?: number;
}

export interface EmbedState {
  /** The step on screen (or where Present starts), 1-based. */
  step: number;
  total: number;
  playing: boolean;
  ended: boolean;
}

const isMethod = (value: unknown): value is EmbedMethod => EMBED_METHODS.includes(value as EmbedMethod);

/** A well-formed request, or null for anything else (which is ignored, never answered). */
export function parseEmbedRequest(data: unknown): EmbedRequest | null {
  let message = data;
  if (typeof message === "string") {
    if (message.length > EMBED_MESSAGE_MAX_LENGTH) return null;
    try {
      message = JSON.parse(message);
    } catch {
      return null;
    }
  }
  if (typeof message !== "object" || message === null || Array.isArray(message)) return null;
  const fields = message as Record<string, unknown>;
  if (fields[EMBED_API_NAMESPACE] !== EMBED_API_VERSION || !isMethod(fields.method)) return null;
  const id = fields.id ?? null;
  const idOk =
    id === null ||
    (typeof id === "string" && id.length <= EMBED_ID_MAX_LENGTH) ||
    (typeof id === "number" && Number.isSafeInteger(id));
  if (!idOk) return null;
  if (fields.method === "goTo") {
    const step = fields.step;
    if (typeof step !== "number" || !Number.isSafeInteger(step) || step < 1) return null;
    return { method: "goTo", id: id as EmbedRequestId, step };
  }
  return { method: fields.method, id: id as EmbedRequestId };
}

/** Issue 34: the most sites an owner may list for a deck's embeds. */
export const EMBED_HOSTS_MAX = 20;

/**
 * The owner's list as typed (one a line, or separated by commas or spaces): the normalised hosts,
 * without repeats, or the first entry that isn't a site address.
 */
export function parseEmbedHosts(text: string): { hosts: string[] } | { invalid: string } | { tooMany: number } {
  const hosts: string[] = [];
  for (const entry of text.split(/[\s,]+/).filter(Boolean)) {
    const host = normaliseHost(entry);
    if (!host) return { invalid: entry.slice(0, 100) };
    if (!hosts.includes(host)) hosts.push(host);
  }
  return hosts.length > EMBED_HOSTS_MAX ? { tooMany: EMBED_HOSTS_MAX } : { hosts };
}

/**
 * An owner's allowed host as CSP writes it (frame-ancestors' host-source): `https://site.example`,
 * `site.example`, `*.site.example`, with a port or not. Null for anything else.
 */
export function normaliseHost(input: string): string | null {
  const text = input.trim().toLowerCase().replace(/\/+$/, "");
  const match =
    /^(?:(https?):\/\/)?(\*\.)?((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*)(?::(\d{1,5}))?$/.exec(
      text,
    );
  if (!match) return null;
  const [, scheme, wildcard, host, port] = match;
  if (!host || host.length > 253) return null;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return null;
  // A bare word other than localhost is a typo, not a site ("example" without its domain).
  if (!host.includes(".") && host !== "localhost") return null;
  return `${scheme ? `${scheme}://` : ""}${wildcard ?? ""}${host}${port ? `:${port}` : ""}`;
}

/** Whether a message's origin is one of the allowed hosts (as normaliseHost writes them). */
export function originAllowed(origin: string, hosts: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  const scheme = url.protocol.replace(/:$/, "");
  const defaultPort = scheme === "https" ? "443" : "80";
  const port = url.port || defaultPort;
  return hosts.some((allowed) => {
    const match = /^(?:(https?):\/\/)?(\*\.)?([^:]+)(?::(\d+))?$/.exec(allowed);
    if (!match) return false;
    const [, wantScheme, wildcard, host = "", wantPort] = match;
    // CSP: without a scheme, the page's own (https here) or an upgrade of http.
    if (wantScheme ? wantScheme !== scheme : scheme !== "https" && scheme !== "http") return false;
    if ((wantPort ?? (wantScheme === "http" ? "80" : defaultPort)) !== port) return false;
    return wildcard ? url.hostname.endsWith(`.${host}`) : url.hostname === host;
  });
}
