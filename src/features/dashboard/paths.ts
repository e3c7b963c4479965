/** Spec §2 R2.8: where sign-up lands to start a presentation; the dashboard serves it (issue 28, item 3). */
export { CREATE_PATH } from "../accounts/paths";

/** Where the dashboard's pages are (product brief, routes: /dashboard/next/). Pure: pages of other features link here. */
export const DASHBOARD_PATH = "/dashboard/next/";

/** The sections of a presentation's page on the dashboard that other pages link to (issue 12). */
export const MANAGE_SECTIONS = { activity: "activity", sharing: "sharing" } as const;
export type ManageSection = keyof typeof MANAGE_SECTIONS;

/** A presentation's page on the dashboard (details, sharing, analytics), optionally at one section. */
export function managePath(oid: string, section?: ManageSection): string {
  return `${DASHBOARD_PATH}presentations/${oid}/${section ? `#${MANAGE_SECTIONS[section]}` : ""}`;
}
