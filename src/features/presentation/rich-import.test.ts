import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "../../db/testing";
import { type PresentationDocument, type Text, type Topic, topicsById } from "../../document/schema";
import { deriveTranscript, transcriptPlainText } from "../../document/transcript";
import { useTestApp } from "../../server/testing";
import type { EditorPageData } from "../editor/page-data";

/**
 * Issue 10, "Done when": a Markdown talk with every construct imports (through the dashboard
 * and the document worker, as a person's upload does), keeps each construct in the stored
 * document, gives back what was imported in the editor, and says what it showed differently.
 */
const FIXTURE = readFileSync(new URL("../../document/fixtures/every-construct.md", import.meta.url), "utf8");

function multipart(fields: Record<string, string>, file: { name: string; content: string }) {
  const boundary = "----podium-rich-import";
  const parts: string[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  }
  parts.push(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: text/markdown\r\n\r\n${file.content}\r\n`,
  );
  parts.push(`--${boundary}--\r\n`);
  return { payload: Buffer.from(parts.join("")), contentType: `multipart/form-data; boundary=${boundary}` };
}

function bootData<Data>(html: string): Data {
  const json = /<script type="application\/json" id="podium-boot">([\s\S]*?)<\/script>/.exec(html)?.[1];
  if (!json) throw new Error("no boot data on the page");
  return (JSON.parse(json) as { data: Data }).data;
}

/** The slides of a pitch deck, in path order. */
function slidesOf(document: PresentationDocument): Topic[] {
  const byId = topicsById(document);
  return document.path.map((id) => byId.get(id) as Topic);
}

const texts = (slide: Topic | undefined, kind?: Text["kind"]) =>
  (slide?.texts ?? []).filter((text) => text.kind === kind && text.styleClasses[0] === "body");

describe.each(testDatabaseTargets())("issue 10: a Markdown talk with every construct, on $name", (target) => {
  const t = useTestApp(target, { owner: "speaker@rich.test" });
  let location = "";
  let document: PresentationDocument;

  beforeAll(async () => {
    await t.owner.get("/dashboard/next/");
    const body = multipart(
      { _csrf: t.owner.cookies.get("XSRF-TOKEN") ?? "", privacy: "public", schemaVersion: "2", title: "" },
      { name: "shipping-safely.md", content: FIXTURE },
    );
    const response = await t.owner.request({
      method: "POST",
      url: "/dashboard/next/import",
      payload: body.payload,
      headers: { "content-type": body.contentType },
    });
    expect(response.statusCode).toBe(303);
    location = String(response.headers.location);
    const oid = /presentations\/([a-z0-9]{12})\//.exec(location)?.[1];
    const rows = await t.db.query<{ document: PresentationDocument }>(
      "select document from presentations where oid = $1",
      [oid],
    );
    document = rows[0]?.document as PresentationDocument;
  });

  it("stores a version 2 document with one slide per Markdown slide", () => {
    expect(document.version).toBe(2);
    expect(slidesOf(document)).toHaveLength(8);
  });

  it("keeps bold, italic, strikethrough, inline code and links (http(s) and mailto) as marks", () => {
    const [body] = texts(slidesOf(document)[1]);
    const runs = body?.paragraphs.flatMap((p) => p.runs ?? []) ?? [];
    expect(runs).toEqual(
      expect.arrayContaining([
        { text: "small", marks: ["strong"] },
        { text: "everywhere", marks: ["em"] },
        { text: "tested", marks: ["strike"] },
        { text: "deploy --canary", marks: ["code"] },
        { text: "incident report", href: "https://status.example.com/2026/03" },
        { text: "the team", href: "mailto:sre@example.com" },
      ]),
    );
  });

  it("keeps numbered lists with their start number, nested bullets and task items", () => {
    const [list, tasks] = texts(slidesOf(document)[2]);
    expect(list?.paragraphs.map((p) => [p.listType, p.number ?? null, p.level ?? 0, p.text])).toEqual([
      ["NUMBER", 3, 0, "Canary at 1%"],
      ["NUMBER", 4, 0, "Watch the dashboards"],
      ["BULLET", null, 1, "error rate"],
      ["BULLET", null, 1, "p99 latency"],
      ["NUMBER", 5, 0, "Widen to 100%"],
    ]);
    expect(tasks?.paragraphs.map((p) => [p.checked, p.text])).toEqual([
      [true, "Feature flag in place"],
      [false, "Rollback rehearsed"],
    ]);
  });

  it("keeps a block quote as a quote, with its marks and no literal '>'", () => {
    const [quote] = texts(slidesOf(document)[3], "quote");
    expect(quote?.paragraphs.map((p) => p.text)).toEqual([
      "Nothing broke, and we didn't even notice the upgrade.",
      "— Operations lead, Example Corp",
    ]);
    expect(quote?.paragraphs[1]?.runs?.[1]).toEqual({ text: "Operations lead", marks: ["em"] });
  });

  it("keeps fenced code with its language, its indentation and highlight tokens made at import time", () => {
    const [code] = texts(slidesOf(document)[4], "code");
    expect(code?.language).toBe("ts");
    expect(code?.paragraphs.map((p) => p.text)).toEqual([
      "export function canWiden(metrics: Metrics): boolean {",
      "  // Widen only when the canary is as healthy as the fleet.",
      "  return metrics.errorRate <= metrics.baseline * 1.05;",
      "}",
    ]);
    expect(code?.paragraphs[0]?.runs).toContainEqual({ text: "export", token: "keyword" });
    expect(code?.paragraphs[1]?.runs).toContainEqual({
      text: "  ",
    });
    expect(code?.paragraphs[1]?.runs?.some((run) => run.token === "comment")).toBe(true);
  });

  it("keeps a table with its alignment, header row and marks in cells", () => {
    const [table] = texts(slidesOf(document)[5], "table");
    expect(table?.align).toEqual(["left", "center", "right"]);
    expect(table?.paragraphs.map((p) => p.text)).toEqual([
      "Stage | Share | Errors",
      "Canary | 1% | 0.02%",
      "Wide | 100% | 0.03%",
    ]);
    expect(table?.paragraphs[1]?.cells?.[2]).toEqual([{ text: "0.02%", marks: ["code"] }]);
    expect(table?.paragraphs[2]?.cells?.[1]).toEqual([{ text: "100%", marks: ["strong"] }]);
  });

  it("keeps an image with its alt text and address", () => {
    const slide = slidesOf(document)[6];
    expect(slide?.images.map((image) => [image.alt, image.src])).toEqual([
      [
        "Rollout from 1% to 100% over four days",
        "/assets/0000000000000000000000000000000000000000000000000000000000000000.webp",
      ],
    ]);
  });

  it("keeps speaker notes written as reveal.js (Note:) and Slidev (a closing comment) write them", () => {
    const slides = slidesOf(document);
    expect(slides[0]?.notes).toBe("Welcome everyone. Introduce yourself and the team.");
    expect(slides[1]?.notes).toBe("Pause here. Ask who has shipped on a Friday.");
    expect(slides[7]?.notes).toBe("Thank the organisers.");
    // Notes are the speaker's, not the slide's: they aren't slide text.
    expect(transcriptPlainText(deriveTranscript(document))).not.toContain("Ask who has shipped");
  });

  it("lists what it showed differently (raw HTML) on the page the import lands on", async () => {
    expect(location).toContain("warnings=html.8");
    const manage = await t.owner.get(location);
    expect(manage.body).toContain("Slide 8: raw HTML is shown as text, not as markup.");
    const [last] = texts(slidesOf(document)[7]);
    expect(last?.paragraphs[0]?.text).toBe("Questions? <span>ask us</span> anytime.");
  });

  it("gives back the Markdown as it was imported in the editor, and keeps it through a save", async () => {
    const oid = /presentations\/([a-z0-9]{12})\//.exec(location)?.[1];
    const editor = await t.owner.get(`/p/edit/${oid}/`);
    expect(editor.statusCode).toBe(200);
    expect(bootData<EditorPageData>(editor.body).form?.values.markdown).toBe(FIXTURE);
  });
});
