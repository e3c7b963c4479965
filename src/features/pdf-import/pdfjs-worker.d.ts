// pdfjs-dist ships no types for its worker module; Podium only hands it to pdfjs (reader.ts).
declare module "pdfjs-dist/legacy/build/pdf.worker.mjs" {
  export const WorkerMessageHandler: unknown;
}
