import ogs from "open-graph-scraper";
import { unfurl } from "unfurl.js";
import { beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "../../db/testing";
import { importMarkdown } from "../../document/markdown";
import { stableOid } from "../../lib/ids";
import { insertTestDeck, insertTestUser, TEST_CONFIG, useTestApp } from "../../server/testing";
import { stepUrl } from "../share/components/ShareModal";

const ORIGIN = TEST_CONFIG.publicUrl;
const oid = stableOid("step-links:deck");

/** A link preview's reading of a page: its Open Graph and Twitter meta tags, as a scraper parses them. */
function linkPreview(html: string): Record<string, string> {
  const head = html.slice(0, html.indexOf("</head>"));
  const meta: Record<string, string> = {};
  for (const tag of head.match(/<meta\s[^>]*>/g) ?? []) {
    const attributes = Object.fromEntries(
      [...tag.matchAll(/([a-z:-]+)="([^"]*)"/g)].map(([, name, value]) => [name, value ?? ""]),
    );
    const key = attributes.property ?? attributes.name;
    if (key && attributes.content !== undefined) {
      meta[key] = attributes.content
        .replaceAll("&quot;", '"')
        .replaceAll("&#x27;", "'")
        .replaceAll("&lt;", "<")
        .replaceAll("&gt;", ">")
        .replaceAll("&amp;", "&");
    }
  }
  return meta;
}

function bootData(html: string): Record<string, unknown> {
  const match = /<script type="application\/json" id="podium-boot">([^<]*)<\/script>/.exec(html);
  return JSON.parse(match?.[1] ?? "{}").data;
}

describe("issue 34 item 5: the share dialog's step link", () => {
  it("names the step with ?step=N, keeping the page's address", () => {
    expect(stepUrl("https://podium.example/p/abcdefghijkl/deck/", 4)).toBe(
      "https://podium.example/p/abcdefghijkl/deck/?step=4",
    );
    expect(stepUrl("https://podium.example/p/abcdefghijkl/deck/?step=2#step=2", 5)).toBe(
      "https://podium.example/p/abcdefghijkl/deck/?step=5",
    );
    expect(stepUrl("/p/abcdefghijkl/deck/", 3)).toBe("/p/abcdefghijkl/deck/?step=3");
  });
});

describe.each(testDatabaseTargets())("issue 34 item 5: a step's own address and link preview on $name", (target) => {
  const t = useTestApp(target, { config: { pageCacheMaxBytes: 4 * 1024 * 1024 } });
  beforeAll(async () => {
    const owner = await insertTestUser(t.db, {
      oid: stableOid("step-links:owner"),
      email: "owner@step-links.test",
      username: "step-links-owner",
      firstName: "Stella",
      lastName: "Steps",
    });
    await insertTestDeck(t.db, {
      oid,
      ownerId: owner.id,
      title: "Tides",
      document: importMarkdown(
        '# Why the sea "breathes" <twice>\nBody\n\nNote: private words\n---\n# Spring & neap tides\n---\n# Safe swimming',
        "2",
      ),
    });
  });

  const get = (url: string) => t.app.inject({ method: "GET", url, headers: { "accept-language": "en" } });

  it("?step=N: og:title is the step's title, og:image its slide, og:url the step's address; the player starts there", async () => {
    const page = await get(`/p/${oid}/tides/?step=2`);
    expect(page.statusCode).toBe(200);
    const preview = linkPreview(page.body);
    expect(preview["og:title"]).toBe("Spring & neap tides · Podium");
    expect(preview["og:image"]).toBe(`${ORIGIN}/p/${oid}/steps/2/thumbnail.svg`);
    expect(preview["og:url"]).toBe(`${ORIGIN}/p/${oid}/tides/?step=2`);
    expect(preview["og:description"]).toBe("Step 2 of 3 in “Tides”");
    expect(preview["twitter:card"]).toBe("summary_large_image");
    expect(bootData(page.body)).toMatchObject({ linkedStep: 2, shouldAutoplay: true });
    // The canonical page stays the deck's.
    expect(page.body).toContain(`<link rel="canonical" href="${ORIGIN}/p/${oid}/tides/">`);

    // The image: the same renderer as the thumbnails, drawing that step's slide; cached like them.
    const image = await get(`/p/${oid}/steps/2/thumbnail.svg`);
    expect(image.statusCode).toBe(200);
    expect(image.headers["content-type"]).toMatch(/^image\/svg\+xml/);
    expect(image.headers["cache-control"]).toMatch(/^public/);
    expect(image.body).toContain("Spring &amp; neap tides");
    expect(image.body).not.toContain("Why the sea");
    expect((await get(`/p/${oid}/steps/2/thumbnail.svg`)).headers["podium-cache"]).toBe("hit");
    expect((await get(`/p/${oid}/steps/4/thumbnail.svg`)).statusCode).toBe(404);
    expect((await get(`/p/${oid}/steps/0/thumbnail.svg`)).statusCode).toBe(404);
    expect((await get(`/p/${oid}/steps/x/thumbnail.svg`)).statusCode).toBe(404);

    // Owner-written text is escaped in the tags; the speaker notes are nowhere.
    const first = await get(`/p/${oid}/tides/?step=1`);
    expect(first.body).toContain("Why the sea &quot;breathes&quot; &lt;twice&gt; · Podium");
    expect(linkPreview(first.body)["og:title"]).toBe('Why the sea "breathes" <twice> · Podium');
    expect(first.body).not.toContain("private words");
  });

  it("issue 34 done-when: unfurl.js and open-graph-scraper, fetching a step link over HTTP, give that step's title and image", async () => {
    const address = await t.app.listen({ port: 0, host: "127.0.0.1" });
    const url = `${address}/p/${oid}/tides/?step=2`;
    const { result, error } = await ogs({ url, timeout: 20 });
    expect(error).toBe(false);
    expect(result.ogTitle).toBe("Spring & neap tides · Podium");
    expect(result.ogImage?.[0]?.url).toBe(`${ORIGIN}/p/${oid}/steps/2/thumbnail.svg`);
    expect(result.ogDescription).toBe("Step 2 of 3 in “Tides”");
    // Its oEmbed link points at the test app's public address, which isn't served here.
    const card = await unfurl(url, { timeout: 20_000, oembed: false });
    expect(card.open_graph?.title).toBe("Spring & neap tides · Podium");
    expect(card.open_graph?.images?.[0]?.url).toBe(`${ORIGIN}/p/${oid}/steps/2/thumbnail.svg`);
    expect(card.open_graph?.url).toBe(`${ORIGIN}/p/${oid}/tides/?step=2`);
    expect(card.twitter_card?.card).toBe("summary_large_image");
  });

  it("a step past the end is the last; anything else is the deck's own page and preview", async () => {
    const last = linkPreview((await get(`/p/${oid}/tides/?step=99`)).body);
    expect(last["og:title"]).toBe("Safe swimming · Podium");
    expect(last["og:image"]).toBe(`${ORIGIN}/p/${oid}/steps/3/thumbnail.svg`);
    for (const bad of ["abc", "0", "-1", "2.5", "%3Cscript%3E"]) {
      const page = await get(`/p/${oid}/tides/?step=${bad}`);
      expect(page.statusCode, bad).toBe(200);
      const preview = linkPreview(page.body);
      expect(preview["og:title"], bad).toBe("Tides · Podium");
      expect(preview["og:image"], bad).toBe(`${ORIGIN}/p/${oid}/thumbnail.svg`);
      expect(preview["og:url"], bad).toBe(`${ORIGIN}/p/${oid}/tides/`);
      expect(bootData(page.body).linkedStep, bad).toBeUndefined();
      expect(page.body).not.toContain("<script>");
    }
  });
});
