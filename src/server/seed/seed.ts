import type { Database, Queryable } from "../../db/client";
import { takeTransactionLock } from "../../db/locks";
import { highlightCode } from "../../document/highlight";
import { importMarkdown } from "../../document/markdown";
import { hashPassword } from "../../features/accounts/password";
import { findUserByEmail, insertUser, type UserRow } from "../../features/accounts/repository";
import { sanitizeDescription } from "../../features/presentation/description";
import { insertPresentationIfAbsent, insertViewLinkIfAbsent } from "../../features/presentation/repository";
import { insertVideoCardIfAbsent } from "../../features/sidebar/repository";
import { stableOid } from "../../lib/ids";
import { demoDecks, demoTemplates, demoUsers, demoVideoCards } from "./content/catalogue";
import { PEOPLE_FIRST_NAMES, PEOPLE_LAST_NAMES } from "./content/names";
import type { DemoUserKey } from "./content/types";

/**
 * Demo view links (README lists them): the private deck, and an unlisted pitch deck, each
 * watchable by anyone holding the link.
 */
export const DEMO_VIEW_LINKS = [
  { linkId: "demo-view-link-kitchen-renovation", deckSlug: "kitchen-renovation-plan" },
  // Issue 33 item 4: this link lets its viewers download the deck (the width sweep's view-link page shows it).
  { linkId: "demo-view-link-lumenly-board-update", deckSlug: "lumenly-board-update-draft", allowDownload: true },
] as const;

/** Demo collaborator rights (README): Grace may comment on Ada's board update. */
export const DEMO_COLLABORATORS = [
  { deckSlug: "lumenly-board-update-draft", user: "grace", right: "comment" },
] as const;

/** Every demo account's password (README lists the accounts). */
export const DEMO_PASSWORD = "podium-demo";

const DAY_MS = 24 * 60 * 60 * 1000;
/** An arbitrary constant: the advisory lock that serialises seeding across processes (issue 16 item 5). */
const SEED_LOCK_KEY = 727_360_002;

/**
 * Issue 12, "demo data looks fake": decks had 100k+ views and 0 likes. A demo deck is liked by a
 * few percent of its viewers (DEMO_LIKE_RATE, between 1.5 % and 3.5 %, a fixed share per deck), by
 * real rows from the demo audience: accounts that watch and like but can't sign in (no password),
 * so a like's count still equals its rows and the owner's chart draws them by day.
 */
export const DEMO_LIKE_RATE = { min: 0.015, max: 0.035 } as const;
/** The demo audience: enough people for the most liked deck. */
export const DEMO_AUDIENCE_SIZE = 1200;

/** A number in [0, 1) from a text, the same on every run (FNV-1a). */
function stableFraction(key: string): number {
  let hash = 0x811c9dc5;
  for (const char of key) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash / 2 ** 32;
}

/** How many demo likes a deck has: a few percent of its views, a share of its own. */
export function demoLikesOf(deck: { slug: string; viewCount: number }): number {
  const rate = DEMO_LIKE_RATE.min + (DEMO_LIKE_RATE.max - DEMO_LIKE_RATE.min) * stableFraction(`rate:${deck.slug}`);
  return Math.min(DEMO_AUDIENCE_SIZE, Math.round(deck.viewCount * rate));
}

/** The n-th member of the demo audience (stable keys: the seed stays idempotent). */
function audienceMember(n: number) {
  const first = PEOPLE_FIRST_NAMES[n % PEOPLE_FIRST_NAMES.length] ?? "Alex";
  const last = PEOPLE_LAST_NAMES[Math.floor(n / PEOPLE_FIRST_NAMES.length) % PEOPLE_LAST_NAMES.length] ?? "Lee";
  return {
    oid: stableOid(`audience:${n}`),
    email: `audience-${n}@audience.podium.test`,
    username: `audience.${n}`,
    firstName: first,
    lastName: last,
  };
}

const deckSources = import.meta.glob<string>("./content/decks/*.md", { query: "?raw", import: "default", eager: true });
const templateSources = import.meta.glob<string>("./content/templates/*.md", {
  query: "?raw",
  import: "default",
  eager: true,
});

function sourceOf(sources: Record<string, string>, folder: string, slug: string): string {
  const source = sources[`./content/${folder}/${slug}.md`];
  if (source === undefined) throw new Error(`Demo content is missing ${folder}/${slug}.md`);
  return source;
}

export interface SeedReport {
  users: number;
  /** Demo audience accounts (they like decks; nobody signs in as them). */
  audience: number;
  /** Demo likes, by the audience. */
  likes: number;
  presentations: number;
  templates: number;
  videoCards: number;
  viewLinks: number;
}

/**
 * Seeds the demo content idempotently: every row has a stable key (email, oid, slug) and is
 * inserted only when absent, so a second run changes nothing. It runs in one transaction:
 * a failure leaves no half-seeded database.
 */
/** A demo deck's document (code highlighted, as an import does) and the Markdown it keeps. */
function imported(source: string, schemaVersion: "0" | "2") {
  return { document: importMarkdown(source, schemaVersion, { highlight: highlightCode }), sourceMarkdown: source };
}

/** A report of a run that inserted nothing (what a second run gives: seeding is idempotent). */
export function nothingSeeded(): SeedReport {
  return { users: 0, audience: 0, likes: 0, presentations: 0, templates: 0, videoCards: 0, viewLinks: 0 };
}

export async function seedDemoContent(db: Database, now = new Date()): Promise<SeedReport> {
  const report = nothingSeeded();
  // Hash outside the transaction: scrypt is slow on purpose, and only new users need it.
  const passwordHashes = new Map<string, string>();
  for (const user of demoUsers) {
    if (!(await findUserByEmail(db, user.email))) passwordHashes.set(user.key, await hashPassword(DEMO_PASSWORD));
  }
  await db.transaction(async (tx) => {
    // Issue 16 item 5: processes starting together on a fresh database seed one after the other;
    // the later ones then find everything present (each statement sees what the first committed).
    await takeTransactionLock(tx, SEED_LOCK_KEY, "demo seed");
    const users = new Map<DemoUserKey, UserRow>();
    for (const user of demoUsers) {
      let row = await findUserByEmail(tx, user.email);
      if (!row) {
        row = await insertUser(tx, {
          oid: stableOid(`user:${user.key}`),
          email: user.email,
          username: user.username,
          firstName: user.firstName,
          lastName: user.lastName,
          publicDisplayName: user.publicDisplayName,
          passwordHash: passwordHashes.get(user.key) ?? (await hashPassword(DEMO_PASSWORD)),
          isAdmin: user.isAdmin,
          isCurator: user.isCurator,
        });
        report.users += 1;
      }
      users.set(user.key, row);
    }
    const ownerId = (key: DemoUserKey) => {
      const user = users.get(key);
      if (!user) throw new Error(`Demo content names an unknown user "${key}"`);
      return user.id;
    };
    const audience = await seedAudience(tx);
    report.audience = audience.inserted;
    const likedDecks: (typeof demoDecks)[number][] = [];
    for (const deck of demoDecks) {
      const inserted = await insertPresentationIfAbsent(tx, {
        oid: stableOid(`deck:${deck.slug}`),
        ownerId: ownerId(deck.owner),
        title: deck.title,
        descriptionHtml: sanitizeDescription(deck.descriptionHtml),
        privacy: deck.privacy,
        schemaVersion: deck.schemaVersion,
        tags: deck.tags,
        ...imported(sourceOf(deckSources, "decks", deck.slug), deck.schemaVersion),
        viewCount: deck.viewCount,
        isStaffPick: deck.staffPick,
        lastModified: new Date(now.getTime() - deck.modifiedDaysAgo * DAY_MS),
      });
      if (inserted) {
        report.presentations += 1;
        likedDecks.push(deck);
      }
    }
    report.likes = await seedLikes(tx, likedDecks, audience.ids, now);
    const admin = demoUsers.find((user) => user.isAdmin) ?? demoUsers[0];
    if (!admin) throw new Error("Demo content has no users");
    for (const template of demoTemplates) {
      const inserted = await insertPresentationIfAbsent(tx, {
        oid: stableOid(`template:${template.slug}`),
        ownerId: ownerId(admin.key),
        title: template.title,
        descriptionHtml: sanitizeDescription(template.descriptionHtml),
        privacy: "reusable",
        schemaVersion: template.schemaVersion,
        tags: template.tags,
        ...imported(sourceOf(templateSources, "templates", template.slug), template.schemaVersion),
        templateSlug: template.slug,
        templateSubTitle: template.subTitle,
        lastModified: now,
      });
      if (inserted) report.templates += 1;
    }
    for (const [position, card] of demoVideoCards.entries()) {
      const inserted = await insertVideoCardIfAbsent(tx, {
        slug: card.slug,
        title: card.title,
        subTitle: card.subTitle,
        path: card.path,
        colors: [...card.colors],
        hasPreviewAnimation: card.hasPreviewAnimation,
        position,
      });
      if (inserted) report.videoCards += 1;
    }
    for (const grant of DEMO_COLLABORATORS) {
      await tx.query(
        `insert into collaborators (presentation_id, user_id, access_right)
         select p.id, $2, $3 from presentations p where p.oid = $1
         on conflict (presentation_id, user_id) do nothing`,
        [stableOid(`deck:${grant.deckSlug}`), ownerId(grant.user), grant.right],
      );
    }
    for (const link of DEMO_VIEW_LINKS) {
      const inserted = await insertViewLinkIfAbsent(tx, {
        linkId: link.linkId,
        presentationOid: stableOid(`deck:${link.deckSlug}`),
      });
      if (inserted && "allowDownload" in link) {
        await tx.query("update view_links set allow_download = true where link_id = $1", [link.linkId]);
      }
      if (inserted) report.viewLinks += 1;
    }
  });
  return report;
}

/** The demo audience's accounts, inserted when absent; their ids in order. */
async function seedAudience(tx: Queryable): Promise<{ ids: string[]; inserted: number }> {
  const members = Array.from({ length: DEMO_AUDIENCE_SIZE }, (_, n) => audienceMember(n));
  const inserted = await tx.query(
    `insert into users (oid, email, username, first_name, last_name, password_hash)
     select oid, email, username, first_name, last_name, null
       from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])
            as m(oid, email, username, first_name, last_name)
     on conflict do nothing
     returning id`,
    [
      members.map((m) => m.oid),
      members.map((m) => m.email),
      members.map((m) => m.username),
      members.map((m) => m.firstName),
      members.map((m) => m.lastName),
    ],
  );
  const rows = await tx.query<{ id: string; oid: string }>(
    "select id::text as id, oid from users where oid = any($1)",
    [members.map((m) => m.oid)],
  );
  const idOf = new Map(rows.map((row) => [row.oid, row.id]));
  return {
    ids: members.map((m) => idOf.get(m.oid)).filter((id): id is string => id !== undefined),
    inserted: inserted.length,
  };
}

/**
 * Freshly seeded decks' likes, in two statements: demoLikesOf(deck) people of the audience each (a
 * run of them starting at a place of the deck's own), each liking at a moment since the deck's last
 * change, most of them recently; the like counters' shards (migration 0004) count exactly these rows.
 */
async function seedLikes(
  tx: Queryable,
  decks: readonly { slug: string; viewCount: number; modifiedDaysAgo: number }[],
  audience: readonly string[],
  now: Date,
): Promise<number> {
  const oids: string[] = [];
  const userIds: string[] = [];
  const times: string[] = [];
  for (const deck of decks) {
    const count = Math.min(demoLikesOf(deck), audience.length);
    const start = Math.floor(stableFraction(`start:${deck.slug}`) * audience.length);
    const sinceChange = deck.modifiedDaysAgo * DAY_MS;
    for (let k = 0; k < count; k += 1) {
      oids.push(stableOid(`deck:${deck.slug}`));
      userIds.push(audience[(start + k) % audience.length] ?? "");
      // Between the deck's last change (its creation, as seeded) and now; squared, so most are recent.
      times.push(new Date(now.getTime() - sinceChange * stableFraction(`like:${deck.slug}:${k}`) ** 2).toISOString());
    }
  }
  if (oids.length === 0) return 0;
  const rows = await tx.query(
    `insert into likes (user_id, presentation_id, created_at)
     select l.user_id, p.id, l.created_at
       from unnest($1::text[], $2::bigint[], $3::timestamptz[]) as l(oid, user_id, created_at)
       join presentations p on p.oid = l.oid
     on conflict do nothing
     returning user_id`,
    [oids, userIds, times],
  );
  await tx.query(
    `insert into like_counters (presentation_id, shard, count)
     select l.presentation_id, (l.user_id % 16)::smallint, count(*)::int
       from likes l join presentations p on p.id = l.presentation_id
      where p.oid = any($1::text[])
      group by 1, 2
     on conflict (presentation_id, shard) do update set count = excluded.count`,
    [[...new Set(oids)]],
  );
  return rows.length;
}
