import type { Database } from "../../db/client";

/** Product brief, Analytics: one view per usage session per presentation per 30 minutes. */
export const VIEW_WINDOW_MINUTES = 30;

/**
 * Stores a usage event; a loaded-view-page event also counts a view, unless the same usage
 * session already counted one for this presentation in the last 30 minutes. Both in one
 * transaction: an event and its view land together or not at all.
 */
export async function recordUsageEvent(
  db: Database,
  event: {
    sessionId: string;
    eventName: string;
    presentationOid: string | null;
    payload: unknown;
    countsAsView: boolean;
  },
): Promise<void> {
  await db.transaction(async (tx) => {
    if (event.countsAsView && event.presentationOid) {
      await tx.query(
        `update presentations set view_count = view_count + 1
          where oid = $1
            and not exists (
              select 1 from usage_events
               where presentation_oid = $1 and session_id = $2 and event_name = $3
                 and received_at > now() - make_interval(mins => $4)
            )`,
        [event.presentationOid, event.sessionId, event.eventName, VIEW_WINDOW_MINUTES],
      );
    }
    await tx.query(
      "insert into usage_events (session_id, event_name, presentation_oid, payload) values ($1, $2, $3, $4::jsonb)",
      [event.sessionId, event.eventName, event.presentationOid, JSON.stringify(event.payload)],
    );
  });
}
