-- Issue 32 item 1: "Related presentations" (the decks sharing a deck's tags, most shared first,
-- then most watched) read every listed deck carrying one of the tags: 200,000 rows when one tag is
-- on half of 100,000 decks. One row per tag of each listed deck, ordered per tag by views, lets the
-- statement take the most watched few of each tag and stop. A trigger keeps it: a deck that stops
-- being listed (private, unlisted, hidden, a template) leaves it; its views follow it.
create table presentation_tags (
  tag text not null,
  presentation_id bigint not null references presentations (id) on delete cascade,
  owner_id bigint not null,
  view_count integer not null,
  primary key (tag, presentation_id)
);
create index presentation_tags_popular_idx on presentation_tags (tag, view_count desc, presentation_id desc);
create index presentation_tags_presentation_idx on presentation_tags (presentation_id);

create function presentation_tags_follow() returns trigger language plpgsql as $$
begin
  if tg_op = 'UPDATE'
     and new.tags = old.tags and new.privacy = old.privacy and new.hidden = old.hidden
     and new.template_slug is not distinct from old.template_slug and new.owner_id = old.owner_id then
    if new.view_count <> old.view_count then
      update presentation_tags set view_count = new.view_count where presentation_id = new.id;
    end if;
    return null;
  end if;
  if tg_op = 'UPDATE' then
    delete from presentation_tags where presentation_id = new.id;
  end if;
  if new.privacy in ('public', 'reusable') and not new.hidden and new.template_slug is null then
    insert into presentation_tags (tag, presentation_id, owner_id, view_count)
    select distinct tag, new.id, new.owner_id, new.view_count from unnest(new.tags) tag;
  end if;
  return null;
end;
$$;

create trigger presentations_tags_follow
  after insert or update of tags, privacy, hidden, template_slug, owner_id, view_count on presentations
  for each row execute function presentation_tags_follow();

insert into presentation_tags (tag, presentation_id, owner_id, view_count)
select distinct tag, p.id, p.owner_id, p.view_count
  from presentations p, unnest(p.tags) tag
 where p.privacy in ('public', 'reusable') and not p.hidden and p.template_slug is null;
