-- Issue 15, items 2 and 3: search that costs the same at any size.
--
-- The stored tsvector is weighted (title A, tags B, description C, slide text D) so the bounded
-- candidate set can be ranked by where a word occurs. A second, small tsvector over title and
-- tags alone has its own GIN index: strong matches join the candidates even when a common word
-- matches tens of thousands of slide texts. pg_trgm (PGlite loads it too, src/db/client.ts) finds
-- titles and tags by similarity when the words find little ("sourdoguh" → Sourdough Basics).

create extension if not exists pg_trgm;

create function podium_slide_text(document jsonb)
returns text
language sql
immutable
parallel safe
as $$
  select coalesce((select string_agg(t.v #>> '{}', ' ') from jsonb_path_query(document, 'strict $.**.text') as t(v)), '')
$$;

create function podium_search_vector(title text, tags text[], description_html text, document jsonb)
returns tsvector
language sql
immutable
parallel safe
as $$
  select setweight(to_tsvector('simple', title), 'A')
      || setweight(to_tsvector('simple', array_to_string(tags, ' ')), 'B')
      || setweight(to_tsvector('simple', regexp_replace(description_html, '<[^>]*>', ' ', 'g')), 'C')
      || setweight(to_tsvector('simple', podium_slide_text(document)), 'D')
$$;

-- Title and tags alone, weighted as above (array_to_string is only stable: wrapped, as 0003 did).
create function podium_title_vector(title text, tags text[])
returns tsvector
language sql
immutable
parallel safe
as $$
  select setweight(to_tsvector('simple', title), 'A') || setweight(to_tsvector('simple', array_to_string(tags, ' ')), 'B')
$$;

create function podium_title_text(title text, tags text[])
returns text
language sql
immutable
parallel safe
as $$
  select lower(title || ' ' || array_to_string(tags, ' '))
$$;

alter table presentations drop column search_vector;

alter table presentations
  add column search_vector tsvector
  generated always as (podium_search_vector(title, tags, description_html, document)) stored;

alter table presentations
  add column title_vector tsvector
  generated always as (podium_title_vector(title, tags)) stored;

-- Lower-cased title and tags, the text typo tolerance compares with.
alter table presentations
  add column title_text text
  generated always as (podium_title_text(title, tags)) stored;

drop function podium_search_text(text, text[], text, jsonb);

create index presentations_search_idx on presentations using gin (search_vector);
create index presentations_title_search_idx on presentations using gin (title_vector);
create index presentations_title_trgm_idx on presentations using gin (title_text gin_trgm_ops);
create index presentations_tags_idx on presentations using gin (tags);
