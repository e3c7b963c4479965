-- Presentation images (issue 10, item 5): uploaded images, re-encoded by Podium and stored once
-- per content (the key is the SHA-256 of the stored bytes), and which presentations use them.
-- An image no presentation uses is deleted once its grace period after the last upload has
-- passed (features/assets: the sweep).

create table assets (
  hash text primary key check (hash ~ '^[0-9a-f]{64}$'),
  content_type text not null check (content_type in ('image/webp')),
  byte_size integer not null check (byte_size > 0),
  width integer not null check (width > 0),
  height integer not null check (height > 0),
  uploader_id bigint references users (id) on delete set null,
  created_at timestamptz not null default now(),
  -- The last upload of these bytes by anyone: the grace period before an unused image goes counts from it.
  uploaded_at timestamptz not null default now(),
  -- The image itself, in the database store (features/assets/store.ts); null when another store holds it.
  bytes bytea
);

-- The per-person storage quota sums what each person uploaded first.
create index assets_uploader_idx on assets (uploader_id);
create index assets_uploaded_idx on assets (uploaded_at);

-- Which presentations show which images: written with the document, in the same statement. The
-- foreign key to assets makes the database refuse to delete an image a presentation uses.
create table presentation_assets (
  presentation_id bigint not null references presentations (id) on delete cascade,
  asset_hash text not null references assets (hash),
  primary key (presentation_id, asset_hash)
);

create index presentation_assets_hash_idx on presentation_assets (asset_hash);
