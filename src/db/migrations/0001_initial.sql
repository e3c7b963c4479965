-- Podium's first schema: people, their presentations, likes and view links (issue 2).
-- Public ids (oid, link_id) are random text; internal keys are identities.

create table users (
  id bigint generated always as identity primary key,
  oid text not null unique check (oid ~ '^[a-z0-9]{12}$'),
  email text not null,
  username text not null unique check (length(username) between 1 and 64),
  first_name text not null default '' check (length(first_name) <= 100),
  last_name text not null default '' check (length(last_name) <= 100),
  public_display_name text check (length(public_display_name) <= 100),
  password_hash text,
  language text,
  is_admin boolean not null default false,
  is_curator boolean not null default false,
  created_at timestamptz not null default now()
);

create unique index users_email_key on users (lower(email));

create table presentations (
  id bigint generated always as identity primary key,
  oid text not null unique check (oid ~ '^[a-z0-9]{12}$'),
  owner_id bigint not null references users (id) on delete cascade,
  title text not null check (length(title) between 1 and 200),
  description_html text not null default '' check (length(description_html) <= 20000),
  privacy text not null check (privacy in ('public', 'reusable', 'unlisted', 'private')),
  schema_version text not null check (schema_version in ('0', '2')),
  tags text[] not null default '{}',
  document jsonb not null,
  likes_count integer not null default 0 check (likes_count >= 0),
  view_count integer not null default 0 check (view_count >= 0),
  is_staff_pick boolean not null default false,
  template_slug text unique,
  template_sub_title text,
  hidden boolean not null default false,
  created_at timestamptz not null default now(),
  last_modified timestamptz not null default now()
);

create index presentations_owner_idx on presentations (owner_id, last_modified desc);

create index presentations_listed_idx on presentations (last_modified desc) where privacy in ('public', 'reusable') and not hidden;

create table likes (
  user_id bigint not null references users (id) on delete cascade,
  presentation_id bigint not null references presentations (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (user_id, presentation_id)
);

create index likes_presentation_idx on likes (presentation_id);

create table view_links (
  id bigint generated always as identity primary key,
  link_id text not null unique check (link_id ~ '^[A-Za-z0-9_-]{16,64}$'),
  presentation_id bigint not null references presentations (id) on delete cascade,
  key_type text not null default 'view_link',
  created_at timestamptz not null default now(),
  revoked_at timestamptz
);

create index view_links_presentation_idx on view_links (presentation_id);

create table video_cards (
  id bigint generated always as identity primary key,
  slug text not null unique,
  title text not null,
  sub_title text not null default '',
  path text not null check (path like '/%'),
  colors text[] not null,
  has_preview_animation boolean not null default false,
  position integer not null
);
