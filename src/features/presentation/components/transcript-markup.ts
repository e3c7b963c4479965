import { createContext, type ReactNode } from "react";
import type { Transcript } from "../document/transcript";

/**
 * Issue 11: who draws a transcript's text (TranscriptText.tsx `drawTranscript`). Only the server
 * does (server/render/page.tsx provides it): the browser keeps that markup (Transcript,
 * ServerMarkup), so neither TranscriptText nor the rich-text renderer is among the scripts a
 * visitor loads before pressing Present. Import nothing here that draws.
 */
export const TranscriptMarkup = createContext<((transcript: Transcript) => ReactNode) | null>(null);
