import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Queryable } from "../../db/client";
import { THEMES, type Theme } from "../../document/schema";
import { isOid } from "../../lib/ids";
import type { FeatureContext } from "../http";
import type { Viewer } from "../viewer";
import { findPresentationByOid } from "./repository";
import { accessTo } from "./service";

/**
 * Issue 10: the slide theme chosen per presentation (document.theme: light, dark or high
 * contrast), set from the dashboard's manage page by whoever may edit the presentation.
 */
export const THEME_ROUTE = "/dashboard/next/presentations/:oid/theme";

export type ThemeOutcome = "saved" | "badTheme" | "notFound" | "forbidden";

export function isTheme(value: unknown): value is Theme {
  return typeof value === "string" && (THEMES as readonly string[]).includes(value);
}

/** Sets the theme when the viewer may edit the presentation; says why not otherwise. */
export async function setPresentationTheme(
  db: Queryable,
  viewer: NonNullable<Viewer>,
  oid: string,
  theme: unknown,
): Promise<ThemeOutcome> {
  const row = isOid(oid) ? await findPresentationByOid(db, oid) : null;
  if (!row) return "notFound";
  const access = await accessTo(db, row, viewer);
  if (!access.view) return "notFound";
  if (!access.edit) return "forbidden";
  if (!isTheme(theme)) return "badTheme";
  await updateDocumentTheme(db, row.id, theme);
  return "saved";
}

/** Writes document.theme and nothing else of the document (its Markdown, images and search follow as they are). */
export async function updateDocumentTheme(db: Queryable, presentationId: string, theme: Theme): Promise<void> {
  await db.query(
    `update presentations
        set document = jsonb_set(document, '{theme}', to_jsonb($2::text), true), last_modified = now()
      where id = $1`,
    [presentationId, theme],
  );
}

/** POST {THEME_ROUTE}: a plain form (CSRF checked by the session plugin), answered 303 back to the manage page. */
export function registerThemeRoute(app: FastifyInstance, context: FeatureContext): void {
  app.post(THEME_ROUTE, async (request: FastifyRequest<{ Params: { oid: string } }>, reply) => {
    const { oid } = request.params;
    if (!request.viewer) {
      return reply.redirect(`/login/?next=${encodeURIComponent(`/dashboard/next/presentations/${oid}/`)}`, 303);
    }
    const theme = (request.body as Record<string, unknown> | undefined)?.theme;
    const outcome = await setPresentationTheme(context.db, request.viewer, oid, theme);
    if (outcome === "notFound") return context.sendNotFound(request, reply);
    if (outcome === "forbidden") return context.sendError(request, reply, 403);
    if (outcome === "badTheme") return context.sendError(request, reply, 400);
    return reply.redirect(`/dashboard/next/presentations/${oid}/?notice=themeSaved`, 303);
  });
}
