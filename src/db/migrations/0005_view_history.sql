-- View history (product brief, Analytics: owners see views and likes over time). A usage
-- event that counted a view says so, set in the same statement that moves view_count, so the
-- views drawn per day add up to the views counted.

alter table usage_events add column counted_view boolean not null default false;

-- Events stored before this column: the same rule the intake applied (a loaded view page of
-- an existing presentation counts unless the same usage session loaded it in the 30 minutes
-- before).
update usage_events e
   set counted_view = true
 where e.event_name = 'loaded_public_view_page'
   and exists (select 1 from presentations p where p.oid = e.presentation_oid)
   and not exists (
     select 1 from usage_events earlier
      where earlier.presentation_oid = e.presentation_oid
        and earlier.session_id = e.session_id
        and earlier.event_name = e.event_name
        and earlier.id < e.id
        and earlier.received_at > e.received_at - interval '30 minutes'
   );

-- A presentation's views by day read only its counted events, in time order.
create index usage_events_counted_view_idx on usage_events (presentation_oid, received_at) where counted_view;

-- Likes by day: the same index as before with the like's time after the presentation, so a
-- window of days is one range scan (it serves every lookup by presentation_id as before).
create index likes_presentation_created_idx on likes (presentation_id, created_at);
drop index likes_presentation_idx;
