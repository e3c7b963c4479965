import { createContext, type ReactNode } from "react";
import type { Transcript } from "../../../document/transcript";

/**
 * Issue 11: who draws a transcript's text (TranscriptText.tsx `drawTranscript`). Only the server
 * does (server/render/page.tsx provides it): the browser keeps that markup (Transcript,
 * ServerMarkup), so neither TranscriptText nor the rich-text renderer is among the scripts a
 * visitor loads before pressing Present. Import nothing here that draws.
 */
export const TranscriptMarkup = createContext<((transcript: Transcript) => TranscriptDrawing) | null>(null);

/** A drawing: React nodes, or HTML the server already made for this transcript (kept per deck and language). */
export type TranscriptDrawing = ReactNode | { html: string };

export function isDrawnHtml(drawing: TranscriptDrawing): drawing is { html: string } {
  return typeof drawing === "object" && drawing !== null && "html" in drawing && typeof drawing.html === "string";
}
