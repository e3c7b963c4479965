-- Issue 34 item 3: the owner may limit where a deck is embedded. embed_hosts holds the sites
-- (CSP frame-ancestors host sources, as src/features/presentation/embed-protocol.ts normalises
-- them); empty, the default, lets any site embed it. The embed page's CSP and its API follow it.
alter table presentations add column embed_hosts text[] not null default '{}';

-- The embed page's header changes with it: the change feed (0010) must tag the deck, so the
-- page cache drops the embed page that still names the old hosts.
drop trigger presentations_changed_fields on presentations;
create trigger presentations_changed_fields
  after update of id, oid, owner_id, title, description_html, privacy, schema_version, tags, document,
    is_staff_pick, template_slug, template_sub_title, hidden, created_at, last_modified, hidden_tags,
    source_markdown, notes_public, embed_hosts
  on presentations
  for each row execute function podium_presentation_changed();
