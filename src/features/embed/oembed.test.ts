import { beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "../../db/testing";
import { stableOid } from "../../lib/ids";
import { insertTestDeck, insertTestUser, TEST_CONFIG, useTestApp } from "../../server/testing";
import type { Privacy } from "../presentation/repository";
import { fitSize, oidFromUrl } from "./oembed";

const ORIGIN = TEST_CONFIG.publicUrl;
const oids = {
  public: stableOid("oembed:public"),
  unlisted: stableOid("oembed:unlisted"),
  private: stableOid("oembed:private"),
  hidden: stableOid("oembed:hidden"),
};

describe("oEmbed sizes and addresses", () => {
  it("fits 16:9 into the consumer's limits, 560×315 by default", () => {
    expect(fitSize(null, null)).toEqual({ width: 560, height: 315 });
    expect(fitSize(400, null)).toEqual({ width: 400, height: 225 });
    expect(fitSize(null, 100)).toEqual({ width: 177, height: 100 });
    expect(fitSize(2000, 2000)).toEqual({ width: 560, height: 315 });
    expect(fitSize(10, 10)).toEqual({ width: 160, height: 90 });
  });

  it("knows only its own view and embed addresses", () => {
    const oid = oids.public;
    expect(oidFromUrl(`${ORIGIN}/p/${oid}/`, ORIGIN)).toBe(oid);
    expect(oidFromUrl(`${ORIGIN}/p/${oid}/some-slug/`, ORIGIN)).toBe(oid);
    expect(oidFromUrl(`${ORIGIN}/p/embed/${oid}/?autoplay=1`, ORIGIN)).toBe(oid);
    expect(oidFromUrl(`https://evil.example/p/${oid}/`, ORIGIN)).toBeNull();
    expect(oidFromUrl(`${ORIGIN}/user/${oid}/`, ORIGIN)).toBeNull();
    expect(oidFromUrl("not a url", ORIGIN)).toBeNull();
  });
});

describe.each(testDatabaseTargets())("GET /oembed on $name", (target) => {
  const t = useTestApp(target);
  beforeAll(async () => {
    const owner = await insertTestUser(t.db, {
      oid: stableOid("oembed:owner"),
      email: "owner@oembed.test",
      username: "oembed-owner",
      firstName: "Olga",
      lastName: "Embed",
      publicDisplayName: "Olga E.",
    });
    for (const [key, oid] of Object.entries(oids)) {
      await insertTestDeck(t.db, {
        oid,
        ownerId: owner.id,
        title: `The ${key} "deck"`,
        privacy: (key === "hidden" ? "public" : key) as Privacy,
      });
    }
    await t.db.query("update presentations set hidden = true where oid = $1", [oids.hidden]);
  });

  const ask = (query: Record<string, string>) =>
    t.app.inject({ method: "GET", url: `/oembed?${new URLSearchParams(query).toString()}` });

  it("answers a public presentation's address with the embed player's iframe, sized to fit", async () => {
    const response = await ask({ url: `${ORIGIN}/p/${oids.public}/the-public-deck/`, maxwidth: "400" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expect(response.json()).toEqual({
      type: "rich",
      version: "1.0",
      title: 'The public "deck"',
      author_name: "Olga E.",
      author_url: `${ORIGIN}/user/${stableOid("oembed:owner")}/`,
      provider_name: "Podium",
      provider_url: `${ORIGIN}/`,
      // Issue 34 item 1: the modal's responsive code, at the deck's page shape (16:9 here).
      html: `<div style="position:relative;width:100%;height:0;padding-bottom:calc(56.25% + 56px);overflow:hidden"><iframe src="${ORIGIN}/p/embed/${oids.public}/" title="The public &quot;deck&quot;" style="position:absolute;top:0;left:0;width:100%;height:100%;border:0" allow="autoplay; fullscreen"></iframe></div>`,
      width: 400,
      height: 225,
      thumbnail_url: `${ORIGIN}/p/${oids.public}/thumbnail.svg`,
      thumbnail_width: 640,
      thumbnail_height: 360,
      cache_age: 3600,
    });
    const unlisted = await ask({ url: `${ORIGIN}/p/embed/${oids.unlisted}/` });
    expect(unlisted.statusCode).toBe(200);
    expect(unlisted.json()).toMatchObject({ width: 560, height: 315 });
  });

  it("401 for a private presentation, 404 for hidden, unknown or foreign addresses, with a message", async () => {
    const cases: [Record<string, string>, number][] = [
      [{ url: `${ORIGIN}/p/${oids.private}/` }, 401],
      [{ url: `${ORIGIN}/p/${oids.hidden}/` }, 404],
      [{ url: `${ORIGIN}/p/${stableOid("oembed:nothing")}/` }, 404],
      [{ url: `https://elsewhere.example/p/${oids.public}/` }, 404],
      [{ url: `${ORIGIN}/p/${oids.public}/`, format: "xml" }, 501],
      [{ url: `${ORIGIN}/p/${oids.public}/`, maxwidth: "wide" }, 400],
      [{}, 400],
    ];
    for (const [query, status] of cases) {
      const response = await ask(query);
      expect(response.statusCode, JSON.stringify(query)).toBe(status);
      expect(typeof response.json().message).toBe("string");
    }
  });

  it("the view page names its oEmbed answer for discovery", async () => {
    const page = await t.app.inject({ method: "GET", url: `/p/${oids.public}/` });
    const link = /<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/.exec(page.body)?.[1];
    expect(link).toBeDefined();
    const href = new URL((link ?? "").replaceAll("&amp;", "&"));
    const answer = await t.app.inject({ method: "GET", url: `${href.pathname}${href.search}` });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().title).toBe('The public "deck"');
  });
});
