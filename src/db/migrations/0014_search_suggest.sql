-- Issue 15 items 4 and 5: suggestions as you type, and trending searches.

-- Suggest (item 4) matches the words of listed titles by prefix ("sourd" → "Sourdough Basics"):
-- a GIN index on the title's words, only over what may be suggested (the repository's LISTED rule).
create index presentations_title_words_idx on presentations
  using gin (to_tsvector('simple', title))
  where privacy in ('public', 'reusable') and not hidden and template_slug is null;

-- ... and walks the most watched listed titles first (a common prefix stops after a few rows).
create index presentations_listed_popular_idx on presentations (view_count desc, id desc)
  where privacy in ('public', 'reusable') and not hidden and template_slug is null;

-- Trending (item 5): how many addresses searched a normalised term in an hour, and nothing about
-- who they were. Old hours are pruned when the trending list is computed.
create table search_term_hours (
  hour timestamptz not null,
  term text not null check (length(term) between 1 and 60),
  searches integer not null default 1 check (searches > 0),
  primary key (hour, term)
);
