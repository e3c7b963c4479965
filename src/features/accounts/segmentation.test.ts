import { describe, expect, it } from "vitest";
import { testDatabaseTargets } from "../../db/testing";
import { TestAgent, useTestApp } from "../../server/testing";

/** The header's trending searches as shown (the boot data carries every segment's map, spec §3). */
const trendingOf = (html: string) => /<nav class="trending"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? "";

/** R2.8: where the segmentation step sends people, encoded once. */
const SIGNUP_AFTER_SEGMENTATION = `/signup/?next=${encodeURIComponent("/dashboard/next?after_segmentation_url=/v/create/")}`;

describe.each(testDatabaseTargets())("sign-up after segmentation on $name", (target) => {
  const t = useTestApp(target);

  const segmentOf = async (email: string) =>
    (await t.db.query<{ author_segment: string }>("select author_segment from users where email = $1", [email]))[0]
      ?.author_segment;

  it("R2.8 Get started's /signup/ asks what Podium is for; a /signup/ with a next shows the form", async () => {
    const agent = new TestAgent(t.app);
    const question = await agent.get("/signup/");
    expect(question.statusCode).toBe(200);
    expect(question.body).toContain('action="/signup/segment/"');
    for (const value of ["sales-marketing", "teacher", "student", "other"]) {
      expect(question.body).toMatch(new RegExp(`<input type="radio"[^>]* name="segment" value="${value}"`));
    }
    const form = await agent.get("/signup/?next=%2Fp%2Fabcdefghijkl%2F");
    expect(form.body).toContain('name="password"');
    expect(form.body).not.toContain('action="/signup/segment/"');
  });

  it("R2.8 a chosen segment → 303 to /signup/ with next /dashboard/next?after_segmentation_url=/v/create/ → account keeps it → /v/create/", async () => {
    const agent = new TestAgent(t.app);
    await agent.get("/signup/");
    const chosen = await agent.postForm("/signup/segment/", { segment: "teacher" });
    expect(chosen.statusCode).toBe(303);
    expect(chosen.headers.location).toBe(SIGNUP_AFTER_SEGMENTATION);
    expect(new URL(String(chosen.headers.location), "http://x").searchParams.get("next")).toBe(
      "/dashboard/next?after_segmentation_url=/v/create/",
    );
    expect(agent.cookies.get("author_segment")).toBe("teacher");
    const cookie = chosen.cookies.find((c) => c.name === "author_segment");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });

    const form = await agent.get(String(chosen.headers.location));
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('value="/dashboard/next?after_segmentation_url=/v/create/"');
    const after = "/dashboard/next?after_segmentation_url=/v/create/";
    const signedUp = await agent.postSignUp({ email: "tess@podium.test", next: after });
    expect(signedUp.statusCode).toBe(303);
    expect(signedUp.headers.location).toBe(after);
    expect(await segmentOf("tess@podium.test")).toBe("teacher");
    expect(agent.cookies.has("author_segment")).toBe(false);

    const next = await agent.get(String(signedUp.headers.location));
    expect(next.statusCode).toBe(303);
    expect(next.headers.location).toBe("/v/create/");
    const create = await agent.get("/v/create/");
    expect(create.statusCode).toBe(200);
    expect(create.body).toContain('action="/v/create/"');

    // R3.6: the signed-in header's trending searches are the teacher's.
    const explore = await agent.get("/explore/");
    expect(trendingOf(explore.body)).toContain("lesson plan");
    expect(trendingOf(explore.body)).not.toContain("sourdough");
  });

  it("R2.8 /v/create/ makes a private presentation of the signed-in person's and opens its editor (POST with CSRF)", async () => {
    const agent = new TestAgent(t.app);
    await agent.signUp("maker@podium.test");
    expect((await agent.postForm("/v/create/", { title: "Plants <3 light" }, { csrf: null })).statusCode).toBe(403);
    const created = await agent.postForm("/v/create/", { title: "Plants <3 light" });
    expect(created.statusCode).toBe(303);
    const location = String(created.headers.location);
    expect(location).toMatch(/^\/p\/edit\/[a-z0-9]{12}\/$/);
    const oid = location.split("/")[3] ?? "";
    const [row] = await t.db.query<{ title: string; privacy: string; email: string }>(
      "select p.title, p.privacy, u.email from presentations p join users u on u.id = p.owner_id where p.oid = $1",
      [oid],
    );
    expect(row).toEqual({ title: "Plants <3 light", privacy: "private", email: "maker@podium.test" });
    const editor = await agent.get(location);
    expect(editor.statusCode).toBe(200);
    expect(editor.body).toContain("Plants &lt;3 light");

    const empty = await agent.postForm("/v/create/", { title: "   " });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain("at most 200 characters");
  });

  it("R2.8 signed out, /v/create/ and the after-segmentation dashboard send people to log in with next back", async () => {
    const agent = new TestAgent(t.app);
    const create = await agent.get("/v/create/");
    expect(create.statusCode).toBe(303);
    expect(create.headers.location).toBe("/login/?next=%2Fv%2Fcreate%2F");
    const next = await agent.get("/dashboard/next?after_segmentation_url=/v/create/");
    expect(next.statusCode).toBe(303);
    expect(new URL(String(next.headers.location), "http://x").searchParams.get("next")).toBe(
      "/dashboard/next?after_segmentation_url=/v/create/",
    );
    await agent.get("/signup/");
    expect((await agent.postForm("/v/create/", { title: "x" })).headers.location).toBe("/login/?next=%2Fv%2Fcreate%2F");
  });

  it("R2.8 an unknown segment is a 400 with a clear message; a POST without the CSRF token is refused", async () => {
    const agent = new TestAgent(t.app);
    await agent.get("/signup/");
    for (const segment of ["", "pirate", "Teacher", "other "]) {
      const response = await agent.postForm("/signup/segment/", { segment });
      expect(response.statusCode, segment).toBe(400);
      expect(response.body).toContain("Choose one of the four answers");
      expect(agent.cookies.has("author_segment")).toBe(false);
    }
    const forged = await agent.postForm("/signup/segment/", { segment: "teacher" }, { csrf: null });
    expect(forged.statusCode).toBe(403);
    expect(agent.cookies.has("author_segment")).toBe(false);
  });

  it("R2.8 after_segmentation_url only leads to our own origin", async () => {
    const agent = new TestAgent(t.app);
    await agent.signUp("careful@podium.test");
    for (const evil of [
      "//evil.example/",
      "https://evil.example/",
      "/\\evil.example",
      "/%2F%2Fevil.example",
      "javascript:alert(1)",
    ]) {
      const response = await agent.get(`/dashboard/next?after_segmentation_url=${encodeURIComponent(evil)}`);
      expect(response.statusCode, evil).toBe(303);
      expect(response.headers.location, evil).toBe("/dashboard/next/");
    }
  });

  it("R2.8 a forged segment cookie counts for nothing; anonymous headers stay on other (the page cache has no segment key)", async () => {
    const agent = new TestAgent(t.app);
    agent.cookies.set("author_segment", "pirate");
    await agent.signUp("forged@podium.test");
    expect(await segmentOf("forged@podium.test")).toBe("other");

    const anonymous = new TestAgent(t.app);
    anonymous.cookies.set("author_segment", "teacher");
    const explore = await anonymous.get("/explore/");
    expect(trendingOf(explore.body)).toContain("sourdough");
    expect(trendingOf(explore.body)).not.toContain("lesson plan");
  });
});
