/**
 * Spec §2 R2.8: sign-up after segmentation goes on to the dashboard, which sends the person to
 * `/v/create/` to start a presentation (served by the dashboard since issue 28, item 3). Pure:
 * pages of other features link here.
 */
export const CREATE_PATH = "/v/create/";
export const AFTER_SEGMENTATION_NEXT = `/dashboard/next?after_segmentation_url=${CREATE_PATH}`;
