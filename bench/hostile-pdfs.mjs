// Hostile PDFs for the PDF import benches (issue 27 item 2), made with pdf-lib:
// - linesPdf: many pages, each stroking many line segments (one content stream shared by every
//   page, so the file stays small while each page takes long to draw);
// - imagePdf: a small file whose pages each draw one huge, flat image many times (the image is
//   a Flate stream of zeros: a few hundred kB that decode to ~150 MB of pixels);
// - bombPdf: a page whose content stream is a Flate bomb (1 MB that inflates to ~1 GB).
import { createDeflate, deflateSync } from "node:zlib";
import { PDFDocument, PDFName } from "pdf-lib";

/** `pages` pages of `segments` stroked line segments each (pseudo-random, the same on every page). */
export async function linesPdf(pages, segments) {
  const pdf = await PDFDocument.create();
  let seed = 1;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return (seed / 2_147_483_648) * 800;
  };
  const ops = ["0.2 w"];
  for (let n = 0; n < segments; n += 1)
    ops.push(`${random().toFixed(1)} ${random().toFixed(1)} m ${random().toFixed(1)} ${random().toFixed(1)} l S`);
  const contents = pdf.context.register(pdf.context.flateStream(ops.join("\n")));
  for (let n = 0; n < pages; n += 1) {
    const page = pdf.addPage([842, 595]);
    page.node.set(PDFName.of("Contents"), contents);
  }
  return Buffer.from(await pdf.save());
}

/** `pages` pages, each drawing one flat `side` x `side` RGB image `times` times. */
export async function imagePdf(pages, times, side = 7_000) {
  const pdf = await PDFDocument.create();
  const pixels = deflateSync(Buffer.alloc(side * side * 3, 0x80), { level: 9 });
  const image = pdf.context.register(
    pdf.context.stream(pixels, {
      Type: "XObject",
      Subtype: "Image",
      Width: side,
      Height: side,
      ColorSpace: "DeviceRGB",
      BitsPerComponent: 8,
      Filter: "FlateDecode",
    }),
  );
  const ops = [];
  for (let n = 0; n < times; n += 1) ops.push(`q ${400 - n * 5} 0 0 ${300 - n * 3} ${n * 10} ${n * 5} cm /Im0 Do Q`);
  const contents = pdf.context.register(pdf.context.flateStream(ops.join("\n")));
  for (let n = 0; n < pages; n += 1) {
    const page = pdf.addPage([842, 595]);
    page.node.set(PDFName.of("Contents"), contents);
    page.node.set(PDFName.of("Resources"), pdf.context.obj({ XObject: { Im0: image } }));
  }
  return Buffer.from(await pdf.save());
}

/** One page whose content stream is `inflatedMb` MB of spaces, Flate-compressed about a thousand to one. */
export async function bombPdf(inflatedMb = 1_024) {
  const deflate = createDeflate({ level: 9 });
  const chunks = [];
  deflate.on("data", (chunk) => chunks.push(chunk));
  const ended = new Promise((resolve) => deflate.on("end", resolve));
  const megabyte = Buffer.alloc(1024 * 1024, 0x20);
  for (let n = 0; n < inflatedMb; n += 1) {
    if (!deflate.write(megabyte)) await new Promise((resolve) => deflate.once("drain", resolve));
  }
  deflate.end();
  await ended;
  const pdf = await PDFDocument.create();
  const contents = pdf.context.register(pdf.context.stream(Buffer.concat(chunks), { Filter: "FlateDecode" }));
  const page = pdf.addPage([842, 595]);
  page.node.set(PDFName.of("Contents"), contents);
  return Buffer.from(await pdf.save());
}
