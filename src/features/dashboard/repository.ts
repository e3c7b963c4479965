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
 * Views counted (usage events marked counted_view) and likes made (likes still standing:
 * unliking deletes the row) per UTC day, for the window of `days` days ending with `lastDay`
 * (YYYY-MM-DD; by default the database's today in UTC).
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
       select last_day - ($3::int - 1) as first_day, last_day
         from (select coalesce($4::date, (now() at time zone 'UTC')::date) as last_day) today
     ),
     views as (
       select (e.received_at at time zone 'UTC')::date as day, count(*)::int as n
         from usage_events e, bounds b
        where e.counted_view and e.presentation_oid = $1
          and e.received_at >= b.first_day::timestamp at time zone 'UTC'
          and e.received_at < (b.last_day + 1)::timestamp at time zone 'UTC'
        group by 1
     ),
     likes_made as (
       select (l.created_at at time zone 'UTC')::date as day, count(*)::int as n
         from likes l, bounds b
        where l.presentation_id = $2
          and l.created_at >= b.first_day::timestamp at time zone 'UTC'
          and l.created_at < (b.last_day + 1)::timestamp at time zone 'UTC'
        group by 1
     ),
     window_days as (
       select b.first_day + offset_days as day
         from bounds b, generate_series(0, $3::int - 1) as offset_days
     )
     select to_char(w.day, 'YYYY-MM-DD') as day, coalesce(v.n, 0) as views, coalesce(l.n, 0) as likes
       from window_days w
       left join views v on v.day = w.day
       left join likes_made l on l.day = w.day
      order by w.day`,
    [presentation.oid, presentation.id, days, window.lastDay ?? null],
  );
  return {
    days: rows,
    totals: {
      views: rows.reduce((sum, row) => sum + row.views, 0),
      likes: rows.reduce((sum, row) => sum + row.likes, 0),
    },
  };
}
