// Vitest global setup (issue 29 item 2): prepares, once per run, the databases test databases copy
// (db/testing/templates.ts): every migration applied, and that plus the demo content (for the tests
// that run on it: seeding takes seconds, most of them scrypt). Removed again in the teardown.
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { listMigrations } from "../../db/migrate";
import {
  preparePgliteTemplate,
  preparePostgresTemplate,
  removeTemplate,
  type TestTemplate,
} from "../../db/testing/templates";
import { seedDemoContent } from "../seed/seed";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const migrations = listMigrations();
  // Random per run: several runs may share the machine and its PostgreSQL.
  const runId = randomBytes(6).toString("hex");
  const adminUrl = process.env.TEST_DATABASE_URL;
  const templateOf = (kind: string): TestTemplate => ({
    pgliteDataDir: join(tmpdir(), `podium-test-${kind}-${runId}.tar`),
    postgresTemplate: adminUrl ? `podium_template_${kind}_${runId}` : null,
  });
  const migrated = templateOf("migrated");
  const seeded = templateOf("seeded");
  const teardown = async () => {
    await removeTemplate(seeded, adminUrl);
    await removeTemplate(migrated, adminUrl);
  };
  try {
    // One after the other: PGlite holds this thread for seconds (initdb), long enough for a
    // PostgreSQL client's connection timeout to fire if both ran at once.
    if (adminUrl && migrated.postgresTemplate && seeded.postgresTemplate) {
      await preparePostgresTemplate(adminUrl, migrated.postgresTemplate, { migrations });
      await preparePostgresTemplate(adminUrl, seeded.postgresTemplate, { from: migrated.postgresTemplate }, (db) =>
        seedDemoContent(db),
      );
    }
    await preparePgliteTemplate(migrated.pgliteDataDir, { migrations });
    await preparePgliteTemplate(seeded.pgliteDataDir, { from: migrated.pgliteDataDir }, (db) => seedDemoContent(db));
  } catch (error) {
    await teardown();
    throw error;
  }
  project.provide("podiumTestTemplates", {
    migrated,
    seeded,
    migrations: migrations.map((migration) => migration.name),
  });
  return teardown;
}
