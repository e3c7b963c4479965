-- Full-text search over listed presentations (issue 5): title, tags, description and every
-- text of the document, in one generated column with a GIN index. 'simple' keeps words as
-- written, so search works the same in every language.

create function podium_search_text(title text, tags text[], description_html text, document jsonb)
returns text
language sql
immutable
parallel safe
as $$
  select title || ' ' || array_to_string(tags, ' ') || ' '
    || regexp_replace(description_html, '<[^>]*>', ' ', 'g') || ' '
    || coalesce((select string_agg(t.v #>> '{}', ' ') from jsonb_path_query(document, 'strict $.**.text') as t(v)), '')
$$;

alter table presentations
  add column search_vector tsvector
  generated always as (to_tsvector('simple', podium_search_text(title, tags, description_html, document))) stored;

create index presentations_search_idx on presentations using gin (search_vector);

create table reports (
  id bigint generated always as identity primary key,
  presentation_id bigint not null references presentations (id) on delete cascade,
  reporter_id bigint references users (id) on delete set null,
  reason text not null check (reason in ('spam', 'harassment', 'hate', 'violence', 'sexual', 'copyright', 'privacy', 'other')),
  details text not null default '' check (length(details) <= 2000),
  status text not null default 'open' check (status in ('open', 'dismissed', 'actioned')),
  created_at timestamptz not null default now(),
  resolved_at timestamptz,
  resolved_by bigint references users (id) on delete set null
);

create index reports_open_idx on reports (created_at) where status = 'open';

alter table presentations add column hidden_tags text[] not null default '{}';

create table usage_events (
  id bigint generated always as identity primary key,
  received_at timestamptz not null default now(),
  session_id text not null check (length(session_id) <= 100),
  event_name text not null check (length(event_name) <= 100),
  presentation_oid text,
  payload jsonb not null
);

create index usage_events_presentation_idx on usage_events (presentation_oid, received_at) where presentation_oid is not null;
