import type { Database } from "../../db/client";
import { hashPassword } from "../../features/accounts/password";
import { findUserByEmail, insertUser, type UserRow } from "../../features/accounts/repository";
import { sanitizeDescription } from "../../features/presentation/description";
import { highlightCode } from "../../features/presentation/document/highlight";
import { importMarkdown } from "../../features/presentation/document/markdown";
import { insertPresentationIfAbsent, insertViewLinkIfAbsent } from "../../features/presentation/repository";
import { insertVideoCardIfAbsent } from "../../features/sidebar/repository";
import { stableOid } from "../../lib/ids";
import { demoDecks, demoTemplates, demoUsers, demoVideoCards } from "./content/catalogue";
import type { DemoUserKey } from "./content/types";

/**
 * Demo view links (README lists them): the private deck, and an unlisted pitch deck, each
 * watchable by anyone holding the link.
 */
export const DEMO_VIEW_LINKS = [
  { linkId: "demo-view-link-kitchen-renovation", deckSlug: "kitchen-renovation-plan" },
  { linkId: "demo-view-link-lumenly-board-update", deckSlug: "lumenly-board-update-draft" },
] as const;

/** Demo collaborator rights (README): Grace may comment on Ada's board update. */
export const DEMO_COLLABORATORS = [
  { deckSlug: "lumenly-board-update-draft", user: "grace", right: "comment" },
] as const;

/** Every demo account's password (README lists the accounts). */
export const DEMO_PASSWORD = "podium-demo";

const DAY_MS = 24 * 60 * 60 * 1000;

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

export async function seedDemoContent(db: Database, now = new Date()): Promise<SeedReport> {
  const report: SeedReport = { users: 0, presentations: 0, templates: 0, videoCards: 0, viewLinks: 0 };
  // Hash outside the transaction: scrypt is slow on purpose, and only new users need it.
  const passwordHashes = new Map<string, string>();
  for (const user of demoUsers) {
    if (!(await findUserByEmail(db, user.email))) passwordHashes.set(user.key, await hashPassword(DEMO_PASSWORD));
  }
  await db.transaction(async (tx) => {
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
      if (inserted) report.presentations += 1;
    }
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
      if (inserted) report.viewLinks += 1;
    }
  });
  return report;
}
