import { MAX_WARNINGS, type MarkdownWarning, type MarkdownWarningCode } from "../../document/markdown";

/**
 * Import warnings travel from the import (or the editor's save) to the page it redirects to in
 * the address: `warnings=html.1,remoteImage.3` (code and slide). What the address says is read
 * back strictly: unknown codes and malformed entries are dropped.
 */
const CODES: readonly MarkdownWarningCode[] = ["html", "remoteImage", "localImage", "inlineImage", "link", "cut"];

export function encodeWarnings(warnings: readonly MarkdownWarning[]): string {
  return warnings.map((warning) => `${warning.code}.${warning.slide}`).join(",");
}

export function decodeWarnings(value: unknown): MarkdownWarning[] {
  if (typeof value !== "string" || value.length > 1000) return [];
  const warnings: MarkdownWarning[] = [];
  for (const entry of value.split(",").slice(0, MAX_WARNINGS)) {
    const [code, slide] = entry.split(".");
    const number = Number(slide);
    if (CODES.includes(code as MarkdownWarningCode) && Number.isInteger(number) && number >= 1 && number <= 100_000) {
      warnings.push({ code: code as MarkdownWarningCode, slide: number });
    }
  }
  return warnings;
}

/** The query string that carries warnings, or "" when there are none. */
export function warningsQuery(warnings: readonly MarkdownWarning[]): string {
  return warnings.length > 0 ? `&warnings=${encodeURIComponent(encodeWarnings(warnings))}` : "";
}
