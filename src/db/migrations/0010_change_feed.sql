-- Issue 11: the change feed. Every committed write that changes what an anonymous page shows sends
-- the tags of what it changed (src/features/content-changes.ts) on the channel podium_changes, so
-- the page cache and the small caches of every process on this database drop them. A rolled-back
-- write sends nothing (NOTIFY is delivered on commit).
--
-- Counts are left out on purpose: view_count moves on every counted view (and likes live in
-- like_counters); pages show counts within the page cache's time to live instead.
-- The update trigger names its columns: every column of presentations but view_count (and the
-- generated search_vector). src/db/change-feed.test.ts fails when a new column is missing here.

create function podium_presentation_changed() returns trigger language plpgsql as $$
declare
  tags text[] := '{}';
  was_listed boolean := false;
  is_listed boolean := false;
  was_shown boolean := false;
  is_shown boolean := false;
begin
  if tg_op <> 'INSERT' then
    tags := tags || ('presentation:' || old.oid);
    was_listed := old.privacy in ('public', 'reusable') and not old.hidden;
    was_shown := old.is_staff_pick or old.template_slug is not null;
  end if;
  if tg_op <> 'DELETE' then
    if tg_op = 'INSERT' or new.oid <> old.oid then
      tags := tags || ('presentation:' || new.oid);
    end if;
    is_listed := new.privacy in ('public', 'reusable') and not new.hidden;
    is_shown := new.is_staff_pick or new.template_slug is not null;
  end if;
  -- Lists, search, profiles and the sitemap show listed presentations.
  if was_listed or is_listed then
    tags := tags || 'lists'::text;
  end if;
  -- View pages show staff picks, templates and the number of listed presentations.
  if was_shown or is_shown or was_listed <> is_listed then
    tags := tags || 'showcase'::text;
  end if;
  perform pg_notify('podium_changes', array_to_string(tags, ' '));
  return null;
end
$$;

create trigger presentations_changed_rows after insert or delete on presentations
  for each row execute function podium_presentation_changed();

create trigger presentations_changed_fields
  after update of id, oid, owner_id, title, description_html, privacy, schema_version, tags, document,
    is_staff_pick, template_slug, template_sub_title, hidden, created_at, last_modified, hidden_tags,
    source_markdown
  on presentations
  for each row execute function podium_presentation_changed();

-- A person's names show on their presentations' pages, their profile and cards.
create function podium_user_changed() returns trigger language plpgsql as $$
declare
  who text := case when tg_op = 'DELETE' then old.oid else new.oid end;
begin
  if tg_op = 'UPDATE' and old.oid = new.oid and old.username = new.username
    and old.first_name = new.first_name and old.last_name = new.last_name
    and old.public_display_name is not distinct from new.public_display_name then
    return null;
  end if;
  perform pg_notify('podium_changes', 'user:' || who || ' lists showcase');
  return null;
end
$$;

create trigger users_changed after update or delete on users
  for each row execute function podium_user_changed();

create function podium_video_cards_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify('podium_changes', 'videos');
  return null;
end
$$;

create trigger video_cards_changed after insert or update or delete or truncate on video_cards
  for each statement execute function podium_video_cards_changed();
