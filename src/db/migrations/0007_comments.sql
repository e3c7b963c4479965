-- Comments (product brief, "The editor": commenting mode): people with the comment right leave
-- comments on a presentation; they are listed newest first and deleted by their author or the owner.

create table comments (
  id bigint generated always as identity primary key,
  presentation_id bigint not null references presentations (id) on delete cascade,
  author_id bigint not null references users (id) on delete cascade,
  body text not null check (char_length(body) between 1 and 2000),
  created_at timestamptz not null default now()
);

create index comments_presentation_idx on comments (presentation_id, created_at desc, id desc);
