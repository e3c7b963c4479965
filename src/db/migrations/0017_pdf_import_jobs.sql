-- PDF import jobs (issue 10 item 4), shared by every process: the status of an import was kept in
-- the memory of the process that took the upload, so behind several processes (PODIUM_WORKERS, one
-- per core on PostgreSQL by default) the page asking how far it was reached another process half
-- the time and was told "No such import". The conversion still runs where the upload arrived;
-- its progress is written here, and any process answers. A job whose process stopped (touched_at
-- long ago while converting) reads as failed. The person's imports of the last hour are counted
-- here too (a row stays an hour after it was created), so that limit holds across processes.
create table pdf_import_jobs (
  id text primary key,
  owner_id bigint not null references users (id) on delete cascade,
  state text not null check (state in ('converting', 'done', 'failed')),
  pages_done integer not null default 0,
  page_count integer not null default 0,
  oid text,
  replaced boolean not null default false,
  problem text,
  message text,
  status_code integer,
  created_at timestamptz not null,
  touched_at timestamptz not null,
  ended_at timestamptz
);

-- The person's imports of the last hour, and those under way (the "at most 2 at once" limit).
create index pdf_import_jobs_owner_idx on pdf_import_jobs (owner_id, created_at);
