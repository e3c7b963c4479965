import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type FeatureContext, formPageSender } from "../http";
import { decodeWarnings, warningsQuery } from "../presentation/import-warnings";
import { localImagesOf } from "../presentation/local-images";
import type { SchemaVersion } from "../presentation/repository";
import { EditorPage } from "./components/EditorPage";
import { COMMENTING_HASH, type EditorMessage, type EditorPageData, type EditorValues } from "./page-data";
import {
  addComment,
  EditorError,
  type EditorPageOptions,
  type EditorTarget,
  editorPathOf,
  editorTarget,
  getEditorPage,
  LocalImageError,
  placeUploadedImage,
  removeComment,
  saveEditor,
} from "./service";

type Body = Record<string, unknown> | undefined;
type OidRequest = FastifyRequest<{ Params: { oid: string } }>;
type CommentRequest = FastifyRequest<{ Params: { oid: string; commentId: string } }>;

function field(body: Body, name: string): string {
  const value = body?.[name];
  return typeof value === "string" ? value : "";
}

/** Notices the editor shows after a redirect (POST → redirect → GET). */
const NOTICES: Record<string, EditorMessage> = {
  saved: { id: "editor.notice.saved" },
  commentAdded: { id: "editor.notice.commentAdded" },
  commentDeleted: { id: "editor.notice.commentDeleted" },
  slidesReplaced: { id: "editor.notice.slidesReplaced" },
};

function noticeFrom(request: FastifyRequest): EditorMessage | null {
  const notice = (request.query as { notice?: string } | undefined)?.notice;
  return notice && Object.hasOwn(NOTICES, notice) ? (NOTICES[notice] ?? null) : null;
}

/**
 * The editor (product brief, "The editor"; spec §2, R2.12): `/p/edit/{oid}/` for pitch
 * presentations, `/{oid}/edit/` for classic ones, each redirecting to the other when the
 * presentation's schema asks for it. Editors get the form; commenters, and editors at
 * `#present`, the player with comments.
 */
export function registerEditorRoutes(app: FastifyInstance, context: FeatureContext): void {
  const { db } = context;

  const sendForm = formPageSender(context, "editor", EditorPage);
  const send = (request: FastifyRequest, reply: FastifyReply, data: EditorPageData, status = 200) =>
    sendForm(
      request,
      reply,
      data,
      { id: data.form ? "editor.pageTitle" : "editor.pageTitle.comment", values: { title: data.title } },
      status,
    );

  const signedIn = (request: FastifyRequest, reply: FastifyReply) => {
    if (request.viewer) return request.viewer;
    const path = request.method === "GET" ? request.url : "/";
    void reply.redirect(`/login/?next=${encodeURIComponent(path)}`, 303);
    return null;
  };

  const refuse = (request: FastifyRequest, reply: FastifyReply, error: unknown) => {
    if (!(error instanceof EditorError)) throw error;
    return error.statusCode === 404 ? context.sendNotFound(request, reply) : context.sendError(request, reply, 403);
  };

  const render = async (
    request: FastifyRequest,
    reply: FastifyReply,
    target: EditorTarget,
    options: EditorPageOptions,
    status = 200,
  ) => {
    const viewer = request.viewer;
    if (!viewer) return context.sendNotFound(request, reply);
    return send(request, reply, await getEditorPage(db, context.documents, viewer, target, options), status);
  };

  const editorPage = (requested: SchemaVersion) => async (request: OidRequest, reply: FastifyReply) => {
    const viewer = signedIn(request, reply);
    if (!viewer) return reply;
    try {
      const target = await editorTarget(db, viewer, request.params.oid);
      if (target.row.schemaVersion !== requested) {
        const query = request.url.includes("?") ? request.url.slice(request.url.indexOf("?")) : "";
        return reply.redirect(`${editorPathOf(target.row)}${query}`, 303);
      }
      const importWarnings = decodeWarnings((request.query as { warnings?: unknown } | undefined)?.warnings);
      // Issue 28 item 7: image files the save couldn't show are offered for upload beside the warning.
      const localImages =
        target.access.edit && importWarnings.some((warning) => warning.code === "localImage")
          ? await localImagesOf(db, context.documents, target.row)
          : [];
      return await render(request, reply, target, { notice: noticeFrom(request), importWarnings, localImages });
    } catch (error) {
      return refuse(request, reply, error);
    }
  };

  const save = async (request: OidRequest, reply: FastifyReply) => {
    const viewer = signedIn(request, reply);
    if (!viewer) return reply;
    const body = request.body as Body;
    const values: EditorValues = {
      title: field(body, "title"),
      description: field(body, "description"),
      privacy: field(body, "privacy"),
      tags: field(body, "tags"),
      markdown: field(body, "markdown"),
    };
    try {
      const result = await saveEditor(db, context.documents, viewer, request.params.oid, {
        ...values,
        privacySent: typeof body?.privacy === "string",
        notes: typeof body?.notes === "string" ? body.notes : null,
      });
      if (result.saved) {
        return reply.redirect(`${editorPathOf(result.target.row)}?notice=saved${warningsQuery(result.warnings)}`, 303);
      }
      return await render(
        request,
        reply,
        result.target,
        { refusedSave: { values: result.values, errors: result.errors, notes: result.notes } },
        // Markdown too complex to read in time is 422 (well-formed, but more than Podium takes).
        result.errors.markdown?.id === "editor.error.markdown.tooComplex" ? 422 : 400,
      );
    } catch (error) {
      return refuse(request, reply, error);
    }
  };

  const comment = async (request: OidRequest, reply: FastifyReply) => {
    const viewer = signedIn(request, reply);
    if (!viewer) return reply;
    const draft = field(request.body as Body, "body");
    try {
      const result = await addComment(db, viewer, request.params.oid, draft);
      if (result.added) {
        return reply.redirect(`${editorPathOf(result.target.row)}?notice=commentAdded${COMMENTING_HASH}`, 303);
      }
      return await render(request, reply, result.target, { refusedComment: { draft, error: result.error } }, 400);
    } catch (error) {
      return refuse(request, reply, error);
    }
  };

  const uncomment = async (request: CommentRequest, reply: FastifyReply) => {
    const viewer = signedIn(request, reply);
    if (!viewer) return reply;
    try {
      const target = await removeComment(db, viewer, request.params.oid, request.params.commentId);
      return reply.redirect(`${editorPathOf(target.row)}?notice=commentDeleted${COMMENTING_HASH}`, 303);
    } catch (error) {
      return refuse(request, reply, error);
    }
  };

  /**
   * Issue 28 item 7: an image uploaded (POST /api/assets) for a file the deck's Markdown names by a
   * relative path takes its place: `{ src, url }` as JSON; answers what is left to upload.
   */
  app.post("/api/presentations/:oid/images", { bodyLimit: 16 * 1024 }, async (request: OidRequest, reply) => {
    const viewer = request.viewer;
    if (!viewer) {
      return reply.status(401).send({ statusCode: 401, problem: "signedOut", message: "Sign in to upload images." });
    }
    const body = request.body as Body;
    const src = field(body, "src");
    const url = field(body, "url");
    if (src === "" || src.length > 2_000 || url === "" || url.length > 200) {
      return reply.status(400).send({
        statusCode: 400,
        problem: "invalid",
        message:
          "Send the image file's name as it is written in the Markdown (src) and the uploaded image's address (url).",
      });
    }
    try {
      return reply.send(await placeUploadedImage(db, context.documents, viewer, request.params.oid, src, url));
    } catch (error) {
      if (error instanceof LocalImageError) {
        return reply
          .status(error.statusCode)
          .send({ statusCode: error.statusCode, problem: error.problem, message: error.message });
      }
      if (!(error instanceof EditorError)) throw error;
      const message =
        error.statusCode === 404
          ? "There is no such presentation."
          : "Only people who may edit this presentation can add images to it.";
      return reply.status(error.statusCode).send({ statusCode: error.statusCode, problem: error.message, message });
    }
  });

  for (const [prefix, suffix, schema] of [
    ["/p/edit/", "/", "2"],
    ["/", "/edit/", "0"],
  ] as const) {
    const base = `${prefix}:oid${suffix}`;
    app.get(base, editorPage(schema));
    app.post(base, save);
    app.post(`${base}comments`, comment);
    app.post(`${base}comments/:commentId/delete`, uncomment);
  }
}
