import type { Queryable } from "../../db/client";

/** Product brief, Analytics: one view per usage session per presentation per 30 minutes. */
export const VIEW_WINDOW_MINUTES = 30;

/**
 * Stores a usage event; a loaded-view-page event also counts a view, unless the same usage
 * session already loaded this presentation in the last 30 minutes. One statement: the event,
 * its counted_view mark (the owner's view history) and the view count land together or not
 * at all.
 */
export async function recordUsageEvent(
  db: Queryable,
  event: {
    sessionId: string;
    eventName: string;
    presentationOid: string | null;
    payload: unknown;
    countsAsView: boolean;
  },
): Promise<void> {
  await db.query(
    `with counted as (
       update presentations set view_count = view_count + 1
        where $5::boolean and oid = $3
          and not exists (
            select 1 from usage_events
             where presentation_oid = $3 and session_id = $1 and event_name = $2
               and received_at > now() - make_interval(mins => $6)
          )
       returning id
     )
     insert into usage_events (session_id, event_name, presentation_oid, payload, counted_view)
     values ($1, $2, $3, $4::jsonb, exists (select 1 from counted))`,
    [
      event.sessionId,
      event.eventName,
      event.presentationOid,
      JSON.stringify(event.payload),
      event.countsAsView && event.presentationOid !== null,
      VIEW_WINDOW_MINUTES,
    ],
  );
}
