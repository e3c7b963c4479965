import type { PresentationDocument, Theme } from "../../document/schema";
import type { OwnerData } from "../presentation/page-data";

/**
 * Issue 12, reading mode: every step of a presentation as a column of slides, each with its text,
 * for reading on a phone (or anywhere) without presenting. `/p/read/{oid}/` follows the view
 * page's rules (and is cached like it); `/view/{linkId}/read/` the view link's (never cached).
 */
export interface ReadingPageData {
  oid: string;
  title: string;
  owner: OwnerData;
  /** ISO 8601 instant; the page formats it in the visitor's language. */
  lastModified: string;
  /** The page with the player: the public view page, or the view link's page. */
  playerPath: string;
  stepCount: number;
  theme: Theme | null;
  /**
   * The server's guess of a slide's width in CSS pixels (by device class), so that slides are
   * drawn at about the right scale before the page's script measures the real width.
   */
  frameWidth: number;
  /** The server draws the slides from it; the browser keeps that markup (null in the boot data). */
  document: PresentationDocument | null;
}

/** The reading page's data as its browser entry gets it: the slides travel once, as markup. */
export function readingBootData(data: ReadingPageData): ReadingPageData {
  return { ...data, document: null };
}
