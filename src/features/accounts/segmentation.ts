import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { newOid } from "../../lib/ids";
import { AUTHOR_SEGMENTS, type AuthorSegment } from "../explore/search";
import type { FeatureContext } from "../http";
import { editorUrl } from "../presentation/editor-links";
import { insertPresentationIfAbsent } from "../presentation/repository";
import type { AccountPageData } from "./components/AccountPages";
import { updateAuthorSegment } from "./repository";

/** Spec §2 R2.8: sign-up after segmentation goes on to the dashboard, which starts a new presentation. */
export const CREATE_PATH = "/v/create/";
export const AFTER_SEGMENTATION_NEXT = `/dashboard/next?after_segmentation_url=${CREATE_PATH}`;
/** Where the segmentation form sends its answer. */
export const SEGMENT_PATH = "/signup/segment/";
/** The anonymous visitor's answer until sign-up stores it on the account (then it is cleared). */
export const SEGMENT_COOKIE = "author_segment";
const SEGMENT_COOKIE_MAX_AGE_SECONDS = 30 * 24 * 3600;
/** A new presentation's title (same limit as the editor's). */
const TITLE_MAX_LENGTH = 200;

type Form = Record<string, unknown> | undefined;
const text = (form: Form, key: string): string => {
  const value = form?.[key];
  return typeof value === "string" ? value : "";
};

/** One of the four segments, exactly, or null (the form offers no other). */
export function chosenSegment(value: unknown): AuthorSegment | null {
  return (AUTHOR_SEGMENTS as readonly unknown[]).includes(value) ? (value as AuthorSegment) : null;
}

/** Markdown's punctuation escaped, so a title is imported as the text typed. */
function markdownText(value: string): string {
  return value.replace(/([\\`*_{}[\]()#+\-.!<>|~])/g, "\\$1");
}

type SendAccountPage = (
  request: FastifyRequest,
  reply: FastifyReply,
  data: AccountPageData,
  title: { id: "accounts.segment.title" | "accounts.create.title" },
  status?: number,
) => FastifyReply;

/**
 * Issue 13, R2.8: the segmentation step of sign-up (what will you use Podium for?), the
 * redirect to `/signup/` with next `/dashboard/next?after_segmentation_url=/v/create/`, and
 * `/v/create/`, which starts a new presentation and opens its editor.
 */
export function registerSegmentationRoutes(
  app: FastifyInstance,
  context: FeatureContext,
  sendAccountPage: SendAccountPage,
): void {
  const { db } = context;

  app.post(SEGMENT_PATH, async (request, reply) => {
    const segment = chosenSegment(text(request.body as Form, "segment"));
    if (!segment) {
      return sendAccountPage(
        request,
        reply,
        { page: "segment", problem: { field: "segment", messageId: "accounts.segment.error.unknown" } },
        { id: "accounts.segment.title" },
        400,
      );
    }
    if (request.viewer) await updateAuthorSegment(db, request.viewer.userId, segment);
    else {
      reply.setCookie(SEGMENT_COOKIE, segment, {
        path: "/",
        httpOnly: true,
        sameSite: "lax",
        secure: context.publicUrl.startsWith("https:"),
        maxAge: SEGMENT_COOKIE_MAX_AGE_SECONDS,
      });
    }
    return reply.redirect(`/signup/?next=${encodeURIComponent(AFTER_SEGMENTATION_NEXT)}`, 303);
  });

  app.get(CREATE_PATH, (request, reply) => {
    if (!request.viewer) return reply.redirect(`/login/?next=${encodeURIComponent(CREATE_PATH)}`, 303);
    return sendAccountPage(
      request,
      reply,
      { page: "create", title: "", problem: null },
      { id: "accounts.create.title" },
    );
  });

  app.post(CREATE_PATH, async (request, reply) => {
    const viewer = request.viewer;
    if (!viewer) return reply.redirect(`/login/?next=${encodeURIComponent(CREATE_PATH)}`, 303);
    const title = text(request.body as Form, "title").trim();
    if (!title || title.length > TITLE_MAX_LENGTH) {
      return sendAccountPage(
        request,
        reply,
        {
          page: "create",
          title,
          problem: { field: "title", messageId: "accounts.create.error.title", values: { limit: TITLE_MAX_LENGTH } },
        },
        { id: "accounts.create.title" },
        400,
      );
    }
    const sourceMarkdown = `# ${markdownText(title)}\n`;
    const { document } = await context.documents.importMarkdown(sourceMarkdown, "2");
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const oid = newOid();
      const inserted = await insertPresentationIfAbsent(db, {
        oid,
        ownerId: viewer.userId,
        title,
        descriptionHtml: "",
        privacy: "private",
        schemaVersion: document.schemaVersion,
        tags: [],
        document,
        sourceMarkdown,
      });
      if (inserted) return reply.redirect(editorUrl(oid, document.schemaVersion), 303);
    }
    throw new Error("could not find a free oid");
  });
}
