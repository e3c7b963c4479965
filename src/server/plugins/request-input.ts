import multipart from "@fastify/multipart";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { findUnstorableText, unstorableCharacterIn } from "../../lib/storable-text";

/**
 * What comes in is checked once, at the edge, before any route sees it (issue 9):
 * - a multipart body that can't be read (no boundary, garbage, cut short) is the sender's
 *   mistake: 400, never a 500 from deep inside the parser;
 * - no text anywhere in the request (path, query, form fields, JSON, file names) may hold NUL or
 *   a lone surrogate (lib/storable-text.ts): 400 with a message, whatever the route.
 */

/** Why a request was refused at the edge; the error page and JSON answers say it in words. */
export type RequestInputProblem = "characters" | "form";

export class RequestInputError extends Error {
  override readonly name = "RequestInputError";
  readonly statusCode = 400;
  constructor(
    readonly problem: RequestInputProblem,
    message: string,
  ) {
    super(message);
  }
}

const CHARACTERS_MESSAGE =
  "This request contains a character Podium can't store (a NUL character or half of a surrogate pair). Remove it and try again.";
const FORM_MESSAGE = "The form's data arrived damaged and couldn't be read. Reload the page and try again.";

export interface RequestInputOptions {
  /** Largest uploaded file, in bytes (a larger one is cut and flagged `truncated`). */
  fileSizeLimit: number;
}

export async function registerRequestInput(app: FastifyInstance, options: RequestInputOptions): Promise<void> {
  await app.register(multipart, {
    // Podium reads multipart bodies itself (below), so a parser failure becomes a 400.
    attachFieldsToBody: false,
    // An oversized file is cut and flagged; the import then says so in words.
    throwFileSizeLimit: false,
    limits: { fileSize: options.fileSizeLimit, files: 1, fields: 20, fieldSize: 64 * 1024 },
  });

  // Multipart fields and files land in the body with the other fields (the shape of
  // @fastify/multipart's attachFieldsToBody), so the CSRF check sees the form's token.
  app.addHook("preValidation", async (request) => {
    if (request.isMultipart()) {
      request.body = await readMultipart(request);
      return;
    }
    const where =
      findUnstorableText(request.params, "path") ??
      findUnstorableText(request.query, "query") ??
      findUnstorableText(request.body, "body");
    if (where) throw new RequestInputError("characters", CHARACTERS_MESSAGE);
  });
}

/**
 * A multipart parser can stall on a malformed body (seen in the fuzz suite: a preamble or a part
 * without headers, larger than a buffer, is never consumed, so the request stream stays paused
 * by backpressure for good). A request whose stream has been held paused by the parser this long
 * is answered 400. A slow client is not a stall: its stream is waiting for bytes, not paused.
 */
const MULTIPART_STALL_MS = 1_000;
const MULTIPART_WATCH_MS = 100;

async function readMultipart(request: FastifyRequest): Promise<Record<string, unknown>> {
  if (findUnstorableText(request.params, "path") ?? findUnstorableText(request.query, "query")) {
    throw new RequestInputError("characters", CHARACTERS_MESSAGE);
  }
  let watch: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_resolve, reject) => {
    let pausedSince: number | null = null;
    watch = setInterval(() => {
      const stream = request.raw;
      if (stream.readableFlowing !== false || stream.readableEnded) {
        pausedSince = null;
        return;
      }
      pausedSince ??= Date.now();
      if (Date.now() - pausedSince >= MULTIPART_STALL_MS) reject(new RequestInputError("form", FORM_MESSAGE));
    }, MULTIPART_WATCH_MS);
  });
  try {
    return await Promise.race([readParts(request), stalled]);
  } catch (error) {
    // Limits (413) and our own refusals keep their status; anything the parser choked on is a 400.
    const status = (error as { statusCode?: number }).statusCode;
    if (error instanceof RequestInputError || (status && status >= 400 && status < 500)) throw error;
    throw new RequestInputError("form", FORM_MESSAGE);
  } finally {
    clearInterval(watch);
  }
}

async function readParts(request: FastifyRequest): Promise<Record<string, unknown>> {
  let body: Record<string, unknown> = {};
  // A route may set its own limits (config.multipartOptions), as with @fastify/multipart.
  const routeOptions = (request.routeOptions.config as { multipartOptions?: Parameters<FastifyRequest["parts"]>[0] })
    .multipartOptions;
  for await (const part of request.parts(routeOptions)) {
    body = part.fields as Record<string, unknown>;
    const text = part.type === "file" ? part.filename : typeof part.value === "string" ? part.value : "";
    if (unstorableCharacterIn(part.fieldname) || unstorableCharacterIn(text)) {
      throw new RequestInputError("characters", CHARACTERS_MESSAGE);
    }
    if (part.type === "file") await part.toBuffer();
  }
  return body;
}
