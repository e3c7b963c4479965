import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AUTHOR_SEGMENTS, type AuthorSegment } from "../explore/search";
import type { FeatureContext } from "../http";
import type { AccountPageData } from "./components/AccountPages";
import { AFTER_SEGMENTATION_NEXT } from "./paths";
import { updateAuthorSegment } from "./repository";

export { AFTER_SEGMENTATION_NEXT, CREATE_PATH } from "./paths";

/** Where the segmentation form sends its answer. */
export const SEGMENT_PATH = "/signup/segment/";
/** The anonymous visitor's answer until sign-up stores it on the account (then it is cleared). */
export const SEGMENT_COOKIE = "author_segment";
const SEGMENT_COOKIE_MAX_AGE_SECONDS = 30 * 24 * 3600;

type Form = Record<string, unknown> | undefined;
const text = (form: Form, key: string): string => {
  const value = form?.[key];
  return typeof value === "string" ? value : "";
};

/** One of the four segments, exactly, or null (the form offers no other). */
export function chosenSegment(value: unknown): AuthorSegment | null {
  return (AUTHOR_SEGMENTS as readonly unknown[]).includes(value) ? (value as AuthorSegment) : null;
}

type SendAccountPage = (
  request: FastifyRequest,
  reply: FastifyReply,
  data: AccountPageData,
  title: { id: "accounts.segment.title" },
  status?: number,
) => FastifyReply;

/**
 * Issue 13, R2.8: the segmentation step of sign-up (what will you use Podium for?) and the
 * redirect to `/signup/` with next `/dashboard/next?after_segmentation_url=/v/create/`.
 * `/v/create/` itself, where a new presentation starts, is the dashboard's (issue 28, item 3).
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
}
