import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/client";
import { testDatabaseTargets } from "../db/testing";
import { buildApp } from "./app";
import { TEST_CONFIG, TestAgent } from "./testing";

/**
 * Issue 27 item 4: a write that loses a race no route foresaw is a 409 in words, not a 500. The
 * race is forced: just before the request's own statement runs, the hook writes what another
 * request would have written a moment earlier (the same random key, or the deletion of the row
 * the request checked).
 */

/** Part of the page's words (error.badRequest.conflict), free of characters HTML escapes. */
const CONFLICT_WORDS = "changed or removed the same thing at the same moment";

type Hook = { pattern: RegExp; run: (params: readonly unknown[]) => Promise<void> };

/** The database, with a hook run (once) just before the first statement matching its pattern. */
function hooked(db: Database, hooks: Hook[]): Database {
  return {
    ...db,
    async query<Row>(sql: string, params?: readonly unknown[]) {
      const index = hooks.findIndex((hook) => hook.pattern.test(sql));
      const hook = hooks[index];
      if (hook) {
        hooks.splice(index, 1);
        await hook.run(params ?? []);
      }
      return db.query<Row>(sql, params);
    },
  };
}

describe.each(testDatabaseTargets())("writes that lose a race on $name", (target) => {
  const hooks: Hook[] = [];
  let db: Database;
  let drop: () => Promise<void>;
  let app: FastifyInstance;
  beforeAll(async () => {
    ({ db, drop } = await target.create());
    app = await buildApp(TEST_CONFIG, hooked(db, hooks));
  });
  afterAll(async () => {
    await app.close();
    await drop();
  });

  /** A signed-in owner of a new private deck, and the deck's oid and editor address. */
  async function ownerWithDeck(email: string) {
    const owner = new TestAgent(app);
    await owner.signUp(email);
    await owner.get("/v/create/");
    const created = await owner.postForm("/v/create/", { title: "Racing deck" });
    expect(created.statusCode).toBe(303);
    const editor = String(created.headers.location).split("?")[0] ?? "";
    const [row] = await db.query<{ oid: string }>(
      "select p.oid from presentations p join users u on u.id = p.owner_id where u.email = $1",
      [email],
    );
    return { owner, oid: row?.oid ?? "", editor };
  }

  it("issue 27 item 4: a comment on a presentation deleted after the request checked it is a 409 in words", async () => {
    const { owner, oid, editor } = await ownerWithDeck("comment.race@podium.test");
    hooks.push({
      pattern: /insert into comments/,
      run: async ([presentationId]) => {
        await db.query("delete from presentations where id = $1", [presentationId]);
      },
    });
    const answer = await owner.postForm(`${editor}comments`, { body: "Just in time?" });
    expect(hooks).toHaveLength(0);
    expect(answer.statusCode).toBe(409);
    expect(answer.body).toContain(CONFLICT_WORDS);
    expect(await db.query("select 1 from presentations where oid = $1", [oid])).toHaveLength(0);
    expect(await db.query("select 1 from comments")).toHaveLength(0);
  });

  it("issue 27 item 4: a view link whose new id another request took first is a 409 in words, for a page and for JSON", async () => {
    const { owner, oid } = await ownerWithDeck("link.race@podium.test");
    const takeItFirst = {
      pattern: /insert into view_links \(link_id, presentation_id, for_presenting, name\) values/,
      run: async ([linkId, presentationId]: readonly unknown[]) => {
        await db.query("insert into view_links (link_id, presentation_id) values ($1, $2)", [linkId, presentationId]);
      },
    };
    const path = `/dashboard/next/presentations/${oid}/view-links`;
    hooks.push(takeItFirst);
    const page = await owner.postForm(path, {});
    expect(hooks).toHaveLength(0);
    expect(page.statusCode).toBe(409);
    expect(page.body).toContain(CONFLICT_WORDS);

    hooks.push(takeItFirst);
    const json = await owner.postForm(path, {}, { headers: { accept: "application/json" } });
    expect(json.statusCode).toBe(409);
    expect(json.json()).toEqual({
      statusCode: 409,
      message: "Someone changed or removed this at the same moment. Reload and try again.",
    });
    // Only the two links the hook inserted: the requests' own inserts were refused.
    expect(await db.query("select 1 from view_links")).toHaveLength(2);
  });
});
