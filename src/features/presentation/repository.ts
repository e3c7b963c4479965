import type { Database, Queryable } from "../../db/client";
import { documentImageUrls } from "../../document/camera";
import { audienceDocument } from "../../document/notes";
import type { PresentationDocument } from "../../document/schema";
import { newOid } from "../../lib/ids";
import { assetHashesIn, relinkAssets, sweepUnusedAssets } from "../assets/repository";

/** The only place that knows how presentations are stored. */

export type Privacy = "public" | "reusable" | "unlisted" | "private";
export type SchemaVersion = "0" | "2";

export interface OwnerRow {
  ownerOid: string;
  ownerUsername: string;
  ownerFirstName: string;
  ownerLastName: string;
  ownerPublicDisplayName: string | null;
  ownerEmail: string;
}

/** What a presentation is, stored or about to be. */
interface PresentationFields {
  oid: string;
  ownerId: string;
  title: string;
  descriptionHtml: string;
  privacy: Privacy;
  schemaVersion: SchemaVersion;
  tags: string[];
  document: PresentationDocument;
}

export interface PresentationRow extends OwnerRow, PresentationFields {
  id: string;
  likesCount: number;
  viewCount: number;
  isStaffPick: boolean;
  templateSlug: string | null;
  templateSubTitle: string | null;
  hidden: boolean;
  lastModified: Date;
  /** Issue 28: the owner published the speaker notes (migration 0018; private by default). */
  notesPublic: boolean;
  /** Issue 34: the sites that may embed the deck (migration 0022; empty: any site). */
  embedHosts: string[];
  /** Issue 33 item 4: viewers of the public page may download it (migration 0027; off by default). */
  allowDownload: boolean;
  /** Issue 33 item 4: it has a Markdown source (a Markdown deck), downloadable with it. */
  hasMarkdown: boolean;
}

export type PresentationSummary = Omit<
  PresentationRow,
  "document" | "descriptionHtml" | "notesPublic" | "embedHosts" | "allowDownload" | "hasMarkdown"
>;

/**
 * Issue 28: what a full row's document carries. By default its audience's document: the speaker
 * notes only when published, so a page, cache or export built from a row can't show private notes.
 * The presenter view, the editor and the owner's own copy ask for them (`withPrivateNotes`).
 */
export interface RowOptions {
  withPrivateNotes?: boolean;
}

function rowFor(row: PresentationRow, options: RowOptions): PresentationRow {
  return options.withPrivateNotes ? row : { ...row, document: audienceDocument(row.document, row.notesPublic) };
}

const OWNER_COLUMNS = `
  u.oid as "ownerOid", u.username as "ownerUsername", u.first_name as "ownerFirstName",
  u.last_name as "ownerLastName", u.public_display_name as "ownerPublicDisplayName",
  u.email as "ownerEmail"`;

const SUMMARY_COLUMNS = `
  p.id::text as id, p.owner_id::text as "ownerId", p.oid, p.title, p.privacy, p.schema_version as "schemaVersion", p.tags,
  (select coalesce(sum(c.count), 0)::int from like_counters c where c.presentation_id = p.id) as "likesCount", p.view_count as "viewCount", p.is_staff_pick as "isStaffPick",
  p.template_slug as "templateSlug", p.template_sub_title as "templateSubTitle", p.hidden,
  p.last_modified as "lastModified", ${OWNER_COLUMNS}`;

/**
 * A presentation's summary as one JSON object, for a query that returns it beside other things
 * (search's page of hits, issue 15) and has the presentation as `p` and its owner as `u` in scope;
 * summaryFromJson reads it back.
 */
export const PRESENTATION_SUMMARY_JSON = `(select to_json(s) from (select ${SUMMARY_COLUMNS}) s)`;

export function summaryFromJson(json: Omit<PresentationSummary, "lastModified"> & { lastModified: string }) {
  return { ...json, lastModified: new Date(json.lastModified) } satisfies PresentationSummary;
}

/** Listed means anyone may find it: public or reusable, and not hidden by moderation. */
const LISTED = `p.privacy in ('public', 'reusable') and not p.hidden and p.template_slug is null`;

export async function findPresentationByOid(
  db: Queryable,
  oid: string,
  options: RowOptions = {},
): Promise<PresentationRow | null> {
  const rows = await db.query<PresentationRow>(
    `select ${SUMMARY_COLUMNS}, p.description_html as "descriptionHtml", p.document, p.notes_public as "notesPublic", p.embed_hosts as "embedHosts",
            p.allow_download as "allowDownload", p.source_markdown is not null as "hasMarkdown"
       from presentations p join users u on u.id = p.owner_id
      where p.oid = $1`,
    [oid],
  );
  return rows[0] ? rowFor(rows[0], options) : null;
}

/** A presentation's counts as they are now (the rest of its row may come from a cache). */
export async function findPresentationCounts(
  db: Queryable,
  id: string,
): Promise<{ likesCount: number; viewCount: number } | null> {
  const rows = await db.query<{ likesCount: number; viewCount: number }>(
    `select p.view_count as "viewCount",
            (select coalesce(sum(c.count), 0)::int from like_counters c where c.presentation_id = p.id) as "likesCount"
       from presentations p where p.id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

/**
 * The counts and, for a signed-in viewer, their collaborator right and whether they liked it:
 * what the view page reads fresh on every request, in one round trip (issue 11).
 */
export async function findPresentationFacts(
  db: Queryable,
  id: string,
  userId: string | null,
): Promise<{
  likesCount: number;
  viewCount: number;
  collaboratorRight: "edit" | "comment" | null;
  liked: boolean;
} | null> {
  const rows = await db.query<{
    likesCount: number;
    viewCount: number;
    collaboratorRight: "edit" | "comment" | null;
    liked: boolean;
  }>(
    `select p.view_count as "viewCount",
            (select coalesce(sum(c.count), 0)::int from like_counters c where c.presentation_id = p.id) as "likesCount",
            (select k.access_right from collaborators k where k.presentation_id = p.id and k.user_id = $2) as "collaboratorRight",
            exists (select 1 from likes l where l.presentation_id = p.id and l.user_id = $2) as "liked"
       from presentations p where p.id = $1`,
    [id, userId],
  );
  return rows[0] ?? null;
}

export async function listListedPresentations(
  db: Queryable,
  options: { limit: number; offset?: number },
): Promise<PresentationSummary[]> {
  return db.query<PresentationSummary>(
    `select ${SUMMARY_COLUMNS}
       from presentations p join users u on u.id = p.owner_id
      where ${LISTED}
      order by p.last_modified desc, p.id desc
      limit $1 offset $2`,
    [options.limit, options.offset ?? 0],
  );
}

export async function countListedPresentations(db: Queryable): Promise<number> {
  const rows = await db.query<{ count: number }>(`select count(*)::int as count from presentations p where ${LISTED}`);
  return rows[0]?.count ?? 0;
}

export async function listStaffPicks(db: Queryable, limit: number): Promise<PresentationSummary[]> {
  return db.query<PresentationSummary>(
    `select ${SUMMARY_COLUMNS}
       from presentations p join users u on u.id = p.owner_id
      where ${LISTED} and p.is_staff_pick
      order by p.last_modified desc, p.id desc
      limit $1`,
    [limit],
  );
}

/**
 * The listed presentations whose ids are in [fromId, toId): oid, title and date, oldest first (one
 * page of the sitemap). Issue 32: read off an index of listed ids, so a page reads what it lists.
 */
export async function listSitemapEntries(
  db: Queryable,
  ids: { fromId: number; toId: number },
): Promise<{ oid: string; title: string; lastModified: Date }[]> {
  return db.query(
    `select p.oid, p.title, p.last_modified as "lastModified"
       from presentations p where ${LISTED} and p.id >= $1 and p.id < $2 order by p.id`,
    [ids.fromId, ids.toId],
  );
}

/** The highest id of a listed presentation (0 when none): how many sitemap pages there are. */
export async function lastListedId(db: Queryable): Promise<number> {
  const rows = await db.query<{ id: string | null }>(
    `select max(p.id)::text as id from presentations p where ${LISTED}`,
  );
  return Number(rows[0]?.id ?? 0);
}

export interface NewPresentation extends PresentationFields {
  viewCount?: number;
  isStaffPick?: boolean;
  templateSlug?: string | null;
  templateSubTitle?: string | null;
  lastModified?: Date;
  /** The Markdown it was imported from, kept beside the document (migration 0009). */
  sourceMarkdown?: string | null;
}

/** How many fresh random oids a new presentation tries before giving up (one taken is already rare). */
const NEW_OID_ATTEMPTS = 5;

/**
 * Inserts a new presentation under a fresh random oid (another one if that is taken, up to
 * NEW_OID_ATTEMPTS): its oid. Import, new and copy all make presentations so.
 */
export async function insertNewPresentation(db: Queryable, p: Omit<NewPresentation, "oid">): Promise<string> {
  for (let attempt = 0; attempt < NEW_OID_ATTEMPTS; attempt += 1) {
    const oid = newOid();
    if (await insertPresentationIfAbsent(db, { ...p, oid })) return oid;
  }
  throw new Error("could not find a free oid");
}

/** Inserts a presentation unless one with its oid exists; true when it inserted. */
export async function insertPresentationIfAbsent(db: Queryable, p: NewPresentation): Promise<boolean> {
  // The images it shows are recorded in the same statement (migration 0008, features/assets).
  const rows = await db.query(
    `with inserted as (
       insert into presentations
         (oid, owner_id, title, description_html, privacy, schema_version, tags, document,
          view_count, is_staff_pick, template_slug, template_sub_title, last_modified, created_at, source_markdown)
       values ($1, $2, $3, $4, $5, $6, $7::text[], $8::jsonb, $9, $10, $11, $12, $13, $13, $15)
       on conflict (oid) do nothing
       returning id),
     used as (
       insert into presentation_assets (presentation_id, asset_hash)
       select inserted.id, assets.hash from inserted join assets on assets.hash = any($14::text[])
       on conflict do nothing)
     select id from inserted`,
    [
      p.oid,
      p.ownerId,
      p.title,
      p.descriptionHtml,
      p.privacy,
      p.schemaVersion,
      p.tags,
      JSON.stringify(p.document),
      p.viewCount ?? 0,
      p.isStaffPick ?? false,
      p.templateSlug ?? null,
      p.templateSubTitle ?? null,
      p.lastModified ?? new Date(),
      assetHashesIn(documentImageUrls(p.document)),
      p.sourceMarkdown ?? null,
    ],
  );
  if (rows.length > 0) await sweepUnusedAssets(db);
  return rows.length > 0;
}

/**
 * Puts a new document in place of a presentation's slides (a PDF imported again from the editor),
 * keeping everything else (title, likes, views, links); the Markdown source goes, since the new
 * slides weren't made from it. The images it shows are recorded in the same statement.
 */
export async function replacePresentationDocument(
  db: Queryable,
  presentationId: string,
  document: PresentationDocument,
): Promise<void> {
  await db.query(
    `with updated as (
       update presentations
          set document = $2::jsonb, source_markdown = null, last_modified = now()
        where id = $1
        returning id),
     ${relinkAssets("$3")}
     select 1`,
    [presentationId, JSON.stringify(document), assetHashesIn(documentImageUrls(document))],
  );
  await sweepUnusedAssets(db);
}

export interface ViewLinkRow {
  linkId: string;
  keyType: string;
  presentationOid: string;
  /** Issue 28: made for presenting: its holder may open the presenter view, notes included. */
  forPresenting: boolean;
  /** Issue 33: the owner turned it off (or revoked it). */
  enabled: boolean;
  /** Issue 33: it stops working at this instant. */
  expiresAt: Date | null;
  /** Issue 33: the scrypt hash of its passcode (accounts/password.ts), when it has one. */
  passcodeHash: string | null;
  allowDownload: boolean;
}

/**
 * A view link with its settings and the oid of its presentation, or null when there is none.
 * Issue 33: revoked links are found too (as turned off), so the page can say so in words.
 */
export async function findViewLink(db: Queryable, linkId: string): Promise<ViewLinkRow | null> {
  const rows = await db.query<ViewLinkRow>(
    `select v.link_id as "linkId", v.key_type as "keyType", p.oid as "presentationOid",
            v.for_presenting as "forPresenting", v.enabled and v.revoked_at is null as "enabled",
            v.expires_at as "expiresAt", v.passcode_hash as "passcodeHash", v.allow_download as "allowDownload"
       from view_links v join presentations p on p.id = v.presentation_id
      where v.link_id = $1`,
    [linkId],
  );
  return rows[0] ?? null;
}

/** A visit through a view link, as keys (events/sender-keys.ts): never an address or a session id. */
export interface LinkVisit {
  visitor: string;
  visitorBefore: string | null;
  address: string;
  addressBefore: string | null;
  at: Date;
}

/**
 * Issue 33: one more view through a view link, and when, counted like public views: not when the
 * same visitor counted one in the `windowMinutes` before, nor past `perAddressHour` views from its
 * address in the hour before (migration 0027). The link's row is locked first, so two requests of
 * one visitor at once count once. True when it counted.
 */
export async function countViewLinkVisit(
  db: Database,
  linkId: string,
  visit: LinkVisit,
  rules: { windowMinutes: number; perAddressHour: number },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const locked = await tx.query("select 1 from view_links where link_id = $1 for update", [linkId]);
    if (locked.length === 0) return false;
    const [row] = await tx.query<{ counted: boolean }>(
      `with decided as (
         select not exists (select 1 from view_link_visits v
                             where v.link_id = $1 and v.visitor_key in ($2::text, $3::text)
                               and v.viewed_at > $6::timestamptz - make_interval(mins => $7::int))
                and (select count(*) from view_link_visits v
                      where v.link_id = $1 and v.address_key in ($4::text, $5::text)
                        and v.viewed_at > $6::timestamptz - interval '1 hour') < $8::int as counts
       ),
       recorded as (
         insert into view_link_visits (link_id, visitor_key, address_key, viewed_at)
         select $1::text, $2::text, $4::text, $6::timestamptz from decided where counts
         returning 1
       ),
       counted as (
         update view_links set views = views + 1, last_viewed_at = $6::timestamptz
          where link_id = $1 and (select counts from decided)
         returning 1
       ),
       pruned as (
         delete from view_link_visits where link_id = $1 and viewed_at < $6::timestamptz - interval '1 day'
         returning 1
       )
       select (select count(*) from counted) > 0 as counted, (select count(*) from recorded) as r,
              (select count(*) from pruned) as p`,
      [
        linkId,
        visit.visitor,
        visit.visitorBefore,
        visit.address,
        visit.addressBefore,
        visit.at,
        rules.windowMinutes,
        rules.perAddressHour,
      ],
    );
    return row?.counted === true;
  });
}

/** Inserts a view link unless one with its link id exists; true when it inserted. */
export async function insertViewLinkIfAbsent(
  db: Queryable,
  link: { linkId: string; presentationOid: string; forPresenting?: boolean },
): Promise<boolean> {
  const rows = await db.query(
    `insert into view_links (link_id, presentation_id, for_presenting)
     select $1, id, $3 from presentations where oid = $2
     on conflict (link_id) do nothing returning id`,
    [link.linkId, link.presentationOid, link.forPresenting === true],
  );
  return rows.length > 0;
}

/** Revokes a view link: it stops working at once. */
export async function revokeViewLink(db: Queryable, linkId: string): Promise<boolean> {
  const rows = await db.query(
    "update view_links set revoked_at = now() where link_id = $1 and revoked_at is null returning id",
    [linkId],
  );
  return rows.length > 0;
}

/** The collaborator right a user holds on a presentation, if any. */
export async function findCollaboratorRight(
  db: Queryable,
  presentationId: string,
  userId: string,
): Promise<"edit" | "comment" | null> {
  const rows = await db.query<{ right: "edit" | "comment" }>(
    `select access_right as "right" from collaborators where presentation_id = $1 and user_id = $2`,
    [presentationId, userId],
  );
  return rows[0]?.right ?? null;
}

export async function hasLiked(db: Queryable, userId: string, presentationId: string): Promise<boolean> {
  const rows = await db.query("select 1 from likes where user_id = $1 and presentation_id = $2", [
    userId,
    presentationId,
  ]);
  return rows.length > 0;
}

/** One person's listed presentations, newest first (their public profile). */
export async function listListedPresentationsOf(
  db: Queryable,
  ownerId: string,
  limit: number,
): Promise<PresentationSummary[]> {
  return db.query<PresentationSummary>(
    `select ${SUMMARY_COLUMNS}
       from presentations p join users u on u.id = p.owner_id
      where ${LISTED} and p.owner_id = $1
      order by p.last_modified desc, p.id desc
      limit $2`,
    [ownerId, limit],
  );
}

/** Tags of a deck that "Related presentations" looks through, at most (the first ones). */
const RELATED_TAGS = 10;

/**
 * Issue 12: listed presentations of other people sharing tags with a presentation, the most shared
 * tags first, then the most watched (the view page's "Related presentations"). Issue 32: the
 * candidates are the 2 × `limit` most watched of each tag (presentation_tags, migration 0021), less
 * the owner's own, so the statement reads about 2 × tags × limit rows at any size and in any shape
 * (an owner with every deck of a tag included); a deck sharing several tags but among the most
 * watched of none of them isn't a candidate.
 */
export async function listRelatedPresentations(
  db: Queryable,
  options: { tags: readonly string[]; excludeOwnerId: string; limit: number },
): Promise<PresentationSummary[]> {
  const tags = [...new Set(options.tags)].slice(0, RELATED_TAGS);
  if (tags.length === 0) return [];
  return db.query<PresentationSummary>(
    `with candidates as (
       select c.presentation_id, c.view_count
         from unnest($1::text[]) as wanted(tag),
              lateral (select t.presentation_id, t.view_count, t.owner_id from presentation_tags t
                        where t.tag = wanted.tag
                        order by t.view_count desc, t.presentation_id desc
                        limit $3 * 2) c
        where c.owner_id <> $2),
     ranked as (
       select presentation_id, count(*) as shared, max(view_count) as views from candidates
        group by presentation_id
        order by shared desc, views desc, presentation_id desc
        limit $3)
     select ${SUMMARY_COLUMNS}
       from ranked r join presentations p on p.id = r.presentation_id join users u on u.id = p.owner_id
      order by r.shared desc, r.views desc, r.presentation_id desc`,
    [tags, options.excludeOwnerId, options.limit],
  );
}

/** A person's own presentations, newest first (their dashboard). */
export async function listOwnedPresentations(
  db: Queryable,
  ownerId: string,
  options: { limit: number; offset: number },
): Promise<PresentationSummary[]> {
  return db.query<PresentationSummary>(
    `select ${SUMMARY_COLUMNS}
       from presentations p join users u on u.id = p.owner_id
      where p.owner_id = $1 and p.template_slug is null
      order by p.last_modified desc, p.id desc
      limit $2 offset $3`,
    [ownerId, options.limit, options.offset],
  );
}

export async function countOwnedPresentations(db: Queryable, ownerId: string): Promise<number> {
  const rows = await db.query<{ count: number }>(
    "select count(*)::int as count from presentations where owner_id = $1 and template_slug is null",
    [ownerId],
  );
  return rows[0]?.count ?? 0;
}

export interface PresentationDetails {
  title: string;
  descriptionHtml: string;
  tags: string[];
  privacy: Privacy;
}

export async function updatePresentationDetails(
  db: Queryable,
  oid: string,
  details: PresentationDetails,
): Promise<void> {
  await db.query(
    `update presentations
        set title = $2, description_html = $3, tags = $4::text[], privacy = $5, last_modified = now()
      where oid = $1`,
    [oid, details.title, details.descriptionHtml, details.tags, details.privacy],
  );
}

/** Deletes a presentation; its likes, view links and collaborator rights go with it (cascade). */
export async function deletePresentation(db: Queryable, oid: string): Promise<boolean> {
  const deleted = (await db.query("delete from presentations where oid = $1 returning 1", [oid])).length > 0;
  // Its images are no longer used by it (the cascade): those nothing else uses go once their grace period is over.
  if (deleted) await sweepUnusedAssets(db);
  return deleted;
}

export interface ViewLinkListing {
  linkId: string;
  keyType: string;
  forPresenting: boolean;
  createdAt: Date;
  revokedAt: Date | null;
  /** Issue 33: the owner's settings and the link's views. */
  name: string;
  expiresAt: Date | null;
  hasPasscode: boolean;
  allowDownload: boolean;
  enabled: boolean;
  views: number;
  lastViewedAt: Date | null;
}

export async function listViewLinks(db: Queryable, presentationId: string): Promise<ViewLinkListing[]> {
  return db.query<ViewLinkListing>(
    `select link_id as "linkId", key_type as "keyType", for_presenting as "forPresenting",
            created_at as "createdAt", revoked_at as "revokedAt", name, expires_at as "expiresAt",
            passcode_hash is not null as "hasPasscode", allow_download as "allowDownload", enabled,
            views, last_viewed_at as "lastViewedAt"
       from view_links where presentation_id = $1 order by created_at desc, id desc`,
    [presentationId],
  );
}

export async function insertViewLink(
  db: Queryable,
  presentationId: string,
  linkId: string,
  forPresenting = false,
  name = "",
): Promise<void> {
  await db.query("insert into view_links (link_id, presentation_id, for_presenting, name) values ($1, $2, $3, $4)", [
    linkId,
    presentationId,
    forPresenting,
    name,
  ]);
}

/** Issue 33: the owner's settings of a link. `passcodeHash` undefined keeps the passcode; null removes it. */
export interface ViewLinkSettings {
  name: string;
  expiresAt: Date | null;
  passcodeHash?: string | null;
  allowDownload: boolean;
  enabled: boolean;
}

/** Saves a live link's settings; false when this presentation has no such live link. */
export async function updateViewLinkSettings(
  db: Queryable,
  presentationId: string,
  linkId: string,
  settings: ViewLinkSettings,
): Promise<boolean> {
  const rows = await db.query(
    `update view_links
        set name = $3, expires_at = $4, allow_download = $5, enabled = $6,
            passcode_hash = case when $7::boolean then $8::text else passcode_hash end
      where link_id = $1 and presentation_id = $2 and revoked_at is null returning 1`,
    [
      linkId,
      presentationId,
      settings.name,
      settings.expiresAt,
      settings.allowDownload,
      settings.enabled,
      settings.passcodeHash !== undefined,
      settings.passcodeHash ?? null,
    ],
  );
  return rows.length > 0;
}

/** Revokes one of this presentation's links; false when it has no such live link. */
export async function revokeViewLinkOf(db: Queryable, presentationId: string, linkId: string): Promise<boolean> {
  const rows = await db.query(
    "update view_links set revoked_at = now() where link_id = $1 and presentation_id = $2 and revoked_at is null returning 1",
    [linkId, presentationId],
  );
  return rows.length > 0;
}

export interface CollaboratorListing {
  userOid: string;
  email: string;
  name: string;
  right: "edit" | "comment";
}

export async function listCollaborators(db: Queryable, presentationId: string): Promise<CollaboratorListing[]> {
  return db.query<CollaboratorListing>(
    `select u.oid as "userOid", u.email,
            coalesce(nullif(u.public_display_name, ''), trim(u.first_name || ' ' || u.last_name)) as name,
            c.access_right as "right"
       from collaborators c join users u on u.id = c.user_id
      where c.presentation_id = $1 order by c.created_at, u.id`,
    [presentationId],
  );
}

export async function upsertCollaborator(
  db: Queryable,
  presentationId: string,
  userId: string,
  right: "edit" | "comment",
): Promise<void> {
  await db.query(
    `insert into collaborators (presentation_id, user_id, access_right) values ($1, $2, $3)
     on conflict (presentation_id, user_id) do update set access_right = excluded.access_right`,
    [presentationId, userId, right],
  );
}

export async function removeCollaborator(db: Queryable, presentationId: string, userOid: string): Promise<boolean> {
  const rows = await db.query(
    "delete from collaborators c using users u where c.user_id = u.id and c.presentation_id = $1 and u.oid = $2 returning 1",
    [presentationId, userOid],
  );
  return rows.length > 0;
}

/** Listed presentations matching a tsquery, best match first (search). */
export async function searchListedPresentations(
  db: Queryable,
  tsquery: string,
  options: { limit: number; offset: number },
): Promise<{ rows: PresentationSummary[]; total: number }> {
  const rows = await db.query<PresentationSummary & { total: number }>(
    `select ${SUMMARY_COLUMNS}, count(*) over ()::int as total
       from presentations p join users u on u.id = p.owner_id,
            to_tsquery('simple', $1) as q
      where ${LISTED} and p.search_vector @@ q
      order by ts_rank(p.search_vector, q) desc, p.view_count desc, p.id desc
      limit $2 offset $3`,
    [tsquery, options.limit, options.offset],
  );
  return { rows, total: rows[0]?.total ?? 0 };
}

/** Presentations by id (a search page's hits), in no particular order; the caller orders them. */
export async function listPresentationSummariesByIds(
  db: Queryable,
  ids: readonly string[],
): Promise<PresentationSummary[]> {
  if (ids.length === 0) return [];
  return db.query<PresentationSummary>(
    `select ${SUMMARY_COLUMNS}
       from presentations p join users u on u.id = p.owner_id
      where p.id = any($1::bigint[])`,
    [ids],
  );
}

/** The most watched listed presentations (explore). */
export async function listPopularPresentations(db: Queryable, limit: number): Promise<PresentationSummary[]> {
  return db.query<PresentationSummary>(
    `select ${SUMMARY_COLUMNS}
       from presentations p join users u on u.id = p.owner_id
      where ${LISTED}
      order by p.view_count desc, p.id desc
      limit $1`,
    [limit],
  );
}

/** Just what access decisions need (no document): for hot paths such as likes. */
export async function findAccessFacts(
  db: Queryable,
  oid: string,
): Promise<Pick<PresentationRow, "id" | "ownerId" | "privacy" | "hidden"> | null> {
  const rows = await db.query<Pick<PresentationRow, "id" | "ownerId" | "privacy" | "hidden">>(
    `select id::text as id, owner_id::text as "ownerId", privacy, hidden from presentations where oid = $1`,
    [oid],
  );
  return rows[0] ?? null;
}

/** The template presentations, in a stable order (sidebar, template pages). */
export async function listTemplates(db: Queryable): Promise<PresentationSummary[]> {
  return db.query<PresentationSummary>(
    `select ${SUMMARY_COLUMNS}
       from presentations p join users u on u.id = p.owner_id
      where p.template_slug is not null and not p.hidden
      order by p.id`,
  );
}

export async function findTemplateBySlug(db: Queryable, slug: string): Promise<PresentationRow | null> {
  const rows = await db.query<PresentationRow>(
    `select ${SUMMARY_COLUMNS}, p.description_html as "descriptionHtml", p.document, p.notes_public as "notesPublic", p.embed_hosts as "embedHosts",
            p.allow_download as "allowDownload", p.source_markdown is not null as "hasMarkdown"
       from presentations p join users u on u.id = p.owner_id
      where p.template_slug = $1 and not p.hidden`,
    [slug],
  );
  return rows[0] ? rowFor(rows[0], {}) : null;
}

/** Issue 28: the owner publishes a deck's speaker notes, or makes them private again. */
export async function updateNotesPublic(db: Queryable, presentationId: string, notesPublic: boolean): Promise<void> {
  await db.query("update presentations set notes_public = $2 where id = $1", [presentationId, notesPublic]);
}

/** Issue 34: the owner lists the sites that may embed a deck (empty: any site). */
export async function updateEmbedHosts(db: Queryable, presentationId: string, hosts: readonly string[]): Promise<void> {
  await db.query("update presentations set embed_hosts = $2 where id = $1", [presentationId, hosts]);
}

/** The Markdown a presentation was imported or saved from, or null (JSON imports, older decks). */
export async function findSourceMarkdown(db: Queryable, presentationId: string): Promise<string | null> {
  const rows = await db.query<{ source: string | null }>(
    `select source_markdown as source from presentations where id = $1`,
    [presentationId],
  );
  return rows[0]?.source ?? null;
}
