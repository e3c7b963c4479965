import { PDFDocument, StandardFonts } from "pdf-lib";
import { beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "../../db/testing";
import { TestAgent, useTestApp } from "../../server/testing";
import { readPdfPages } from "../../server/testing/read-pdf";

const DECK = [
  "# Tide tables for sailors",
  "Note: private: the harbour master owes me",
  "---",
  "# Spring tides",
  "- Zanzibar ñandú grows near the moon",
  "---",
  "# Neap tides",
  "- Quarter moons hold the water back",
].join("\n");

/** A deck's PDF read back as the server's PDF reader reads one: pdf.js in the converter's child process. */
const readBack = (bytes: Uint8Array) => readPdfPages(bytes, "downloads");

/**
 * Issue 33 item 4: downloads. Offered only where the owner allows them (the public page's setting,
 * off by default; a view link's own); the PDF is a valid PDF whose text pdf.js reads back (the
 * original for a PDF deck), a Markdown deck also downloads as its Markdown (never with private
 * notes); forbidden downloads are 404s; downloads are counted on the analytics.
 */
describe.each(testDatabaseTargets())("I33.4 downloads on $name", (target) => {
  const t = useTestApp(target, { owner: "owner@downloads.test" });
  let oid = "";
  let linkId = "";
  beforeAll(async () => {
    oid = await t.owner.newDeck({ name: "tides.md", content: DECK }, { privacy: "public" });
    linkId = await t.owner.newViewLink(oid, "Crew");
  });

  const linkSettings = (form: Record<string, string>) =>
    t.owner.postForm(`/dashboard/next/presentations/${oid}/view-links/${linkId}/settings`, {
      name: "Crew",
      expiresOn: "",
      passcode: "",
      enabled: "on",
      ...form,
    });
  const downloadsFigure = async (audience = "all") =>
    /data-figure="downloads">([\d,]+)</.exec(
      (await t.owner.get(`/dashboard/next/presentations/${oid}/?audience=${audience}`)).body,
    )?.[1];

  it("I33.4 off by default: nothing offered on the view page or the link's, and every download route is a 404", async () => {
    const visitor = new TestAgent(t.app);
    expect((await visitor.get(`/p/${oid}/`)).body).not.toContain("download.pdf");
    expect((await visitor.get(`/view/${linkId}/`)).body).not.toContain("download.pdf");
    for (const url of [
      `/p/${oid}/download.pdf`,
      `/p/${oid}/download.md`,
      `/view/${linkId}/download.pdf`,
      `/view/${linkId}/download.md`,
      `/view/${"x".repeat(32)}/download.pdf`,
      "/p/nosuchdeck00/download.pdf",
    ]) {
      expect((await visitor.get(url)).statusCode, url).toBe(404);
    }
  });

  it("I33.4 allowed for the public page: offered, a valid PDF whose every slide's text pdf.js reads back, and the Markdown without private notes; counted", async () => {
    expect(
      (await t.owner.postForm(`/dashboard/next/presentations/${oid}/downloads`, { allowDownload: "on" })).statusCode,
    ).toBe(303);
    // The view page's deck is kept between requests until the change feed says it changed.
    await t.app.changes.sync();
    const visitor = new TestAgent(t.app);
    const page = (await visitor.get(`/p/${oid}/`)).body;
    expect(page).toContain(`href="/p/${oid}/download.pdf"`);
    expect(page).toContain(`href="/p/${oid}/download.md"`);
    const pdf = await visitor.get(`/p/${oid}/download.pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(pdf.headers["content-disposition"]).toContain('attachment; filename="tide-tables-for-sailors.pdf"');
    expect(pdf.headers["cache-control"]).toBe("private, no-store");
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    const pages = await readBack(new Uint8Array(pdf.rawPayload));
    expect(pages).toHaveLength(3);
    expect(pages[0]?.lines.join(" ")).toContain("Tide tables for sailors");
    expect(pages[1]?.lines.join(" ")).toContain("Zanzibar ñandú grows near the moon");
    expect(pages[2]?.lines.join(" ")).toContain("Quarter moons hold the water back");
    expect(pages.flatMap((p) => p.lines).join(" ")).not.toContain("harbour master");
    const markdown = await visitor.get(`/p/${oid}/download.md`);
    expect(markdown.statusCode).toBe(200);
    expect(markdown.headers["content-type"]).toBe("text/markdown; charset=utf-8");
    expect(markdown.body).toContain("Zanzibar ñandú");
    expect(markdown.body).not.toContain("harbour master");
    // The owner's own downloads aren't counted; the visitor's two are.
    await t.owner.get(`/p/${oid}/download.pdf`);
    expect(await downloadsFigure()).toBe("2");
    expect(await downloadsFigure("public")).toBe("2");
    // The analytics' CSV says so too (issue 33 item 5).
    const csv = await t.owner.get(`/dashboard/next/presentations/${oid}/analytics.csv?audience=public`);
    expect(csv.body.split("\r\n")).toContain("summary,public,downloads,,,,,2");
    // Off again: gone, and 404.
    await t.owner.postForm(`/dashboard/next/presentations/${oid}/downloads`, {});
    await t.app.changes.sync();
    expect((await visitor.get(`/p/${oid}/`)).body).not.toContain("download.pdf");
    expect((await visitor.get(`/p/${oid}/download.pdf`)).statusCode).toBe(404);
  });

  it("I33.4 a view link's own setting: offered and served through the link only when it allows it; a passcode link only with its grant", async () => {
    expect((await linkSettings({ allowDownload: "on" })).statusCode).toBe(303);
    const visitor = new TestAgent(t.app);
    expect((await visitor.get(`/view/${linkId}/`)).body).toContain(`href="/view/${linkId}/download.pdf"`);
    const pdf = await visitor.get(`/view/${linkId}/download.pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    // The public page's setting is still off.
    expect((await visitor.get(`/p/${oid}/download.pdf`)).statusCode).toBe(404);
    expect(await downloadsFigure(linkId)).toBe("1");
    expect((await linkSettings({ allowDownload: "on", passcode: "anchors aweigh" })).statusCode).toBe(303);
    expect((await new TestAgent(t.app).get(`/view/${linkId}/download.pdf`)).statusCode).toBe(404);
    expect((await linkSettings({ allowDownload: "on", enabled: "" })).statusCode).toBe(303);
    expect((await visitor.get(`/view/${linkId}/download.pdf`)).statusCode).toBe(404);
    expect((await linkSettings({})).statusCode).toBe(303);
    expect((await visitor.get(`/view/${linkId}/download.pdf`)).statusCode).toBe(404);
  });

  it("I33.4 a PDF deck downloads as the very PDF it was imported from; one imported before has the PDF drawn from its slides", async () => {
    const source = await PDFDocument.create();
    const font = await source.embedFont(StandardFonts.Helvetica);
    for (const word of ["albatross", "bowsprit"]) {
      source.addPage([842, 595]).drawText(`The ${word} page`, { x: 60, y: 420, size: 24, font });
    }
    const bytes = await source.save();
    const boundary = "----podium-download-boundary";
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="privacy"\r\n\r\npublic\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="schemaVersion"\r\n\r\n2\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="birds.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      Buffer.from(bytes),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const upload = await t.owner.request({
      method: "POST",
      url: "/api/imports/pdf",
      headers: {
        "content-type": `multipart/form-data; boundary=${boundary}`,
        "x-xsrf-token": t.owner.cookies.get("XSRF-TOKEN") ?? "",
      },
      payload,
    });
    expect(upload.statusCode).toBe(202);
    const job = (upload.json() as { id: string }).id;
    let pdfOid = "";
    for (let tries = 0; tries < 2_000 && pdfOid === ""; tries++) {
      const status = (await t.owner.get(`/api/imports/${job}`)).json() as { state: string; oid?: string };
      expect(status.state).not.toBe("failed");
      if (status.state === "done") pdfOid = status.oid ?? "";
      else await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await t.owner.postForm(`/dashboard/next/presentations/${pdfOid}/downloads`, { allowDownload: "on" });
    await t.app.changes.sync();
    const visitor = new TestAgent(t.app);
    expect((await visitor.get(`/p/${pdfOid}/`)).body).not.toContain("download.md");
    const original = await visitor.get(`/p/${pdfOid}/download.pdf`);
    expect(original.statusCode).toBe(200);
    expect(Buffer.compare(original.rawPayload, Buffer.from(bytes))).toBe(0);
    expect((await visitor.get(`/p/${pdfOid}/download.md`)).statusCode).toBe(404);
    // A PDF deck from before issue 33 kept no original: its download is drawn from its slides.
    await t.db.query(
      "delete from presentation_originals where presentation_id = (select id from presentations where oid = $1)",
      [pdfOid],
    );
    const drawn = await visitor.get(`/p/${pdfOid}/download.pdf`);
    expect(drawn.statusCode).toBe(200);
    expect(Buffer.compare(drawn.rawPayload, Buffer.from(bytes))).not.toBe(0);
    const pages = await readBack(new Uint8Array(drawn.rawPayload));
    expect(pages.map((page) => page.lines.join(" "))).toEqual([
      expect.stringContaining("The albatross page"),
      expect.stringContaining("The bowsprit page"),
    ]);
  });
});
