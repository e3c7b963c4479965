import { beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "../../db/testing";
import { importMarkdown, readMarkdownDeck } from "../../document/markdown";
import type { PresentationDocument } from "../../document/schema";
import { signUpRoles, TestAgent, useTestApp } from "../../server/testing";
import { insertPresentationIfAbsent, type Privacy, upsertCollaborator } from "../presentation/repository";
import type { EditorPageData } from "./page-data";
import { readEditorForm } from "./service";

const DECK = "# Tide pools\n## Life between the waves\n---\n# Who lives there\n- Anemones\n- Hermit crabs";

/** The page data the server rendered from (the boot data script). */
function bootData(html: string): EditorPageData {
  const json = /<script type="application\/json" id="podium-boot">([\s\S]*?)<\/script>/.exec(html)?.[1];
  if (!json) throw new Error("no boot data on the page");
  return (JSON.parse(json) as { data: EditorPageData }).data;
}

describe("readEditorForm", () => {
  const form = { title: "T", description: "", privacy: "public", tags: "", markdown: "# T" };
  // The form reader takes the Markdown reader it is given (a worker pool on the server).
  const inProcess = {
    importMarkdown: async (source: string, schemaVersion: "0" | "2") => readMarkdownDeck(source, schemaVersion),
  };

  it("refuses Markdown over the importer's limit on the Markdown field (the form's body limit stops it earlier)", async () => {
    const { errors, document } = await readEditorForm(inProcess, { ...form, markdown: "a".repeat(1_000_001) }, "2");
    expect(errors).toEqual({ markdown: { id: "editor.error.markdown.tooLarge", values: { limit: 1_000_000 } } });
    expect(document).toBeNull();
  });

  it("checks the description's length after sanitising (links gain attributes)", async () => {
    const link = '<a href="https://x.test">x</a>';
    const description = link.repeat(Math.floor(20_000 / link.length));
    expect(description.length).toBeLessThanOrEqual(20_000);
    expect((await readEditorForm(inProcess, { ...form, description }, "2")).errors.description?.id).toBe(
      "editor.error.descriptionTooLong",
    );
  });
});

describe.each(testDatabaseTargets())("the editor on $name", (target) => {
  const t = useTestApp(target);
  const agents: Record<"owner" | "editor" | "commenter" | "stranger", TestAgent> = {} as never;
  const userIds: Record<string, string> = {};
  let serial = 0;

  beforeAll(async () => {
    const roles = ["owner", "editor", "commenter", "stranger"] as const;
    const signedUp = await signUpRoles(t.app, t.db, roles, "editor.test", { named: true });
    Object.assign(agents, signedUp.agents);
    Object.assign(userIds, signedUp.ids);
  });

  /** A fresh presentation of the owner's, with an edit and a comment collaborator. */
  async function presentation(
    options: { privacy?: Privacy; schemaVersion?: "0" | "2"; document?: PresentationDocument } = {},
  ) {
    serial += 1;
    const oid = `editortest${String(serial).padStart(2, "0")}`;
    const schemaVersion = options.schemaVersion ?? "2";
    await insertPresentationIfAbsent(t.db, {
      oid,
      ownerId: userIds.owner ?? "",
      title: "Tide pools",
      descriptionHtml: "<p>Before</p>",
      privacy: options.privacy ?? "private",
      schemaVersion,
      tags: ["ocean"],
      document: options.document ?? importMarkdown(DECK, schemaVersion),
      lastModified: new Date("2026-01-01T00:00:00Z"),
    });
    const [row] = await t.db.query<{ id: string }>("select id::text as id from presentations where oid = $1", [oid]);
    await upsertCollaborator(t.db, row?.id ?? "", userIds.editor ?? "", "edit");
    await upsertCollaborator(t.db, row?.id ?? "", userIds.commenter ?? "", "comment");
    return { oid, path: schemaVersion === "2" ? `/p/edit/${oid}/` : `/${oid}/edit/` };
  }

  const stored = async (oid: string) =>
    (
      await t.db.query<{
        title: string;
        description_html: string;
        privacy: string;
        tags: string[];
        document: unknown;
        last_modified: Date;
      }>("select title, description_html, privacy, tags, document, last_modified from presentations where oid = $1", [
        oid,
      ])
    )[0];

  const validForm = (overrides: Record<string, string> = {}) => ({
    title: "Tide pools, revised",
    description: "<p>After</p>",
    privacy: "unlisted",
    tags: "Ocean, biology",
    markdown: "# Tide pools, revised\n---\n# Who lives there\n- Anemones\n- Sea stars",
    ...overrides,
  });

  describe("R2.12 rights and addresses", () => {
    it("sends anonymous visitors to log in, with the editor as the next page", async () => {
      const { path } = await presentation();
      const response = await new TestAgent(t.app).get(path);
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe(`/login/?next=${encodeURIComponent(path)}`);
    });

    it("R6.1 gives the owner and edit collaborators the editor, comment collaborators commenting mode, anyone else a 404", async () => {
      const { path } = await presentation();
      for (const role of ["owner", "editor"] as const) {
        const response = await agents[role].get(path);
        expect(response.statusCode, role).toBe(200);
        expect(response.headers["cache-control"]).toBe("private, no-store");
        const data = bootData(response.body);
        expect(data.form?.values.title, role).toBe("Tide pools");
        expect(data.form?.values.markdown, role).toBe(`${DECK}\n`);
        expect(data.form?.canChangePrivacy, role).toBe(role === "owner");
        expect(response.body).toContain('name="markdown"');
      }
      const commenting = await agents.commenter.get(path);
      expect(commenting.statusCode).toBe(200);
      const data = bootData(commenting.body);
      expect(data.form).toBeNull();
      expect(data.commenting.player.documentUrl).toMatch(/document\.json$/);
      expect(commenting.body).not.toContain('name="markdown"');
      expect(commenting.body).toContain('name="body"');
      expect(commenting.body).toContain("<title>Comments: Tide pools");
      const stranger = await agents.stranger.get(path);
      expect(stranger.statusCode).toBe(404);
      expect(stranger.body).not.toContain("Tide pools");
    });

    it("is a 404 for someone who may watch a public presentation but not edit or comment on it", async () => {
      const { path } = await presentation({ privacy: "public" });
      expect((await agents.stranger.get(path)).statusCode).toBe(404);
      expect((await agents.stranger.get("/p/edit/nosuchdeck00/")).statusCode).toBe(404);
      expect((await agents.stranger.get("/p/edit/NOT-AN-OID/")).statusCode).toBe(404);
    });

    it("R2.12 redirects the pitch address to the classic one for a classic presentation, and back", async () => {
      const classic = await presentation({ schemaVersion: "0" });
      const wrong = await agents.owner.get(`/p/edit/${classic.oid}/?notice=saved`);
      expect(wrong.statusCode).toBe(303);
      expect(wrong.headers.location).toBe(`/${classic.oid}/edit/?notice=saved`);
      expect((await agents.owner.get(`/${classic.oid}/edit/`)).statusCode).toBe(200);
      const pitch = await presentation({ schemaVersion: "2" });
      const back = await agents.commenter.get(`/${pitch.oid}/edit/`);
      expect(back.statusCode).toBe(303);
      expect(back.headers.location).toBe(`/p/edit/${pitch.oid}/`);
      // No redirect tells a stranger that the presentation exists.
      expect((await agents.stranger.get(`/${pitch.oid}/edit/`)).statusCode).toBe(404);
    });
  });

  describe("saving", () => {
    it("stores every field and the document from the Markdown, updates last_modified, and the view page shows it", async () => {
      const { oid, path } = await presentation();
      await agents.owner.get(path);
      const response = await agents.owner.postForm(path, validForm());
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe(`${path}?notice=saved`);
      const row = await stored(oid);
      expect(row?.title).toBe("Tide pools, revised");
      expect(row?.description_html).toBe("<p>After</p>");
      expect(row?.privacy).toBe("unlisted");
      expect(row?.tags).toEqual(["ocean", "biology"]);
      expect(row?.document).toEqual(importMarkdown(validForm().markdown, "2"));
      expect(row?.last_modified.getTime()).toBeGreaterThan(new Date("2026-01-01T00:00:00Z").getTime());
      const after = await agents.owner.get(String(response.headers.location));
      expect(after.body).toContain("Your changes are saved.");
      // issue 10: the editor edits the Markdown as it was written, not a rewrite of the document.
      expect(bootData(after.body).form?.values.markdown).toBe(validForm().markdown);
      const view = await new TestAgent(t.app).get(`/p/${oid}/`);
      expect(view.statusCode).toBe(200);
      expect(view.body).toContain("Sea stars");
      expect(view.body).toContain("Tide pools, revised");
      const json = await new TestAgent(t.app).get(`/p/${oid}/document.json`);
      expect(JSON.stringify(json.json())).toContain("Sea stars");
    });

    it("issue 10: a deck of PDF pages has no Markdown to edit; a save changes its details and keeps its slides", async () => {
      const pages = importMarkdown(DECK, "2");
      for (const topic of pages.topics[0]?.topics ?? []) topic.layout = "page";
      const { oid, path } = await presentation({ document: pages });
      const page = await agents.owner.get(path);
      const form = bootData(page.body).form;
      expect(form?.pageDeck).toBe(true);
      expect(form?.values.markdown).toBe("");
      expect(page.body).toContain("This deck was imported from a PDF");
      const response = await agents.owner.postForm(path, validForm({ markdown: "# Something else" }));
      expect(response.statusCode).toBe(303);
      const row = await stored(oid);
      expect(row?.title).toBe("Tide pools, revised");
      expect(row?.document).toEqual(pages);
    });

    it("issue 10: a save keeps the theme chosen on the manage page, and the preview is drawn in it", async () => {
      const { oid, path } = await presentation({ document: { ...importMarkdown(DECK, "2"), theme: "dark" } });
      const page = await agents.owner.get(path);
      expect(bootData(page.body).theme).toBe("dark");
      expect(page.body).toContain("slide-theme--dark");
      await agents.owner.postForm(path, validForm());
      const row = await stored(oid);
      expect((row?.document as PresentationDocument | undefined)?.theme).toBe("dark");
    });

    it("sanitises the description on save", async () => {
      const { oid, path } = await presentation();
      await agents.owner.get(path);
      const response = await agents.owner.postForm(
        path,
        validForm({
          description: `<p>Safe <strong>bold</strong></p><img src=x onerror=alert(1)><script>alert(2)</script><a href="javascript:alert(3)">x</a>`,
        }),
      );
      expect(response.statusCode).toBe(303);
      const html = (await stored(oid))?.description_html ?? "";
      expect(html).toContain("<strong>bold</strong>");
      expect(html).not.toMatch(/script|onerror|javascript:|<img/i);
    });

    it("refuses each bad field with a message on that field, status 400, and stores nothing", async () => {
      const { oid, path } = await presentation();
      await agents.owner.get(path);
      const before = await stored(oid);
      const failures: [Record<string, string>, string, string][] = [
        [{ title: "   " }, "title", "Give the presentation a title."],
        [{ title: "x".repeat(201) }, "title", "The title can be at most 200 characters."],
        [{ description: "x".repeat(20_001) }, "description", "The description can be at most 20,000 characters"],
        [{ privacy: "everyone" }, "privacy", "Choose who can see the presentation."],
        [{ tags: Array.from({ length: 21 }, (_, i) => `tag${i}`).join(",") }, "tags", "Use at most 20 tags"],
        [{ tags: "x".repeat(41) }, "tags", "Use at most 20 tags"],
        [{ markdown: "" }, "markdown", "The Markdown has no slides"],
        [{ markdown: "\n---\n   \n---\n" }, "markdown", "The Markdown has no slides"],
        [
          { markdown: "# a\n---\n".repeat(2000) },
          "markdown",
          "This deck has 2,000 slides; Podium takes at most 1,999.",
        ],
      ];
      for (const [overrides, fieldName, message] of failures) {
        // Every other field is changed too: nothing of a refused form may be stored.
        const response = await agents.owner.postForm(path, validForm(overrides));
        expect(response.statusCode, fieldName).toBe(400);
        const data = bootData(response.body);
        expect(Object.keys(data.form?.errors ?? {}), message).toEqual([fieldName]);
        expect(response.body, message).toContain(message.replace(/'/g, "&#x27;"));
        expect(response.body).toContain(`id="editor-${fieldName}-error"`);
        // What was typed comes back, to be fixed rather than retyped.
        expect(data.form?.values.markdown).toBe(validForm(overrides).markdown);
        expect(await stored(oid), message).toEqual(before);
      }
    });

    it("names every refused field at once", async () => {
      const { oid, path } = await presentation();
      await agents.owner.get(path);
      const before = await stored(oid);
      const response = await agents.owner.postForm(path, validForm({ title: "", privacy: "x", markdown: "" }));
      expect(response.statusCode).toBe(400);
      expect(Object.keys(bootData(response.body).form?.errors ?? {}).sort()).toEqual(["markdown", "privacy", "title"]);
      expect(await stored(oid)).toEqual(before);
    });

    it("lets an edit collaborator save, but not change who may see it; commenters and strangers can't save", async () => {
      const { oid, path } = await presentation();
      await agents.editor.get(path);
      const { privacy: _privacy, ...withoutPrivacy } = validForm();
      const saved = await agents.editor.postForm(path, withoutPrivacy);
      expect(saved.statusCode).toBe(303);
      expect((await stored(oid))?.privacy).toBe("private");
      expect((await stored(oid))?.title).toBe("Tide pools, revised");
      const before = await stored(oid);
      const privacyChange = await agents.editor.postForm(path, validForm({ title: "Other", privacy: "public" }));
      expect(privacyChange.statusCode).toBe(403);
      await agents.commenter.get(path);
      expect((await agents.commenter.postForm(path, validForm({ title: "Other" }))).statusCode).toBe(403);
      await agents.stranger.get("/");
      expect((await agents.stranger.postForm(path, validForm({ title: "Other" }))).statusCode).toBe(404);
      expect(await stored(oid)).toEqual(before);
    });

    it("refuses a save without the CSRF token", async () => {
      const { oid, path } = await presentation();
      await agents.owner.get(path);
      const before = await stored(oid);
      const response = await agents.owner.postForm(path, validForm(), { csrf: null });
      expect(response.statusCode).toBe(403);
      expect(await stored(oid)).toEqual(before);
    });
  });

  describe("comments", () => {
    const commentsOf = async (agent: TestAgent, path: string) =>
      bootData((await agent.get(path)).body).commenting.comments;

    it("are added by commenters and editors, and listed newest first with author and time", async () => {
      const { path } = await presentation();
      await agents.commenter.get(path);
      const first = await agents.commenter.postForm(`${path}comments`, { body: "  First thought\r\non two lines  " });
      expect(first.statusCode).toBe(303);
      expect(first.headers.location).toBe(`${path}?notice=commentAdded#present`);
      await agents.editor.get(path);
      expect((await agents.editor.postForm(`${path}comments`, { body: "Second thought" })).statusCode).toBe(303);
      const comments = await commentsOf(agents.owner, path);
      expect(comments.map((c) => [c.body, c.authorName])).toEqual([
        ["Second thought", "Editor Tester"],
        ["First thought\non two lines", "Commenter Tester"],
      ]);
      expect(Number.isNaN(Date.parse(comments[0]?.createdAt ?? ""))).toBe(false);
      const page = await agents.commenter.get(path);
      expect(page.body).toContain("Commenter Tester");
      expect(page.body).toContain("2 comments");
    });

    it("refuse an empty comment and one over 2000 characters, storing nothing", async () => {
      const { path } = await presentation();
      await agents.commenter.get(path);
      const empty = await agents.commenter.postForm(`${path}comments`, { body: " \r\n " });
      expect(empty.statusCode).toBe(400);
      expect(empty.body).toContain("Write a comment first.");
      expect(bootData(empty.body).startInCommenting).toBe(true);
      const long = await agents.commenter.postForm(`${path}comments`, { body: "é".repeat(2001) });
      expect(long.statusCode).toBe(400);
      expect(long.body).toContain("A comment can be at most 2,000 characters.");
      expect(bootData(long.body).commenting.draft).toBe("é".repeat(2001));
      const exact = await agents.commenter.postForm(`${path}comments`, { body: "😀".repeat(2000) });
      expect(exact.statusCode).toBe(303);
      expect((await commentsOf(agents.commenter, path)).map((c) => c.body)).toEqual(["😀".repeat(2000)]);
    });

    it("can't be added by someone without the comment right", async () => {
      const { path } = await presentation({ privacy: "public" });
      await agents.stranger.get("/");
      expect((await agents.stranger.postForm(`${path}comments`, { body: "Hi" })).statusCode).toBe(404);
      expect((await new TestAgent(t.app).postForm(`${path}comments`, { body: "Hi" })).statusCode).toBe(403);
      expect(await commentsOf(agents.owner, path)).toEqual([]);
    });

    it("are deleted by their author and by the owner; anyone else gets 403 or 404", async () => {
      const { path } = await presentation();
      for (const agent of [agents.commenter, agents.editor, agents.owner]) await agent.get(path);
      await agents.commenter.postForm(`${path}comments`, { body: "By the commenter" });
      await agents.editor.postForm(`${path}comments`, { body: "By the editor" });
      const [byEditor, byCommenter] = await commentsOf(agents.owner, path);
      expect(byEditor?.canDelete && byCommenter?.canDelete).toBe(true);
      const asCommenter = await commentsOf(agents.commenter, path);
      expect(asCommenter.map((c) => c.canDelete)).toEqual([false, true]);

      // An edit collaborator is neither the author nor the owner.
      expect((await agents.editor.postForm(`${path}comments/${byCommenter?.id}/delete`, {})).statusCode).toBe(403);
      expect((await agents.stranger.postForm(`${path}comments/${byCommenter?.id}/delete`, {})).statusCode).toBe(404);
      expect((await agents.commenter.postForm(`${path}comments/999999999/delete`, {})).statusCode).toBe(404);
      expect((await agents.commenter.postForm(`${path}comments/abc/delete`, {})).statusCode).toBe(404);
      expect(await commentsOf(agents.owner, path)).toHaveLength(2);

      const own = await agents.commenter.postForm(`${path}comments/${byCommenter?.id}/delete`, {});
      expect(own.statusCode).toBe(303);
      expect(own.headers.location).toBe(`${path}?notice=commentDeleted#present`);
      const byOwner = await agents.owner.postForm(`${path}comments/${byEditor?.id}/delete`, {});
      expect(byOwner.statusCode).toBe(303);
      expect(await commentsOf(agents.owner, path)).toEqual([]);
    });

    it("of one presentation can't be deleted through another", async () => {
      const first = await presentation();
      const second = await presentation();
      await agents.commenter.get(first.path);
      await agents.commenter.postForm(`${first.path}comments`, { body: "Stays" });
      const [comment] = await commentsOf(agents.owner, first.path);
      await agents.owner.get(second.path);
      expect((await agents.owner.postForm(`${second.path}comments/${comment?.id}/delete`, {})).statusCode).toBe(404);
      expect(await commentsOf(agents.owner, first.path)).toHaveLength(1);
    });
  });
});
