-- Issue 15 items 4 and 5: suggestions as you type, and trending searches.

-- Suggest (item 4) matches the words of listed titles by prefix ("sourd" → "Sourdough Basics"). The
-- title's words are stored (computed once per title change, not per request) with a GIN index over
-- what may be suggested only (the repository's LISTED rule). The first step of a suggestion walks
-- presentations_listed_idx (last_modified desc); no index is added on view_count, which every view
-- updates (an index on it would end HOT updates and touch every index, the search GIN too, per view).
alter table presentations
  add column title_words tsvector generated always as (to_tsvector('simple', title)) stored;

create index presentations_title_words_idx on presentations using gin (title_words)
  where privacy in ('public', 'reusable') and not hidden and template_slug is null;

-- Trending (item 5): how many addresses searched a normalised term in an hour, and nothing about
-- who they were. Old hours are pruned when the trending list is computed.
create table search_term_hours (
  hour timestamptz not null,
  term text not null check (length(term) between 1 and 60),
  searches integer not null default 1 check (searches > 0),
  primary key (hour, term)
);
