import { gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "../../db/testing";
import { importMarkdown } from "../../document/markdown";
import { stableOid } from "../../lib/ids";
import { insertTestDeck, TestAgent, userIdOf, useTestApp } from "../../server/testing";
import { DEFAULT_EMBED_OPTIONS } from "../presentation/embed-options";
import {
  EMBED_HOSTS_MAX,
  normaliseHost,
  originAllowed,
  parseEmbedHosts,
  parseEmbedRequest,
} from "../presentation/embed-protocol";
import type { PresentationPageData } from "../presentation/page-data";
import { stepTitles } from "../presentation/step-titles";
import { EMBED_API_CLIENT_MAX_GZIP, EMBED_API_CLIENT_SOURCE } from "./embed-api-client";

function pageData(html: string): PresentationPageData {
  const match = /<script type="application\/json" id="podium-boot">([^<]*)<\/script>/.exec(html);
  if (!match?.[1]) throw new Error("no boot data in page");
  return JSON.parse(match[1]).data;
}

describe("issue 34 item 3: the embed API's messages", () => {
  it("answers only well-formed, versioned requests in its namespace", () => {
    expect(parseEmbedRequest({ podium: 1, method: "next", id: "a1" })).toEqual({ method: "next", id: "a1" });
    expect(parseEmbedRequest({ podium: 1, method: "getState" })).toEqual({ method: "getState", id: null });
    expect(parseEmbedRequest({ podium: 1, method: "goTo", step: 3, id: 7 })).toEqual({
      method: "goTo",
      id: 7,
      step: 3,
    });
    // The same as JSON text (reveal.js's way).
    expect(parseEmbedRequest('{"podium":1,"method":"prev","id":"x"}')).toEqual({ method: "prev", id: "x" });
    for (const bad of [
      null,
      undefined,
      42,
      "next",
      "{not json",
      [],
      [{ podium: 1, method: "next" }],
      { method: "next" },
      { podium: 2, method: "next" },
      { podium: "1", method: "next" },
      { podium: 1, method: "eval" },
      { podium: 1, method: "constructor" },
      { podium: 1, method: "toString" },
      { podium: 1, method: "goTo" },
      { podium: 1, method: "goTo", step: "3" },
      { podium: 1, method: "goTo", step: 0 },
      { podium: 1, method: "goTo", step: 1.5 },
      { podium: 1, method: "goTo", step: Number.POSITIVE_INFINITY },
      { podium: 1, method: "next", id: { toString: "alert(1)" } },
      { podium: 1, method: "next", id: "x".repeat(65) },
      `{"podium":1,"method":"next","pad":"${"x".repeat(2000)}"}`,
    ]) {
      expect(parseEmbedRequest(bad), JSON.stringify(bad) ?? String(bad)).toBeNull();
    }
  });

  it("normalises the owner's sites as CSP host sources and refuses anything else", () => {
    expect(normaliseHost("https://Course.Example.org/")).toBe("https://course.example.org");
    expect(normaliseHost("example.com")).toBe("example.com");
    expect(normaliseHost("*.example.com")).toBe("*.example.com");
    expect(normaliseHost("http://localhost:3560")).toBe("http://localhost:3560");
    for (const bad of [
      "example",
      "https://example.com/path",
      "javascript:alert(1)",
      "'self'",
      "*",
      "https://*",
      "example.com; script-src *",
      "ex ample.com",
      "https://example.com:99999",
      "ftp://example.com",
      "<b>.com",
    ]) {
      expect(normaliseHost(bad), bad).toBeNull();
    }
    expect(parseEmbedHosts("https://a.example\n b.example, https://a.example")).toEqual({
      hosts: ["https://a.example", "b.example"],
    });
    expect(parseEmbedHosts("")).toEqual({ hosts: [] });
    expect(parseEmbedHosts("a.example\nnot a host;")).toEqual({ invalid: "not" });
    const many = Array.from({ length: EMBED_HOSTS_MAX + 1 }, (_, n) => `s${n}.example`).join("\n");
    expect(parseEmbedHosts(many)).toEqual({ tooMany: EMBED_HOSTS_MAX });
  });

  it("hears a message's origin only when one of the listed sites is it", () => {
    const hosts = ["https://course.example.org", "*.school.example", "http://localhost:3560", "plain.example"];
    expect(originAllowed("https://course.example.org", hosts)).toBe(true);
    expect(originAllowed("http://course.example.org", hosts)).toBe(false);
    expect(originAllowed("https://course.example.org:8443", hosts)).toBe(false);
    expect(originAllowed("https://a.school.example", hosts)).toBe(true);
    expect(originAllowed("https://school.example", hosts)).toBe(false);
    expect(originAllowed("https://evilschool.example", hosts)).toBe(false);
    expect(originAllowed("http://localhost:3560", hosts)).toBe(true);
    expect(originAllowed("http://localhost:3561", hosts)).toBe(false);
    expect(originAllowed("https://plain.example", hosts)).toBe(true);
    expect(originAllowed("null", hosts)).toBe(false);
  });

  it("getSteps gives each step's slide title, never its speaker notes", () => {
    const document = importMarkdown("# One\nBody\n\nNote: secret words\n---\n# Two\n---\nJust text", "2");
    expect(stepTitles(document)).toEqual(["One", "Two", "Just text"]);
    expect(JSON.stringify(stepTitles(document))).not.toContain("secret");
  });
});

describe("issue 34 item 4: /embed-api.js", () => {
  it("is at most 4 KiB gzipped, with no dependencies", () => {
    const gzip = gzipSync(Buffer.from(EMBED_API_CLIENT_SOURCE)).length;
    expect(gzip).toBeLessThanOrEqual(EMBED_API_CLIENT_MAX_GZIP);
    expect(EMBED_API_CLIENT_SOURCE).not.toMatch(/\bimport\b|\brequire\(|\beval\(|new Function/);
    // Plain script that parses as it is served.
    expect(() => new Function(EMBED_API_CLIENT_SOURCE)).not.toThrow();
  });
});

describe.each(testDatabaseTargets())("issue 34: the embed page's options and allowed sites on $name", (target) => {
  const t = useTestApp(target, { config: { pageCacheMaxBytes: 4 * 1024 * 1024 } });
  const owner = () => agents.owner as TestAgent;
  const agents: Record<string, TestAgent> = {};
  const oid = stableOid("embed-api:deck");
  const manage = `/dashboard/next/presentations/${oid}`;

  beforeAll(async () => {
    for (const role of ["owner", "stranger"]) {
      agents[role] = new TestAgent(t.app);
      await agents[role].signUp(`${role}@embed-api.test`);
    }
    const ownerId = await userIdOf(t.db, "owner@embed-api.test");
    await insertTestDeck(t.db, {
      oid,
      ownerId,
      title: "Framed deck",
      document: importMarkdown("# One\n---\n# Two\n---\n# Three", "2"),
    });
  });

  const embed = (query = "") => t.app.inject({ method: "GET", url: `/p/embed/${oid}/${query}` });

  it("issue 34 item 4: serves the client to any site, and the documentation page", async () => {
    const client = await t.app.inject({ method: "GET", url: "/embed-api.js" });
    expect(client.statusCode).toBe(200);
    expect(client.headers["content-type"]).toMatch(/^text\/javascript/);
    expect(client.headers["cross-origin-resource-policy"]).toBe("cross-origin");
    expect(client.body).toBe(EMBED_API_CLIENT_SOURCE);
    const docs = await t.app.inject({ method: "GET", url: "/developers/embed/", headers: { "accept-language": "de" } });
    expect(docs.statusCode).toBe(200);
    expect(docs.body).toContain("Einbettungs-API");
    expect(docs.body).toContain("/embed-api.js");
  });

  it("issue 34 item 2: reads its options from the address; bad values are ignored, never shown back", async () => {
    const page = await embed("?start=2&autoplay=1&loop=1&controls=0&title=0&chrome=light");
    expect(page.statusCode).toBe(200);
    expect(pageData(page.body)).toMatchObject({
      shouldAutoplay: true,
      embedOptions: { start: 2, autoplay: true, loop: true, controls: false, title: false, chrome: "light" },
    });
    expect(page.body).toContain("fullscreen-page--light");
    const hostile = await embed(
      `?start=${encodeURIComponent("<script>alert(1)</script>")}&chrome=${encodeURIComponent('"><img src=x onerror=alert(1)>')}&loop=maybe`,
    );
    expect(hostile.statusCode).toBe(200);
    expect(hostile.body).not.toContain("<img src=x");
    expect(hostile.body).not.toContain("alert(1)");
    expect(pageData(hostile.body).embedOptions).toEqual(DEFAULT_EMBED_OPTIONS);
    expect(pageData((await embed("?start=99")).body).embedOptions?.start).toBe(3);
  });

  it("issue 34 item 3: the owner limits the sites; the embed page's frame-ancestors follows, cached or not", async () => {
    const first = await embed();
    expect(String(first.headers["content-security-policy"])).toContain("frame-ancestors *");
    // Asked again, the page cache answers, with the same header.
    const again = await embed();
    expect(again.headers["podium-cache"]).toBe("hit");
    expect(String(again.headers["content-security-policy"])).toContain("frame-ancestors *");

    // Only the owner, with the form's CSRF token.
    await owner().get(`${manage}/`);
    const noToken = await owner().postForm(`${manage}/embed-hosts`, { hosts: "course.example.org" }, { csrf: null });
    expect(noToken.statusCode).toBe(403);
    const stranger = await (agents.stranger as TestAgent).postForm(`${manage}/embed-hosts`, {
      hosts: "evil.example",
    });
    expect([403, 404]).toContain(stranger.statusCode);
    const bad = await owner().postForm(`${manage}/embed-hosts`, {
      hosts: "https://course.example.org\n'unsafe-inline'",
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain("isn&#x27;t a site address");

    const saved = await owner().postForm(`${manage}/embed-hosts`, {
      hosts: "https://Course.Example.org\n*.school.example",
    });
    expect(saved.statusCode).toBe(303);
    const limited = await embed();
    expect(String(limited.headers["content-security-policy"])).toContain(
      "frame-ancestors 'self' https://course.example.org *.school.example",
    );
    expect(limited.headers["x-frame-options"]).toBeUndefined();
    expect(pageData(limited.body).embedHosts).toEqual(["https://course.example.org", "*.school.example"]);
    // The manage page shows the list to edit.
    expect((await owner().get(`${manage}/`)).body).toContain("https://course.example.org\n*.school.example");

    // Emptied, any site may frame it again.
    expect((await owner().postForm(`${manage}/embed-hosts`, { hosts: "" })).statusCode).toBe(303);
    expect(String((await embed()).headers["content-security-policy"])).toContain("frame-ancestors *");
  });
});
