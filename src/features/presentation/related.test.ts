import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { listMigrations, migrate } from "../../db/migrate";
import { testDatabaseTargets } from "../../db/testing";
import { listRelatedPresentations } from "./repository";

/**
 * Issue 12 and issue 32: "Related presentations" are other people's listed decks sharing a deck's
 * tags, the most shared first, then the most watched; they are read from presentation_tags, which
 * follows every change that makes a deck listed or not, its tags, its owner and its views.
 */
describe.each(testDatabaseTargets())("issue 32 related decks follow the decks ($name)", (target) => {
  let db: Database;
  let drop: () => Promise<void>;
  let me: string;
  let other: string;

  const deck = async (oid: string, owner: string, tags: string[], views = 0) => {
    await db.query(
      `insert into presentations (oid, owner_id, title, privacy, schema_version, tags, document, view_count)
       values ($1, $2, $3, 'public', '2', $4::text[], '{}'::jsonb, $5)`,
      [oid, owner, `Deck ${oid}`, tags, views],
    );
  };
  const related = async (tags: string[], limit = 8) =>
    (await listRelatedPresentations(db, { tags, excludeOwnerId: me, limit })).map((p) => p.oid);

  beforeAll(async () => {
    ({ db, drop } = await target.create());
    const users = await db.query<{ id: string }>(
      `insert into users (oid, email, username) values ('relatedowner', 'me@x.test', 'me'), ('relatedother', 'o@x.test', 'o')
       returning id::text`,
    );
    [me, other] = users.map((user) => user.id) as [string, string];
    await deck("mineeeeeeee1", me, ["tides", "moon"], 500);
    await deck("bothtagsdeck", other, ["tides", "moon"], 5);
    await deck("tidesonly001", other, ["tides"], 900);
    await deck("moononly0001", other, ["moon"], 50);
    await deck("nothingshare", other, ["baking"], 10_000);
  });
  afterAll(async () => drop());

  it("issue 12: most shared tags first, then most watched; never the owner's own, never a deck sharing nothing", async () => {
    expect(await related(["tides", "moon"])).toEqual(["bothtagsdeck", "tidesonly001", "moononly0001"]);
    expect(await related(["tides", "moon"], 2)).toEqual(["bothtagsdeck", "tidesonly001"]);
    expect(await related([])).toEqual([]);
  });

  it("issue 32: views reorder them; a deck made private, unlisted, hidden or a template leaves, and comes back when listed again", async () => {
    await db.query("update presentations set view_count = 1000 where oid = 'moononly0001'");
    expect(await related(["tides", "moon"])).toEqual(["bothtagsdeck", "moononly0001", "tidesonly001"]);
    for (const change of ["privacy = 'private'", "privacy = 'unlisted'", "hidden = true", "template_slug = 'tpl'"]) {
      await db.query(`update presentations set ${change} where oid = 'bothtagsdeck'`);
      expect(await related(["tides", "moon"]), change).toEqual(["moononly0001", "tidesonly001"]);
      await db.query(
        "update presentations set privacy = 'public', hidden = false, template_slug = null where oid = 'bothtagsdeck'",
      );
      expect(await related(["tides", "moon"]), change).toEqual(["bothtagsdeck", "moononly0001", "tidesonly001"]);
    }
  });

  it("issue 32: new tags, a new owner and a deletion are followed at once", async () => {
    await db.query("update presentations set tags = array['baking'] where oid = 'tidesonly001'");
    expect(await related(["tides", "moon"])).toEqual(["bothtagsdeck", "moononly0001"]);
    await db.query("update presentations set owner_id = $1 where oid = 'moononly0001'", [me]);
    expect(await related(["tides", "moon"])).toEqual(["bothtagsdeck"]);
    await db.query("delete from presentations where oid = 'bothtagsdeck'");
    expect(await related(["tides", "moon"])).toEqual([]);
    expect(await related(["baking"])).toEqual(["nothingshare", "tidesonly001"]);
  });

  it("issue 32: decks listed before the table existed are in it once migrated", async () => {
    const before = listMigrations().filter((migration) => migration.name < "0021");
    const older = await target.create(before);
    try {
      await older.db.query(
        "insert into users (oid, email, username) values ('olderowner01', 'a@x.test', 'a'), ('olderowner02', 'b@x.test', 'b')",
      );
      await older.db.query(
        `insert into presentations (oid, owner_id, title, privacy, schema_version, tags, document)
         select 'olderdeck001', id, 'Old deck', 'public', '2', array['tides'], '{}'::jsonb from users where oid = 'olderowner02'`,
      );
      await migrate(older.db);
      const [owner] = await older.db.query<{ id: string }>("select id::text from users where oid = 'olderowner01'");
      const found = await listRelatedPresentations(older.db, {
        tags: ["tides"],
        excludeOwnerId: owner?.id ?? "",
        limit: 8,
      });
      expect(found.map((p) => p.oid)).toEqual(["olderdeck001"]);
    } finally {
      await older.drop();
    }
  });
});
