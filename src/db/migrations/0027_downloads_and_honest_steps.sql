-- Issue 33 item 4: downloads. A deck-level setting for the public page (off by default; each view
-- link has its own, allow_download, since 0023), the original PDF of a PDF deck kept from its
-- import on (older decks have none: their download is the PDF drawn from the slides), and the
-- downloads counted per day and audience (a view link's id, or '' for the public page).
alter table presentations add column allow_download boolean not null default false;

create table presentation_originals (
  presentation_id bigint primary key references presentations (id) on delete cascade,
  media_type text not null check (media_type = 'application/pdf'),
  bytes bytea not null,
  created_at timestamptz not null default now()
);

create table presentation_daily_downloads (
  presentation_id bigint not null references presentations (id) on delete cascade,
  day date not null,
  link_id text not null default '',
  n integer not null check (n >= 0),
  primary key (presentation_id, day, link_id)
);

-- The view page shows its Download button from the setting: the change feed (0010) must tag the
-- deck, so the page cache drops the page that still offers (or hides) it.
drop trigger presentations_changed_fields on presentations;
create trigger presentations_changed_fields
  after update of id, oid, owner_id, title, description_html, privacy, schema_version, tags, document,
    is_staff_pick, template_slug, template_sub_title, hidden, created_at, last_modified, hidden_tags,
    source_markdown, notes_public, embed_hosts, allow_download
  on presentations
  for each row execute function podium_presentation_changed();

-- Issue 33 (forged step events): a step event adds to the aggregates only within bounds
-- (features/events/store-batch.ts): step_ms is the time it claimed, set when it was counted, so
-- a visitor's claims add up to no more than the time since its signed visitor id was issued, and
-- the visitors an address adds per hour are capped like views.
alter table usage_events add column step_ms integer check (step_ms >= 0);
create index usage_events_step_visitor_idx on usage_events (presentation_oid, visitor_key) where step_ms is not null;
create index usage_events_step_address_idx on usage_events (presentation_oid, address_key, received_at)
  where step_ms is not null;

-- Issue 33 (link views like public views): the visits a view link counted, keyed like usage
-- events (a visitor and an address under a salt that changes every day, never the address), so
-- one visitor counts once in 30 minutes and one address at most 40 times an hour. Rows older than
-- a day are of no use and are deleted as new ones come.
create table view_link_visits (
  link_id text not null,
  visitor_key text not null,
  address_key text not null,
  viewed_at timestamptz not null
);
create index view_link_visits_visitor_idx on view_link_visits (link_id, visitor_key, viewed_at);
create index view_link_visits_address_idx on view_link_visits (link_id, address_key, viewed_at);
create index view_link_visits_age_idx on view_link_visits (viewed_at);
