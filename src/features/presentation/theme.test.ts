import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "../../db/testing";
import { richDeck } from "../../document/testing/rich-fixture";
import { TestAgent, useTestApp } from "../../server/testing";

/** Imports a JSON document through the dashboard's form, as a browser sends it. */
async function importJson(agent: TestAgent, document: unknown, privacy = "private"): Promise<string> {
  await agent.get("/dashboard/next/");
  const boundary = "----podiumthemetest";
  const field = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const payload = Buffer.from(
    field("_csrf", agent.cookies.get("XSRF-TOKEN") ?? "") +
      field("privacy", privacy) +
      field("schemaVersion", "2") +
      field("title", "Themed deck") +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="deck.json"\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(document)}\r\n--${boundary}--\r\n`,
  );
  const response = await agent.request({
    method: "POST",
    url: "/dashboard/next/import",
    payload,
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  });
  const oid = /presentations\/([a-z0-9]{12})\//.exec(String(response.headers.location))?.[1];
  if (!oid) throw new Error(`import failed: ${response.statusCode} ${response.body.slice(0, 300)}`);
  return oid;
}

describe.each(testDatabaseTargets())("issue 10: the slide theme on $name", (target) => {
  const t = useTestApp(target);
  const owner = () => new TestAgent(t.app);
  let ada: TestAgent;
  let oid: string;
  beforeAll(async () => {
    ada = owner();
    await ada.signUp("ada@theme.test");
    oid = await importJson(ada, richDeck("light"));
  });

  const storedTheme = async () =>
    (
      await t.db.query<{ theme: string | null }>(
        "select document->>'theme' as theme from presentations where oid = $1",
        [oid],
      )
    )[0]?.theme;

  it("the manage page offers light, dark and high contrast with the current one checked", async () => {
    const page = await ada.get(`/dashboard/next/presentations/${oid}/`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<input type="radio" name="theme" checked="" value="light"/>');
    expect(page.body).toContain('value="contrast"');
    expect(page.body).toContain("High contrast");
  });

  it("the owner sets the theme: stored in the document, 303 back with a notice, the thumbnail follows", async () => {
    const response = await ada.postForm(`/dashboard/next/presentations/${oid}/theme`, { theme: "dark" });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`/dashboard/next/presentations/${oid}/?notice=themeSaved`);
    expect(await storedTheme()).toBe("dark");
    const page = await ada.get(String(response.headers.location));
    expect(page.body).toContain("Theme saved");
    expect(page.body).toContain('<input type="radio" name="theme" checked="" value="dark"/>');
    // The rest of the document is as it was.
    const document = JSON.parse((await ada.get(`/p/${oid}/document.json`)).body);
    expect(document.topics).toHaveLength((richDeck("light").topics as unknown[]).length);
    expect((await ada.get(`/p/${oid}/thumbnail.svg`)).body).toContain('fill="#161b26"');
  });

  it("an editor may set it; a commenter gets 403; a stranger 404; signed out goes to log in", async () => {
    const editor = owner();
    await editor.signUp("editor@theme.test");
    const commenter = owner();
    await commenter.signUp("commenter@theme.test");
    await ada.postForm(`/dashboard/next/presentations/${oid}/collaborators`, {
      email: "editor@theme.test",
      right: "edit",
    });
    await ada.postForm(`/dashboard/next/presentations/${oid}/collaborators`, {
      email: "commenter@theme.test",
      right: "comment",
    });
    await editor.get(`/p/${oid}/`);
    expect(
      (await editor.postForm(`/dashboard/next/presentations/${oid}/theme`, { theme: "contrast" })).statusCode,
    ).toBe(303);
    expect(await storedTheme()).toBe("contrast");
    await commenter.get(`/p/${oid}/`);
    expect(
      (await commenter.postForm(`/dashboard/next/presentations/${oid}/theme`, { theme: "light" })).statusCode,
    ).toBe(403);
    const stranger = owner();
    await stranger.signUp("stranger@theme.test");
    expect((await stranger.postForm(`/dashboard/next/presentations/${oid}/theme`, { theme: "light" })).statusCode).toBe(
      404,
    );
    expect(
      (await ada.postForm("/dashboard/next/presentations/zzzzzzzzzzzz/theme", { theme: "light" })).statusCode,
    ).toBe(404);
    expect(await storedTheme()).toBe("contrast");
    const anonymous = owner();
    await anonymous.get("/login/");
    expect(
      (await anonymous.postForm(`/dashboard/next/presentations/${oid}/theme`, { theme: "light" })).statusCode,
    ).toBe(303);
    expect(await storedTheme()).toBe("contrast");
  });

  it("a theme that isn't light, dark or contrast is a 400 and changes nothing", async () => {
    for (const theme of ["neon", "", "LIGHT"]) {
      expect((await ada.postForm(`/dashboard/next/presentations/${oid}/theme`, { theme })).statusCode).toBe(400);
    }
    expect((await ada.postForm(`/dashboard/next/presentations/${oid}/theme`, {})).statusCode).toBe(400);
    expect(await storedTheme()).toBe("contrast");
  });

  it("issue 10: the thumbnail of a slide with an image embeds the image, re-encoded small, as a data: URI", async () => {
    const photo = await sharp({ create: { width: 2400, height: 1800, channels: 3, background: "#3366cc" } })
      .jpeg()
      .toBuffer();
    const boundary = "----podium-thumb-image";
    const uploaded = await ada.request({
      method: "POST",
      url: "/api/assets",
      headers: {
        "content-type": `multipart/form-data; boundary=${boundary}`,
        "x-xsrf-token": ada.cookies.get("XSRF-TOKEN") ?? "",
      },
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
        ),
        photo,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    expect(uploaded.statusCode).toBe(201);
    const src = (JSON.parse(uploaded.body) as { url: string }).url;
    const deck = richDeck("light", src) as { topics: unknown[]; path: string[] };
    // The image slide first, so it is the poster.
    const imageOid = await importJson(ada, { ...deck, path: ["slide-9", ...deck.path] }, "public");
    const svg = (await new TestAgent(t.app).get(`/p/${imageOid}/thumbnail.svg`)).body;
    const data = /<image href="data:image\/webp;base64,([^"]+)"/.exec(svg)?.[1];
    expect(data).toBeTruthy();
    expect(svg).not.toContain(src);
    const meta = await sharp(Buffer.from(data ?? "", "base64")).metadata();
    expect(meta.format).toBe("webp");
    expect(meta.width).toBeLessThanOrEqual(960);
    expect(meta.height).toBeLessThanOrEqual(540);
  });

  it("without the CSRF token the change is refused", async () => {
    const response = await ada.request({
      method: "POST",
      url: `/dashboard/next/presentations/${oid}/theme`,
      payload: "theme=light",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(response.statusCode).toBe(403);
    expect(await storedTheme()).toBe("contrast");
  });
});
