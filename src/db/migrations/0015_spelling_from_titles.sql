-- Issue 15 item 3: typo tolerance now corrects each word to the closest word of the listed titles
-- in memory (features/search-suggest/spelling.ts) and searches again. The trigram index over the
-- lower-cased titles and tags (migration 0013) answered in 58–209 ms at 100,000 presentations and
-- is read by nothing now; every write to a title paid for it.
drop index if exists presentations_title_trgm_idx;
alter table presentations drop column if exists title_text;
drop function if exists podium_title_text(text, text[]);
