import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { isOid } from "../../lib/ids";
import type { FeatureContext } from "../http";
import { findPresentationByOid } from "../presentation/repository";
import { accessTo } from "../presentation/service";
import type { Viewer } from "../viewer";
import { PDF_MAX_BYTES, type PdfConverter, PdfImportError } from "./errors";
import { createPdfImports, type PdfImportLimits, type PdfImports } from "./service";

/** Multipart framing and the form's small fields, beyond the file itself. */
const FRAMING_BYTES = 256 * 1024;

interface FilePart {
  type?: string;
  filename?: string;
  toBuffer?: () => Promise<Buffer>;
}

/** This route's own multipart limits (server/plugins/request-input.ts reads them). */
const MULTIPART_OPTIONS = {
  limits: { fileSize: PDF_MAX_BYTES, files: 1, fields: 10, fieldSize: 4 * 1024 },
  throwFileSizeLimit: true,
};

type Body = Record<string, unknown> | undefined;

function field(body: Body, name: string): string {
  const value = (body?.[name] as { value?: unknown } | undefined)?.value;
  return typeof value === "string" ? value : "";
}

function sendRefusal(reply: FastifyReply, error: PdfImportError) {
  if (error.retryAfterSeconds !== null) reply.header("retry-after", String(error.retryAfterSeconds));
  return reply
    .status(error.statusCode)
    .send({ statusCode: error.statusCode, state: "failed", problem: error.problem, message: error.message });
}

const TOO_LARGE = () =>
  new PdfImportError(
    "tooLarge",
    413,
    `This PDF is larger than ${PDF_MAX_BYTES / 1024 / 1024} MB. Split it into smaller files, or reduce its images, and try again.`,
  );
const SIGNED_OUT = () => new PdfImportError("signedOut", 401, "Sign in to import PDFs.");

/**
 * Issue 10, item 4: `POST /api/imports/pdf` takes a PDF (50 MB, this route's own multipart
 * limit) and answers 202 with the job's id; `GET /api/imports/{id}` says how far it is.
 */
export function registerPdfImportRoutes(
  app: FastifyInstance,
  context: FeatureContext,
  converter: PdfConverter,
  limits: Partial<PdfImportLimits> = {},
): PdfImports {
  const imports = createPdfImports({
    db: context.db,
    converter,
    limits,
    onError: (error) => app.log.error({ err: error }, "PDF import failed"),
  });

  /** The deck whose slides a PDF replaces: one the person may edit (else null, said as 404). */
  const replaceTarget = async (oid: string, viewer: NonNullable<Viewer>) => {
    if (!isOid(oid)) return null;
    const row = await findPresentationByOid(context.db, oid);
    if (!row || !(await accessTo(context.db, row, viewer)).edit) return null;
    return { presentationId: row.id, oid: row.oid, schemaVersion: row.schemaVersion, theme: row.document.theme };
  };

  app.post(
    "/api/imports/pdf",
    {
      bodyLimit: PDF_MAX_BYTES + FRAMING_BYTES,
      config: { multipartOptions: MULTIPART_OPTIONS },
      // Signed-out uploads, and bodies that say they are too large, are refused before they are read.
      onRequest: async (request, reply) => {
        if (!request.viewer) return sendRefusal(reply, SIGNED_OUT());
        const length = Number(request.headers["content-length"]);
        if (Number.isFinite(length) && length > PDF_MAX_BYTES + FRAMING_BYTES) {
          reply.header("connection", "close");
          return sendRefusal(reply, TOO_LARGE());
        }
      },
      // The multipart reader's own size refusal is said in words too.
      errorHandler: (error: Error & { statusCode?: number }, _request: FastifyRequest, reply: FastifyReply) => {
        if (error.statusCode === 413) return sendRefusal(reply, TOO_LARGE());
        throw error;
      },
    },
    async (request, reply) => {
      const viewer = request.viewer;
      if (!viewer) return sendRefusal(reply, SIGNED_OUT());
      const body = request.body as Body;
      const part = body?.file as FilePart | undefined;
      if (!request.isMultipart() || part?.type !== "file" || !part.toBuffer) {
        return sendRefusal(
          reply,
          new PdfImportError("noFile", 400, "Send the PDF as a multipart form with one file field named file."),
        );
      }
      const bytes = await part.toBuffer();
      const replaceOid = field(body, "replace");
      const replace = replaceOid ? await replaceTarget(replaceOid, viewer) : null;
      if (replaceOid && !replace) {
        return sendRefusal(
          reply,
          new PdfImportError("failed", 404, "There is no presentation here whose slides you may replace."),
        );
      }
      try {
        const id = await imports.start(
          viewer.userId,
          { filename: part.filename ?? "", bytes },
          {
            title: field(body, "title"),
            privacy: field(body, "privacy") || "public",
            schemaVersion: field(body, "schemaVersion"),
            replace,
          },
        );
        return reply.status(202).send({ id, ...(await imports.status(viewer.userId, id)) });
      } catch (error) {
        if (error instanceof PdfImportError) return sendRefusal(reply, error);
        throw error;
      }
    },
  );

  app.get<{ Params: { id: string } }>("/api/imports/:id", async (request, reply) => {
    const viewer = request.viewer;
    if (!viewer) return sendRefusal(reply, SIGNED_OUT());
    const id = request.params.id;
    const status = /^[A-Za-z0-9_-]{16}$/.test(id) ? await imports.status(viewer.userId, id) : null;
    reply.header("cache-control", "private, no-store");
    if (!status)
      return reply.status(404).send({ statusCode: 404, message: "No such import (imports are kept 10 minutes)." });
    // A failed import answers with its refusal's status, so the answer says what went wrong either way.
    return reply.status(status.state === "failed" ? (status.statusCode ?? 500) : 200).send(status);
  });

  return imports;
}
