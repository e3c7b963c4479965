-- Accounts, rights and likes (issue 4): sessions, collaborators, the app's own secret.

create table sessions (
  id text primary key check (length(id) = 64),
  user_id bigint not null references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);

create index sessions_user_idx on sessions (user_id);

create table collaborators (
  presentation_id bigint not null references presentations (id) on delete cascade,
  user_id bigint not null references users (id) on delete cascade,
  access_right text not null check (access_right in ('edit', 'comment')),
  created_at timestamptz not null default now(),
  primary key (presentation_id, user_id)
);

create index collaborators_user_idx on collaborators (user_id);

create table app_secrets (
  name text primary key,
  value text not null,
  created_at timestamptz not null default now()
);

create index view_links_live_idx on view_links (presentation_id) where revoked_at is null;
