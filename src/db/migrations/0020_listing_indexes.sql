-- Issue 32 item 1: every list ends its walk early, at any size and in any shape. Each index has
-- the listing's own predicate (features/presentation/repository.ts LISTED) and its whole order, so
-- the statement reads its rows off the index in order and stops at its limit: staff picks older
-- than every other deck, no views anywhere, one owner with half of all decks.
drop index if exists presentations_listed_idx;
create index presentations_listed_idx on presentations (last_modified desc, id desc)
  where privacy in ('public', 'reusable') and not hidden and template_slug is null;
create index presentations_picks_idx on presentations (last_modified desc, id desc)
  where is_staff_pick and privacy in ('public', 'reusable') and not hidden and template_slug is null;
create index presentations_popular_idx on presentations (view_count desc, id desc)
  where privacy in ('public', 'reusable') and not hidden and template_slug is null;
create index presentations_listed_owner_idx on presentations (owner_id, last_modified desc, id desc)
  where privacy in ('public', 'reusable') and not hidden and template_slug is null;
create index presentations_templates_idx on presentations (id) where template_slug is not null and not hidden;
-- The sitemap's pages: the listed decks in one range of ids each.
create index presentations_listed_id_idx on presentations (id)
  where privacy in ('public', 'reusable') and not hidden and template_slug is null;
