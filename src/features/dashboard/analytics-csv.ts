import type { ManageData } from "./service";

/** Issue 33 item 5: the CSV's columns (RFC 4180, a header row, CRLF line ends). */
export const ANALYTICS_CSV_COLUMNS = [
  "section",
  "audience",
  "item",
  "reached",
  "share_of_started",
  "median_seconds",
  "went_back",
  "count",
] as const;

/**
 * One cell: quoted when it holds a comma, a quote or a line break; text that a spreadsheet would
 * run as a formula (starting with =, +, -, @, a tab or a carriage return) gets a leading
 * apostrophe (OWASP, CSV injection). Link names are the owner's own text.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const seconds = (ms: number | null) => (ms === null ? null : Math.round(ms / 100) / 10);

/**
 * Issue 33 item 5: the owner's analytics as CSV, for the period and audience the page shows: the
 * steps (reached, share of those who started, median seconds, went back), the summary (visits,
 * completed, completion rate, median visit seconds, downloads), where views came from, and views and likes
 * per day (the chart's 30 days).
 */
export function analyticsCsv(data: ManageData): string {
  const { engagement } = data;
  const audience =
    engagement.audience === "all" || engagement.audience === "public"
      ? engagement.audience
      : (data.viewLinks.find((link) => link.linkId === engagement.audience)?.name ?? "") || engagement.audience;
  const rows: (string | number | null)[][] = [[...ANALYTICS_CSV_COLUMNS]];
  const { figures } = engagement;
  for (const step of figures.steps) {
    rows.push([
      "steps",
      audience,
      step.step,
      step.reached,
      figures.visits > 0 ? Math.round((step.reached / figures.visits) * 1000) / 1000 : null,
      seconds(step.medianMs),
      step.backs,
      null,
    ]);
  }
  const summary: [string, number | null][] = [
    ["visits", figures.visits],
    ["completed", figures.completed],
    ["completion_rate", figures.completionRate === null ? null : Math.round(figures.completionRate * 1000) / 1000],
    ["median_visit_seconds", seconds(figures.medianVisitMs)],
    // Issue 33 item 4: downloads in the period, for the audience (never the owner's own).
    ["downloads", engagement.downloads],
    ["period_days", engagement.days],
  ];
  for (const [item, value] of summary) rows.push(["summary", audience, item, null, null, null, null, value]);
  for (const source of engagement.sources) {
    rows.push([
      "source",
      "all",
      source.host ? `${source.kind}:${source.host}` : source.kind,
      null,
      null,
      null,
      null,
      source.n,
    ]);
  }
  for (const day of data.activity.days) {
    rows.push(["views", "all", day.day, null, null, null, null, day.views]);
    rows.push(["likes", "all", day.day, null, null, null, null, day.likes]);
  }
  return `${rows.map((row) => row.map(csvCell).join(",")).join("\r\n")}\r\n`;
}
