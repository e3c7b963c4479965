import type { Queryable } from "../../db/client";
import type { LocalImage } from "../../document/markdown";
import type { DocumentWork } from "../document-work";
import { findSourceMarkdown, type PresentationRow } from "./repository";

/**
 * Issue 28 item 7: the image files a deck's Markdown names by a relative path (`tide-chart.png`),
 * not in Podium yet: offered for upload where the import's warning shows (the manage page, the
 * editor). [] when there are none or the deck has no Markdown. Read in a document worker.
 */
export async function localImagesOf(
  db: Queryable,
  documents: DocumentWork,
  row: Pick<PresentationRow, "id" | "schemaVersion">,
): Promise<LocalImage[]> {
  const source = await findSourceMarkdown(db, row.id);
  if (source === null) return [];
  try {
    return (await documents.importMarkdown(source, row.schemaVersion)).localImages;
  } catch {
    // Stored Markdown that no longer reads (a limit lowered since): nothing to offer.
    return [];
  }
}
