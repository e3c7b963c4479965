/**
 * Issue 12: where a presentation's reading mode is (every step as a column of slides with its
 * text): `/p/read/{oid}/` by the view page's rules, `/view/{linkId}/read/` through a view link.
 * Not `/p/{oid}/read/`: that is the view page of a presentation titled "Read".
 */
export function readingPathOf(data: { oid: string; viewLink: { link_id: string } | null }): string {
  return data.viewLink ? `/view/${data.viewLink.link_id}/read/` : `/p/read/${data.oid}/`;
}
