import type { SchemaVersion } from "./repository";

/** Spec §2 routes, §6 roles: where Edit and Comment lead, and when the private header shows. */

/** §2: classic presentations (schema '0') edit at /{oid}/edit/, pitch ('2') at /p/edit/{oid}/. */
export function editorUrl(oid: string, schemaVersion: SchemaVersion): string {
  return schemaVersion === "0" ? `/${oid}/edit/` : `/p/edit/${oid}/`;
}

/** §2: commenting mode is the pitch editor's path with #present appended. */
export function commentUrl(oid: string): string {
  return `/p/edit/${oid}/#present`;
}

/** §6: the private header shows only for pitch presentations, to editors or commenters, outside embed mode. */
export function privateHeaderVisible(data: {
  schemaVersion: SchemaVersion;
  viewerRights: { edit: boolean; comment: boolean };
  embedMode: boolean;
}): boolean {
  return data.schemaVersion === "2" && (data.viewerRights.edit || data.viewerRights.comment) && !data.embedMode;
}

/** §6: Edit for the edit right; Comment for the comment right without edit; nothing otherwise. */
export function privateHeaderAction(rights: { edit: boolean; comment: boolean }): "edit" | "comment" | null {
  if (rights.edit) return "edit";
  if (rights.comment) return "comment";
  return null;
}
