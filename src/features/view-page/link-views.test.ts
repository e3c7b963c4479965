import { describe, expect, it } from "vitest";
import { testDatabaseTargets } from "../../db/testing";
import { useTestApp } from "../../server/testing";
import { ADDRESS_VIEWS_PER_HOUR } from "../events/store-batch";

/**
 * Issue 33: views through a view link are counted like public views: the same visitor (its usage
 * session, where the visitor allowed the cookie) once in 30 minutes, an address at most
 * ADDRESS_VIEWS_PER_HOUR times an hour, and only keys are kept, never the address.
 */
describe.each(testDatabaseTargets())("I33.4 link views de-duplicated like public views on $name", (target) => {
  const t = useTestApp(target, { owner: "owner@link-views.test" });

  const linkOfNewDeck = async () => {
    const oid = await t.owner.newDeck({ name: "d.md", content: "# Deck\n---\n# Two" }, { privacy: "private" });
    return t.owner.newViewLink(oid, "Board");
  };
  const views = async (linkId: string) =>
    (await t.db.query<{ views: number }>("select views from view_links where link_id = $1", [linkId]))[0]?.views;
  const open = (linkId: string, cookie: string, address = "192.0.2.20") =>
    t.app.inject({ method: "GET", url: `/view/${linkId}/`, remoteAddress: address, headers: { cookie } });

  it("I33.4 the same visitor within 30 minutes counts once; another visitor counts; nothing but keys is kept", async () => {
    const linkId = await linkOfNewDeck();
    const session = (id: string) =>
      `podium_cookie_consent=performance; podium_usage_session=${encodeURIComponent(JSON.stringify({ session_id: id }))}`;
    expect((await open(linkId, session("aaaaaaaaaaaa"))).statusCode).toBe(200);
    expect((await open(linkId, session("aaaaaaaaaaaa"))).statusCode).toBe(200);
    expect(await views(linkId)).toBe(1);
    await open(linkId, session("bbbbbbbbbbbb"));
    expect(await views(linkId)).toBe(2);
    // A usage-session cookie without consent is not a visitor: each page load is a new one.
    await open(linkId, `podium_usage_session=${encodeURIComponent(JSON.stringify({ session_id: "cccccccccccc" }))}`);
    await open(linkId, `podium_usage_session=${encodeURIComponent(JSON.stringify({ session_id: "cccccccccccc" }))}`);
    expect(await views(linkId)).toBe(4);
    const kept = await t.db.query<Record<string, unknown>>("select * from view_link_visits where link_id = $1", [
      linkId,
    ]);
    expect(kept).toHaveLength(4);
    expect(JSON.stringify(kept)).not.toContain("192.0.2.20");
    expect(JSON.stringify(kept)).not.toContain("aaaaaaaaaaaa");
  });

  it("I33.4 one address counts at most ADDRESS_VIEWS_PER_HOUR views of a link an hour; another address still counts", async () => {
    const linkId = await linkOfNewDeck();
    for (let i = 0; i < ADDRESS_VIEWS_PER_HOUR + 3; i++) await open(linkId, "", "198.51.100.40");
    expect(await views(linkId)).toBe(ADDRESS_VIEWS_PER_HOUR);
    await open(linkId, "", "198.51.100.41");
    expect(await views(linkId)).toBe(ADDRESS_VIEWS_PER_HOUR + 1);
  });
});
