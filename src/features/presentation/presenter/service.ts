import type { Queryable } from "../../../db/client";
import type { Viewer } from "../../viewer";
import { type PresentationRoute, presenterAccess } from "../service";
import type { PresenterPageData } from "./page-data";

/**
 * The presenter view's data; "notFound" when the viewer may not see the presentation by this
 * route, "forbidden" when they may see it but not present it. Issue 28: presenting needs the
 * edit right (owner, editor) or a view link made for presenting: the view shows the speaker notes.
 */
export async function getPresenterPage(
  db: Queryable,
  route: PresentationRoute,
  viewer: Viewer,
): Promise<PresenterPageData | "notFound" | "forbidden"> {
  const found = await presenterAccess(db, route, viewer);
  if (!found) return "notFound";
  if (!found.mayPresent) return "forbidden";
  const { row } = found;
  const basePath = "linkId" in route ? `/view/${route.linkId}/` : `/p/${row.oid}/`;
  return {
    oid: row.oid,
    title: row.title,
    documentUrl: `${basePath}document.json`,
    stepCount: row.document.path.length,
  };
}
