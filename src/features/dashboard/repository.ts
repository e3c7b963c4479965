import type { Queryable } from "../../db/client";

/** Product brief, Analytics: the owner's chart of views and likes covers the last 30 days. */
export const ACTIVITY_WINDOW_DAYS = 30;

/** One day (UTC) of a presentation's activity: views counted and likes made that day. */
export interface DailyActivity {
  /** The UTC day, YYYY-MM-DD. */
  day: string;
  views: number;
  likes: number;
}

export interface PresentationActivity {
  /** Every day of the window, oldest first, days without activity included as zeros. */
  days: DailyActivity[];
  totals: { views: number; likes: number };
}

/**
 * Views counted (issue 14 item 5: the per-day aggregate ingestion keeps, never the raw events)
 * and likes made (likes still standing: unliking deletes the row; the likes table is one row per
 * person and presentation, read by its (presentation_id, created_at) index) per UTC day, for
 * the window of `days` days ending with `lastDay` (YYYY-MM-DD; by default the database's today in UTC).
 */
export async function findDailyActivity(
  db: Queryable,
  presentation: { id: string; oid: string },
  window: { lastDay?: string; days?: number } = {},
): Promise<PresentationActivity> {
  const days = window.days ?? ACTIVITY_WINDOW_DAYS;
  if (!Number.isInteger(days) || days < 1) throw new RangeError(`an activity window of ${days} days`);
  const rows = await db.query<DailyActivity>(
    `with bounds as (
       select last_day - ($2::int - 1) as first_day, last_day
         from (select coalesce($3::date, (now() at time zone 'UTC')::date) as last_day) today
     ),
     views as (
       select v.day, v.views as n
         from presentation_daily_views v, bounds b
        where v.presentation_id = $1 and v.day between b.first_day and b.last_day
     ),
     likes_made as (
       select (l.created_at at time zone 'UTC')::date as day, count(*)::int as n
         from likes l, bounds b
        where l.presentation_id = $1
          and l.created_at >= b.first_day::timestamp at time zone 'UTC'
          and l.created_at < (b.last_day + 1)::timestamp at time zone 'UTC'
        group by 1
     ),
     window_days as (
       select b.first_day + offset_days as day
         from bounds b, generate_series(0, $2::int - 1) as offset_days
     )
     select to_char(w.day, 'YYYY-MM-DD') as day, coalesce(v.n, 0) as views, coalesce(l.n, 0) as likes
       from window_days w
       left join views v on v.day = w.day
       left join likes_made l on l.day = w.day
      order by w.day`,
    [presentation.id, days, window.lastDay ?? null],
  );
  return {
    days: rows,
    totals: {
      views: rows.reduce((sum, row) => sum + row.views, 0),
      likes: rows.reduce((sum, row) => sum + row.likes, 0),
    },
  };
}

/**
 * Issue 33 item 1: a deck's step aggregates over the last `days` UTC days, per audience and step.
 * The time histograms are kept per week (their rows dominate what the analytics sums): the medians
 * cover the weeks (from Monday, UTC) that the period touches.
 */
export interface StepTotalsRow {
  linkId: string;
  step: number;
  reached: number;
  backs: number;
}

export interface StepTimesRow {
  linkId: string;
  /** -1: whole visits. */
  step: number;
  bucket: number;
  n: number;
}

export async function findStepEngagement(
  db: Queryable,
  presentationId: string,
  days: number,
): Promise<{ totals: StepTotalsRow[]; times: StepTimesRow[] }> {
  const since = `(now() at time zone 'UTC')::date - ($2::int - 1)`;
  const [totals, times] = await Promise.all([
    db.query<StepTotalsRow>(
      `select link_id as "linkId", step, sum(reached)::int as reached, sum(backs)::int as backs
         from presentation_step_daily
        where presentation_id = $1 and day >= ${since}
        group by 1, 2`,
      [presentationId, days],
    ),
    db.query<StepTimesRow>(
      `select link_id as "linkId", step, bucket, sum(n)::int as n
         from presentation_step_times
        where presentation_id = $1 and day >= date_trunc('week', ${since})::date
        group by 1, 2, 3`,
      [presentationId, days],
    ),
  ]);
  return { totals, times };
}

/** Issue 33 item 2: where a deck's views came from over the last `days` UTC days, most first. */
export interface ViewSourceRow {
  kind: "direct" | "search" | "podium" | "site" | "embed" | "share";
  host: string;
  n: number;
}

export async function findViewSources(db: Queryable, presentationId: string, days: number): Promise<ViewSourceRow[]> {
  return db.query<ViewSourceRow>(
    `select kind, host, sum(n)::int as n
       from presentation_daily_sources
      where presentation_id = $1 and day >= (now() at time zone 'UTC')::date - ($2::int - 1)
      group by 1, 2
      order by 3 desc, 1, 2
      limit 100`,
    [presentationId, days],
  );
}

/** Issue 35 item 3: a live session's questions, kept with it (migration 0026), for the deck's analytics. */
export interface LiveSessionQuestions {
  startedAt: Date;
  questions: { id: string; text: string; votes: number; answered: boolean; hidden: boolean }[];
}

/**
 * Issue 35 item 3: the deck's live sessions that had questions, most recent first, each with its
 * questions (most votes first). Read here, not through features/live, which the dashboard can't
 * import (live uses presentation, which uses the dashboard: no circles, issue 31).
 */
export async function listLiveSessionQuestions(
  db: Queryable,
  presentationId: string,
  limit: number,
): Promise<LiveSessionQuestions[]> {
  const rows = await db.query<{ startedAt: Date; questions: LiveSessionQuestions["questions"] }>(
    `select s.started_at as "startedAt",
            json_agg(json_build_object('id', q.id::text, 'text', q.text, 'votes', q.votes,
                     'answered', q.answered, 'hidden', q.hidden) order by q.votes desc, q.id) as questions
       from live_sessions s join live_questions q on q.session_id = s.id
      where s.presentation_id = $1
      group by s.id, s.started_at
      order by s.started_at desc, s.id desc
      limit $2`,
    [presentationId, limit],
  );
  return rows;
}
