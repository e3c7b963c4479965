-- Issue 14 items 3–5: honest views, exact counts, aggregates. Events arrive in batches from the
-- event pipeline (in-process queue or NATS JetStream), which may deliver a batch twice.

-- The id an event got when it was accepted: a redelivered event is stored (and counted) once.
-- Events stored before this migration have none (a unique index lets nulls be).
alter table usage_events add column event_uid uuid;
create unique index usage_events_event_uid_key on usage_events (event_uid);

-- Who sent it, as keys the server derived (features/events/sender-keys.ts): the visitor
-- (address, user agent and presentation) and the address, each keyed with the day's salt.
alter table usage_events add column visitor_key text;
alter table usage_events add column address_key text;

-- "Has this visitor loaded this presentation in the last 30 minutes?"
create index usage_events_visitor_idx on usage_events (presentation_oid, visitor_key, received_at) where visitor_key is not null;
-- "How many views did this address add to this presentation in the last hour?"
create index usage_events_address_idx on usage_events (presentation_oid, address_key, received_at) where counted_view;
-- The chart reads presentation_daily_views now, not counted events.
drop index usage_events_counted_view_idx;
-- Pruning old events by time: a BRIN index (events arrive in time order) costs inserts little.
create index usage_events_received_brin on usage_events using brin (received_at);

-- Views counted per presentation per UTC day, kept in the transaction that counts them: the
-- owner's chart reads this, never the raw events (which are pruned after their retention).
create table presentation_daily_views (
  presentation_id bigint not null references presentations (id) on delete cascade,
  day date not null,
  views integer not null check (views >= 0),
  primary key (presentation_id, day)
);

insert into presentation_daily_views (presentation_id, day, views)
select p.id, (e.received_at at time zone 'UTC')::date, count(*)::int
  from usage_events e
  join presentations p on p.oid = e.presentation_oid
 where e.counted_view
 group by 1, 2;
