-- Issue 32 item 4: plain usage events (features/events/store-batch.ts isPlainEvent: no view asked,
-- no step bounds, no source, no visitor key: most of what pages send) are stored a batch to a row.
-- No statement reads them one by one: the counting statement looks stored events up by visitor
-- key, counted_view or step_ms, which plain events never have, and retention deletes by age. A row
-- each cost PostgreSQL about 20 µs an event on this machine (the jsonb of every payload, the heap
-- row and its WAL, two b-trees); a batch of 500 in one row, its JSON compressed with lz4, about 3,
-- and a twentieth of the disk.
--
-- batch_uid is the batch's first plain event's id: a batch is the unit that travels together (a
-- batch the in-process queue took, one NATS message), re-sent only whole (a retry, a redelivery),
-- so a batch stored twice is stored once. received_at is its newest event's time (retention).
-- events is a JSON array of {u: id, r: ms received, s: session, n: name, o: presentation, p: the
-- event as sent, a: address key}.
create table usage_event_batches (
  batch_uid uuid primary key,
  received_at timestamptz not null,
  event_count integer not null check (event_count > 0),
  events json not null
);

create index usage_event_batches_received_brin on usage_event_batches using brin (received_at);

-- lz4 where the server has it (PostgreSQL built with it, as Debian's); PGlite has only pglz.
do $$
begin
  alter table usage_event_batches alter column events set compression lz4;
exception when feature_not_supported then
  null;
end
$$;

-- Every stored usage event, a row each, wherever it is stored: for people reading the log and for
-- tests; nothing on a request's path reads it.
create view usage_event_log as
  select event_uid, received_at, session_id, event_name, presentation_oid, payload, counted_view, visitor_key,
         address_key, step_ms
    from usage_events
  union all
  select e.u, to_timestamp(e.r / 1000.0), e.s, e.n, e.o, e.p, false, null::text, e.a, null::integer
    from usage_event_batches b
   cross join lateral json_to_recordset(b.events) as e(u uuid, r float8, s text, n text, o text, p jsonb, a text);
