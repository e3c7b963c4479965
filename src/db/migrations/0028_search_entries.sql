-- Issue 32 item 3: search reads a narrow table of its own.
--
-- A search's candidates (up to 1,001 found by a word, ranked by where the words are) were read
-- from presentations, whose rows hold the whole deck: about 1.6 KB a row in the heap, five to a
-- page, so 1,001 candidates visited some 850 pages at 100,000 decks. search_entries holds only
-- what finding and ranking a listed presentation reads (its words, its title and tags' words, its
-- tags, its views), one row per listed presentation that isn't a template; the slides' words go
-- out of line (toast_tuple_target), so a heap page holds dozens of entries. The page of hits shown
-- is read from presentations by id, as before.
--
-- Triggers keep it: a presentation's insert or a change of what it lists or finds writes its
-- entry (or removes it once it isn't listed), a change of view_count alone updates the entry's
-- views (the out-of-line words are kept as they are, never copied per counted view; a tenth of each
-- page is left free so such an update can stay on its page), and a deleted presentation's entry
-- goes with it (on delete cascade).

create table search_entries (
  id bigint primary key references presentations (id) on delete cascade,
  view_count integer not null,
  tags text[] not null,
  title_vector tsvector not null,
  search_vector tsvector not null
) with (toast_tuple_target = 128, fillfactor = 90);

-- Ranking reads the title's words of every candidate: kept in the row (compressed if need be).
alter table search_entries alter column title_vector set storage main;
alter table search_entries alter column tags set storage main;

create function podium_search_entry_written() returns trigger language plpgsql as $$
begin
  if new.privacy in ('public', 'reusable') and not new.hidden and new.template_slug is null then
    insert into search_entries (id, view_count, tags, title_vector, search_vector)
    values (new.id, new.view_count, new.tags, new.title_vector, new.search_vector)
    on conflict (id) do update
      set view_count = excluded.view_count, tags = excluded.tags,
          title_vector = excluded.title_vector, search_vector = excluded.search_vector;
  elsif tg_op = 'UPDATE' then
    delete from search_entries where id = new.id;
  end if;
  return null;
end
$$;

create function podium_search_entry_viewed() returns trigger language plpgsql as $$
begin
  update search_entries set view_count = new.view_count where id = new.id;
  return null;
end
$$;

create trigger presentations_search_entry_inserted after insert on presentations
  for each row execute function podium_search_entry_written();

create trigger presentations_search_entry_changed
  after update of title, tags, description_html, document, privacy, hidden, template_slug
  on presentations
  for each row execute function podium_search_entry_written();

create trigger presentations_search_entry_viewed
  after update of view_count on presentations
  for each row when (old.view_count is distinct from new.view_count)
  execute function podium_search_entry_viewed();

insert into search_entries (id, view_count, tags, title_vector, search_vector)
select id, view_count, tags, title_vector, search_vector
  from presentations
 where privacy in ('public', 'reusable') and not hidden and template_slug is null;

create index search_entries_words_idx on search_entries using gin (search_vector);
create index search_entries_title_idx on search_entries using gin (title_vector);

-- Nothing reads presentations by these any more: templates (a few dozen rows) are found through
-- presentations_templates_idx, and every other search goes through search_entries.
drop index presentations_search_idx;
drop index presentations_title_search_idx;

analyze search_entries;
