import type { FastifyInstance } from "fastify";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { testDatabaseTargets } from "../../db/testing";
import { replaceImageSource } from "../../document/markdown";
import { type PresentationDocument, topicsById } from "../../document/schema";
import { createTestApp, multipartForm, signedInAgent, type TestAgent } from "../../server/testing";
import type { DashboardPageData } from "../dashboard/components/DashboardPage";
import { findSourceMarkdown } from "../presentation/repository";
import type { EditorPageData } from "./page-data";

/**
 * Issue 28 item 7: a relative image path in an imported Markdown deck (`![…](tide-chart.png)`) is
 * reported as an image file not in Podium yet (never as "an image from another site"), and is
 * offered for upload where the warning shows; the uploaded image then shows on its slide.
 */
const DECK = [
  "# Tides",
  "",
  "---",
  "",
  "## The tide chart",
  "",
  '![Tide chart for May](tide-chart.png "Spring tides")',
  "",
  "---",
  "",
  "## Elsewhere",
  "",
  "![A chart from the web](https://example.com/chart.png)",
  "",
  "```markdown",
  "![Tide chart for May](tide-chart.png)",
  "```",
  "",
  "---",
  "",
  "## Kelp",
  "",
  "![Kelp][kelp]",
  "",
  "[kelp]: <photos/kelp forest.jpg>",
  "",
].join("\n");

function bootData<Data>(html: string): Data {
  const json = /<script type="application\/json" id="podium-boot">([\s\S]*?)<\/script>/.exec(html)?.[1];
  if (!json) throw new Error("no boot data on the page");
  return (JSON.parse(json) as { data: Data }).data;
}

async function uploadImage(agent: TestAgent): Promise<string> {
  const png = await sharp({ create: { width: 320, height: 180, channels: 3, background: "#1d4ed8" } })
    .png()
    .toBuffer();
  const form = multipartForm({}, { name: "tide-chart.png", content: png });
  const response = await agent.request({
    method: "POST",
    url: "/api/assets",
    payload: form.payload,
    headers: { "content-type": form.contentType, "x-xsrf-token": agent.cookies.get("XSRF-TOKEN") ?? "" },
  });
  expect(response.statusCode).toBe(201);
  return (response.json() as { url: string }).url;
}

function place(agent: TestAgent, oid: string, body: Record<string, string>, csrf = true) {
  return agent.request({
    method: "POST",
    url: `/api/presentations/${oid}/images`,
    payload: JSON.stringify(body),
    headers: {
      "content-type": "application/json",
      ...(csrf ? { "x-xsrf-token": agent.cookies.get("XSRF-TOKEN") ?? "" } : {}),
    },
  });
}

/** Each slide's images, in path order. */
function slideImages(document: PresentationDocument): string[][] {
  const byId = topicsById(document);
  return document.path.map((id) => (byId.get(id)?.images ?? []).map((image) => image.src));
}

describe("R28.7 replaceImageSource", () => {
  it("issue 28 item 7: rewrites inline images and reference definitions with that file, never code or other files", () => {
    // A link, code, and another file (one with a space in its name) stay as they are.
    const untouched = [
      "[chart](chart.png) is a link, not an image",
      "```",
      "![a](chart.png)",
      "```",
      "    ![indented code](chart.png)",
      "![spaced](<my chart.png>)",
    ];
    const source = [
      "![a](chart.png)",
      '![b](<chart.png> "title")  ![c](other.png)',
      "[ref]: chart.png",
      ...untouched,
    ].join("\n");
    const { markdown, replaced } = replaceImageSource(source, "chart.png", "/assets/x.webp");
    expect(replaced).toBe(3);
    expect(markdown.split("\n")).toEqual([
      "![a](/assets/x.webp)",
      '![b](/assets/x.webp "title")  ![c](other.png)',
      "[ref]: /assets/x.webp",
      ...untouched,
    ]);
    // The importer's name for a file with a space is its address form.
    expect(replaceImageSource(source, "my%20chart.png", "/assets/y.webp").markdown).toContain(
      "![spaced](/assets/y.webp)",
    );
    expect(replaceImageSource(source, "missing.png", "/assets/y.webp").replaced).toBe(0);
  });
});

describe.each(testDatabaseTargets())("R28.7 relative images offered for upload ($name)", (target) => {
  let app: FastifyInstance;
  let db: Database;
  let close: () => Promise<void>;
  let owner: TestAgent;
  let oid: string;
  let location: string;

  beforeAll(async () => {
    ({ app, db, close } = await createTestApp(target));
    owner = await signedInAgent(app, db, { email: "marina@example.com", firstName: "Marina", lastName: "Tide" });
    const imported = await owner.importDeck({ name: "tides.md", content: DECK });
    expect(imported.statusCode).toBe(303);
    location = String(imported.headers.location);
    oid = /presentations\/([^/]+)\//.exec(location)?.[1] ?? "";
  });
  afterAll(async () => close());

  it("issue 28 item 7: a relative image is a file to upload (not an image from another site), offered on the import's result page", async () => {
    const warnings = new URL(location, "https://podium.example").searchParams.get("warnings")?.split(",") ?? [];
    expect(warnings).toContain("localImage.2");
    expect(warnings).toContain("remoteImage.3");
    expect(warnings).toContain("localImage.4");
    expect(warnings).not.toContain("remoteImage.2");

    const page = await owner.get(location);
    expect(page.statusCode).toBe(200);
    const data = bootData<Extract<DashboardPageData, { view: "manage" }>>(page.body);
    expect(data.localImages).toEqual([
      { src: "tide-chart.png", slide: 2 },
      { src: "photos/kelp%20forest.jpg", slide: 4 },
    ]);
    // Server-rendered: the offer is there before any script runs.
    expect(page.body).toContain("Images to upload");
    expect(page.body).toContain("Upload tide-chart.png");
    expect(page.body).toContain("Upload photos/kelp forest.jpg");
    // Without the warning in the address (a later visit), the manage page reads no Markdown for it.
    const plain = bootData<Extract<DashboardPageData, { view: "manage" }>>(
      (await owner.get(`/dashboard/next/presentations/${oid}/`)).body,
    );
    expect(plain.localImages).toEqual([]);
  });

  it("issue 28 item 7: refused without a session, the CSRF token, the edit right, an uploaded image or a file the Markdown names", async () => {
    const url = await uploadImage(owner);
    const anonymous = await app.inject({
      method: "POST",
      url: `/api/presentations/${oid}/images`,
      payload: { src: "tide-chart.png", url },
    });
    expect(anonymous.statusCode).toBe(403); // no CSRF token either: refused before anything
    expect((await place(owner, oid, { src: "tide-chart.png", url }, false)).statusCode).toBe(403);
    const stranger = await signedInAgent(app, db, { email: "stranger@example.com", firstName: "S", lastName: "T" });
    const strangers = await place(stranger, oid, { src: "tide-chart.png", url });
    expect(strangers.statusCode).toBe(404);
    const notUploaded = await place(owner, oid, { src: "tide-chart.png", url: `/assets/${"0".repeat(64)}.webp` });
    expect(notUploaded.statusCode).toBe(422);
    expect(notUploaded.json()).toMatchObject({ problem: "notUploaded" });
    const elsewhere = await place(owner, oid, { src: "https://evil.example/x.png", url: "https://evil.example/x.png" });
    expect(elsewhere.statusCode).toBe(422);
    const unknown = await place(owner, oid, { src: "no-such-file.png", url });
    expect(unknown.statusCode).toBe(409);
    expect(unknown.json()).toMatchObject({ problem: "notInMarkdown" });
    const empty = await place(owner, oid, { src: "", url });
    expect(empty.statusCode).toBe(400);
    // Nothing changed.
    expect(
      await findSourceMarkdown(
        db,
        (await db.query<{ id: string }>("select id from presentations where oid = $1", [oid]))[0]?.id ?? "",
      ),
    ).toBe(DECK);
  });

  it("issue 28 item 7: the uploaded image takes the file's place: it shows on its slide, the Markdown names it, code stays as written", async () => {
    const url = await uploadImage(owner);
    const placed = await place(owner, oid, { src: "tide-chart.png", url });
    expect(placed.statusCode).toBe(200);
    expect(placed.json()).toMatchObject({
      replaced: 1,
      localImages: [{ src: "photos/kelp%20forest.jpg", slide: 4 }],
    });

    const document = (
      await app.inject({ method: "GET", url: `/p/${oid}/document.json` })
    ).json() as PresentationDocument;
    expect(slideImages(document)).toEqual([[], [url], [], []]);

    const editor = bootData<EditorPageData>((await owner.get(`/p/edit/${oid}/`)).body);
    const markdown = editor.form?.values.markdown ?? "";
    expect(markdown).toContain(`![Tide chart for May](${url} "Spring tides")`);
    expect(markdown).toContain("```markdown\n![Tide chart for May](tide-chart.png)\n```");
    expect(markdown).toContain("[kelp]: <photos/kelp forest.jpg>");

    // The reference-style image next: its definition takes the uploaded image.
    const kelp = await place(owner, oid, { src: "photos/kelp%20forest.jpg", url });
    expect(kelp.json()).toMatchObject({ replaced: 1, localImages: [] });
    const after = (await app.inject({ method: "GET", url: `/p/${oid}/document.json` })).json() as PresentationDocument;
    expect(slideImages(after)).toEqual([[], [url], [], [url]]);
    // Done once: the same file again is no longer in the Markdown.
    expect((await place(owner, oid, { src: "tide-chart.png", url })).statusCode).toBe(409);
  });
});
