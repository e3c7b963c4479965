/** Why a presentation can be reported (the report form's choices). */
export const REPORT_REASONS = [
  "spam",
  "harassment",
  "hate",
  "violence",
  "sexual",
  "copyright",
  "privacy",
  "other",
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
