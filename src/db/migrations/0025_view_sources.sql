-- Issue 33 item 2: where views come from, per presentation and UTC day. Only a host is kept,
-- never a URL (features/events/view-source.ts). kind: 'direct' (no referrer), 'search' (a search
-- engine's host, or 'podium' for Podium's own search), 'podium' (another Podium page), 'site'
-- (another site's host) — each a counted view; 'embed' (a play in an embed, by the embedding
-- site's host) and 'share' (a share button used: the network, or 'link' for Copy link).
create table presentation_daily_sources (
  presentation_id bigint not null references presentations (id) on delete cascade,
  day date not null,
  kind text not null check (kind in ('direct', 'search', 'podium', 'site', 'embed', 'share')),
  host text not null default '' check (char_length(host) <= 253),
  n integer not null check (n >= 0),
  primary key (presentation_id, day, kind, host)
);
