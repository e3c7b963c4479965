-- Issue 35: live sessions. A presenter (owner or editor) starts one from the presenter view; the
-- audience joins by its code (features/live/rules.ts: 8 characters of a 31-character alphabet),
-- follows the step and sends reactions (kept nowhere), questions and votes (kept with the session,
-- listed on the deck's analytics afterwards). `seq` numbers what the session sent its followers
-- (the server-sent events' ids), so a follower that reconnects says where it was.
create table live_sessions (
  id bigint generated always as identity primary key,
  presentation_id bigint not null references presentations (id) on delete cascade,
  code text not null unique check (code ~ '^[0-9A-Z]{8}$'),
  started_by bigint references users (id) on delete set null,
  started_at timestamptz not null default now(),
  ended_at timestamptz,
  current_step integer not null default 0 check (current_step >= 0),
  seq bigint not null default 1,
  questions_enabled boolean not null default true
);

-- One open session per deck: "Go live" again joins the one already running.
create unique index live_sessions_open_idx on live_sessions (presentation_id) where ended_at is null;
create index live_sessions_presentation_idx on live_sessions (presentation_id, started_at desc);

create table live_questions (
  id bigint generated always as identity primary key,
  session_id bigint not null references live_sessions (id) on delete cascade,
  text text not null check (char_length(text) between 1 and 2000),
  votes integer not null default 0 check (votes >= 0),
  answered boolean not null default false,
  hidden boolean not null default false,
  -- The follower who asked (the signed follower cookie's id), for the per-follower limit.
  follower_id text not null,
  created_at timestamptz not null default now()
);

create index live_questions_session_idx on live_questions (session_id, id);

-- One vote per follower and question.
create table live_question_votes (
  question_id bigint not null references live_questions (id) on delete cascade,
  follower_id text not null,
  primary key (question_id, follower_id)
);
