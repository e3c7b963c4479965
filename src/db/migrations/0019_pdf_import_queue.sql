-- Issue 27 item 2: PDF conversion takes turns across people, so a PDF may wait for its turn. The
-- process that holds it writes how many go before it (null once it converts), so any process can
-- say "waiting, N ahead" instead of "0 of 0 pages".
alter table pdf_import_jobs add column ahead integer;
