import type { PresentationBootData, PresentationPageData } from "../features/presentation/page-data";
import { sidebarFromMarkup } from "../features/sidebar/components/sidebar-markup";

/**
 * Issue 11: the view page's data, made whole again from its boot data and the server's markup:
 * the sidebar's cards and staff picks are read back from the sidebar; the transcript stays null,
 * its markup kept as it is (Transcript).
 */
export function presentationDataFrom(boot: PresentationBootData): PresentationPageData {
  return { ...boot, ...sidebarFromMarkup(document) };
}
