-- Issue 28, item 1: speaker notes are the presenter's. A deck's notes are private unless its owner
-- publishes them (notes_public; every existing deck starts private). A view link may be made for
-- presenting (for_presenting): whoever holds it may open the presenter view, notes included.
--
-- The search text needs no recomputing: podium_slide_text (0013) reads the document's `text`
-- members only, and notes are a topic's `notes` member (private-notes.test.ts proves both the
-- stored vector and snippet_text are without them).
alter table presentations add column notes_public boolean not null default false;
alter table view_links add column for_presenting boolean not null default false;

-- Publishing or unpublishing notes changes what the deck's pages show: the change feed (0010)
-- must tag it, so the update trigger names the new column too.
drop trigger presentations_changed_fields on presentations;
create trigger presentations_changed_fields
  after update of id, oid, owner_id, title, description_html, privacy, schema_version, tags, document,
    is_staff_pick, template_slug, template_sub_title, hidden, created_at, last_modified, hidden_tags,
    source_markdown, notes_public
  on presentations
  for each row execute function podium_presentation_changed();
