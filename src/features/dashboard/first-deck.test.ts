import { describe, expect, it } from "vitest";
import { testDatabaseTargets } from "../../db/testing";
import { multipartForm, TestAgent, useTestApp } from "../../server/testing";

/**
 * Issue 28, item 3 ("a first deck in a minute"): what an empty dashboard and `/v/create/` (where
 * sign-up lands, R2.8) show first, and where Import goes once there are decks.
 */

/** The form an element with this id is in (the server-rendered HTML, from `<form` to `</form>`). */
function formAround(html: string, marker: string): string {
  const at = html.indexOf(marker);
  if (at < 0) return "";
  const start = html.lastIndexOf("<form", at);
  const end = html.indexOf("</form>", at);
  return start < 0 || end < 0 ? "" : html.slice(start, end);
}

/** A form's fields as a browser without JavaScript would send them (text inputs, checked radios, selected options). */
function fieldsOf(form: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [input] of form.matchAll(/<input[^>]*>/g)) {
    const name = /name="([^"]+)"/.exec(input)?.[1];
    const type = /type="([^"]+)"/.exec(input)?.[1] ?? "text";
    if (!name || type === "file" || (type === "radio" && !/\schecked=""/.test(input))) continue;
    fields[name] = /value="([^"]*)"/.exec(input)?.[1] ?? "";
  }
  for (const [select, name] of form.matchAll(/<select[^>]*name="([^"]+)"[\s\S]*?<\/select>/g)) {
    const chosen =
      /<option[^>]*value="([^"]*)"[^>]*selected=""/.exec(select) ?? /<option[^>]*value="([^"]*)"/.exec(select);
    if (name) fields[name] = chosen?.[1] ?? "";
  }
  return fields;
}

/** The import form's body, the file as Markdown. */
const multipart = (fields: Record<string, string>, file: { name: string; content: string }) =>
  multipartForm(fields, { ...file, type: "text/markdown" });

/** What the drop zone is: a multipart form to the Markdown/JSON import around a labelled file input taking PDFs too. */
function expectDropZone(html: string) {
  const form = formAround(html, 'id="import-file"');
  expect(form).toContain('action="/dashboard/next/import"');
  expect(form).toContain('method="post"');
  // (HTML attribute names are case-free; React writes encType.)
  expect(form).toMatch(/enctype="multipart\/form-data"/i);
  expect(form).toMatch(/<label for="import-file"[^>]*>Markdown or JSON file, or a PDF<\/label>/);
  const input = /<input[^>]*id="import-file"[^>]*>/.exec(form)?.[0] ?? "";
  expect(input).toContain('type="file"');
  expect(input).toContain('name="file"');
  for (const kind of [".md", ".json", ".pdf"]) expect(input).toContain(kind);
  expect(form).toContain('class="drop-zone');
  return form;
}

const DECK = "# Rock pools\n---\n# Who lives there\n- Anemones\n";

describe.each(testDatabaseTargets())("issue 28 item 3, a first deck, on $name", (target) => {
  const t = useTestApp(target);

  const importThrough = async (agent: TestAgent, page: string, name: string) => {
    const html = (await agent.get(page)).body;
    const form = expectDropZone(html);
    const body = multipart(fieldsOf(form), { name, content: DECK });
    return agent.request({
      method: "POST",
      url: "/dashboard/next/import",
      payload: body.payload,
      headers: { "content-type": body.contentType },
    });
  };

  it("issue 28 item 3 an empty dashboard starts with the one drop zone and a template, before anything else", async () => {
    const agent = new TestAgent(t.app);
    await agent.signUp("empty@first.test");
    const dashboard = await agent.get("/dashboard/next/");
    expect(dashboard.statusCode).toBe(200);
    const html = dashboard.body;
    expectDropZone(html);
    expect(html).toContain("Start from a file");
    expect(html).toMatch(/<a class="button" href="\/presentation-template\/">Start from a template<\/a>/);
    // Nothing stands above it but the page's heading: no empty list, and the image upload comes after.
    expect(html).not.toContain("All my presentations");
    expect(html.indexOf('id="import-file"')).toBeLessThan(html.indexOf('id="images-file"'));
    expect(html.match(/id="import-file"/g)).toHaveLength(1);
  });

  it("issue 28 item 3 once there are decks, the list comes first and Import (compact) below it", async () => {
    const agent = new TestAgent(t.app);
    await agent.signUp("decks@first.test");
    expect((await importThrough(agent, "/dashboard/next/", "rock-pools.md")).statusCode).toBe(303);
    const html = (await agent.get("/dashboard/next/")).body;
    const list = html.indexOf('id="mine-title"');
    const zone = html.indexOf('id="import-file"');
    expect(list).toBeGreaterThan(0);
    expect(html.indexOf("Rock pools")).toBeGreaterThan(list);
    expect(zone).toBeGreaterThan(html.indexOf("Rock pools"));
    expect(html).toContain("import-panel--compact");
    expect(html).not.toContain("Start from a file");
  });

  it("R2.8 issue 28 item 3 /v/create/ offers the same drop zone, a template and the title box of an empty deck", async () => {
    const agent = new TestAgent(t.app);
    await agent.signUp("create@first.test");
    const create = await agent.get("/v/create/");
    expect(create.statusCode).toBe(200);
    const html = create.body;
    expectDropZone(html);
    expect(html).toMatch(/<h1[^>]*>Start a new presentation<\/h1>/);
    expect(html).toContain('href="/presentation-template/"');
    // The empty deck is the second choice: after the drop zone, a form of its own to /v/create/.
    const empty = formAround(html, 'id="field-title"');
    expect(empty).toContain('action="/v/create/"');
    expect(html.indexOf('action="/v/create/"')).toBeGreaterThan(html.indexOf('id="import-file"'));
  });

  it("issue 28 item 3 the drop zone posts without JavaScript: its own fields and a Markdown file make a deck", async () => {
    const agent = new TestAgent(t.app);
    await agent.signUp("nojs@first.test");
    const imported = await importThrough(agent, "/v/create/", "tide.md");
    expect(imported.statusCode).toBe(303);
    expect(String(imported.headers.location)).toMatch(
      /^\/dashboard\/next\/presentations\/[a-z0-9]{12}\/\?notice=created/,
    );
    // Chosen as the page offers them: public, slides (pitch).
    const manage = await agent.get(String(imported.headers.location));
    expect(manage.body).toContain("Your presentation is imported.");
    expect(manage.body).toMatch(/<span class="privacy privacy--public">/);
  });
});
