-- The client log (spec §3, §7): problems visitors' browsers report (a script error, a chunk that
-- didn't load), for Podium's operators. One row per record; the whole record is kept as sent.

create table client_logs (
  id bigint generated always as identity primary key,
  received_at timestamptz not null default now(),
  levelname text not null check (levelname in ('INFO', 'WARN', 'ERROR')),
  msg text not null check (length(msg) <= 2000),
  session_id text not null check (length(session_id) <= 100),
  presentation_oid text,
  record jsonb not null
);

create index client_logs_received_idx on client_logs (received_at);
