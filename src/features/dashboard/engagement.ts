import { medianOfBuckets } from "../events/step-engagement";
import type { StepTimesRow, StepTotalsRow } from "./repository";

/** Issue 33 item 1: the periods the owner's analytics offers (days, the UTC day today included). */
export const ENGAGEMENT_PERIODS = [7, 30, 90] as const;
export const DEFAULT_ENGAGEMENT_PERIOD = 30;

/** Whose figures: everyone, the public page (and embeds), or one view link. */
export type Audience = { kind: "all" } | { kind: "public" } | { kind: "link"; linkId: string };

export interface StepFigure {
  /** 1-based, as the player shows it. */
  step: number;
  /** Visits that reached it. */
  reached: number;
  /** Arrivals by going back to it. */
  backs: number;
  /** Median time of a stay on it (ms), or null. */
  medianMs: number | null;
}

export interface EngagementFigures {
  steps: StepFigure[];
  /** Visits that started (reached the first step). */
  visits: number;
  /** Visits that reached the last step. */
  completed: number;
  /** completed ÷ visits, or null without visits. */
  completionRate: number | null;
  /** Median viewing time of a visit (ms), or null. */
  medianVisitMs: number | null;
}

const inAudience = (audience: Audience, linkId: string) =>
  audience.kind === "all" || (audience.kind === "public" ? linkId === "" : linkId === audience.linkId);

/** The figures for one audience from a deck's aggregates (dashboard repository's findStepEngagement). */
export function engagementFigures(
  rows: { totals: StepTotalsRow[]; times: StepTimesRow[] },
  stepCount: number,
  audience: Audience,
): EngagementFigures {
  const reached = new Array<number>(stepCount).fill(0);
  const backs = new Array<number>(stepCount).fill(0);
  for (const row of rows.totals) {
    if (row.step >= stepCount || !inAudience(audience, row.linkId)) continue;
    reached[row.step] = (reached[row.step] ?? 0) + row.reached;
    backs[row.step] = (backs[row.step] ?? 0) + row.backs;
  }
  const histograms = new Map<number, Map<number, number>>();
  for (const row of rows.times) {
    if (row.step >= stepCount || !inAudience(audience, row.linkId)) continue;
    let histogram = histograms.get(row.step);
    if (!histogram) {
      histogram = new Map();
      histograms.set(row.step, histogram);
    }
    histogram.set(row.bucket, (histogram.get(row.bucket) ?? 0) + row.n);
  }
  const steps = reached.map((n, index) => ({
    step: index + 1,
    reached: n,
    backs: backs[index] ?? 0,
    medianMs: medianOfBuckets(histograms.get(index) ?? new Map()),
  }));
  const visits = reached[0] ?? 0;
  const completed = stepCount > 0 ? (reached[stepCount - 1] ?? 0) : 0;
  return {
    steps,
    visits,
    completed,
    completionRate: visits > 0 ? Math.min(1, completed / visits) : null,
    medianVisitMs: medianOfBuckets(histograms.get(-1) ?? new Map()),
  };
}
