import type { Queryable } from "../../../db/client";
import type { Viewer } from "../../viewer";
import { accessibleRow, type PresentationRoute } from "../service";
import type { PresenterPageData } from "./page-data";

/**
 * The presenter view's data, or null for a 404: whoever may see the presentation by this route
 * (the view page's rules, through the same policy) may open its presenter view.
 */
export async function getPresenterPage(
  db: Queryable,
  route: PresentationRoute,
  viewer: Viewer,
): Promise<PresenterPageData | null> {
  const row = await accessibleRow(db, route, viewer);
  if (!row) return null;
  const basePath = "linkId" in route ? `/view/${route.linkId}/` : `/p/${row.oid}/`;
  return {
    oid: row.oid,
    title: row.title,
    documentUrl: `${basePath}document.json`,
    stepCount: row.document.path.length,
  };
}
