-- Issue 33 item 3: view links an owner controls. Each link has a name ("Investor: Acme"), an
-- optional expiry (the link works until this instant), an optional passcode (scrypt, like
-- passwords: features/accounts/password.ts), allow/deny download, and on/off. Its views are
-- counted on the link itself, with the time of the last one, for the owner's link list.
alter table view_links add column name text not null default '' check (char_length(name) <= 100);
alter table view_links add column expires_at timestamptz;
alter table view_links add column passcode_hash text;
alter table view_links add column allow_download boolean not null default false;
alter table view_links add column enabled boolean not null default true;
alter table view_links add column views integer not null default 0 check (views >= 0);
alter table view_links add column last_viewed_at timestamptz;
