-- Issue 13, R2.8 / spec §3 App data: the author segment a person chose before signing up
-- (sales-marketing, teacher, student, other); it picks the header's trending searches (R3.6).
alter table users add column author_segment text not null default 'other'
  check (author_segment in ('sales-marketing', 'teacher', 'student', 'other'));
