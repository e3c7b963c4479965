-- Issue 10: presentation documents version 2 (rich text, lists, quotes, tables, code, speaker
-- notes, page topics and themes). Every field version 2 adds is optional, so a version 1
-- document is upgraded by stamping its version. The source a deck was imported from (its
-- Markdown) is kept beside the document: the editor edits it and export gives it back.

update presentations set document = jsonb_set(document, '{version}', '2') where document ->> 'version' = '1';

alter table presentations
  add column source_markdown text check (length(source_markdown) <= 1000000);
