-- Issue 15: the text a search result's snippet is cut from, stored. Reading it per hit (the
-- description without its tags, then every slide's text out of the document's JSON) was 2.8 ms of
-- an 8 ms search on PGlite at 10,000 presentations: computed once per write now, not per page shown.
-- Capped at 20,000 characters (SNIPPET_TEXT_MAX_CHARS, features/explore/snippet.ts): a snippet
-- is cut from its first passages, and a long deck's text isn't stored twice.
create function podium_snippet_text(description_html text, document jsonb)
returns text
language sql
immutable
parallel safe
as $$
  select left(regexp_replace(description_html, '<[^>]*>', ' ', 'g') || ' ' || podium_slide_text(document), 20000)
$$;

alter table presentations
  add column snippet_text text generated always as (podium_snippet_text(description_html, document)) stored;

-- Suggestions come from memory (features/search-suggest/title-index.ts) since issue 15's
-- session 8: this index over the title words is read by no query, and every title write paid for it.
drop index if exists presentations_title_words_idx;
