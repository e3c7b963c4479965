-- Issue 33 item 1: per-step engagement, kept per UTC day (raw events are pruned after their
-- retention; these stay). One row per presentation, day, audience (link_id: a view link's id, or
-- '' for the public page and embeds) and step: visits that reached the step (the first time in a
-- visit), arrivals by going back, stays and their total time.
create table presentation_step_daily (
  presentation_id bigint not null references presentations (id) on delete cascade,
  day date not null,
  link_id text not null default '',
  step integer not null check (step >= 0),
  reached integer not null default 0 check (reached >= 0),
  backs integer not null default 0 check (backs >= 0),
  stays integer not null default 0 check (stays >= 0),
  total_ms bigint not null default 0 check (total_ms >= 0),
  primary key (presentation_id, day, link_id, step)
);

-- Medians come from histograms (features/events/step-engagement.ts STAY_TIME_BUCKETS_MS: 1 s
-- wide up to a minute, 2 s to 2 min, 15 s to 10 min, 1 min to an hour): how many stays on a step
-- fell in each bucket, per week (day: the week's Monday, UTC; per day these rows would be most of
-- what the analytics reads). Step -1 holds whole visits' viewing times.
create table presentation_step_times (
  presentation_id bigint not null references presentations (id) on delete cascade,
  day date not null,
  link_id text not null default '',
  step integer not null check (step >= -1),
  bucket integer not null check (bucket >= 0),
  n integer not null check (n >= 0),
  primary key (presentation_id, day, link_id, step, bucket)
);
