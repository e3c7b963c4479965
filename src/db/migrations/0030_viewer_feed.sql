-- Issue 32 item 5: a process keeps the sessions and the viewer facts (a like, a collaborator's
-- right) it has read, so a signed-in page needs no statement. Like the content it caches, they are
-- dropped by the change feed (0010's channel), on commit, in every process
-- (src/features/content-changes.ts names the tags):
--   session:{id}        a session ended (signed out, a password changed, the account deleted); the
--                        id is the SHA-256 of the cookie's token, never the token;
--   account:{oid}       anything of a person's row changed (email, names, language, roles) or it went;
--   viewer-facts:{oid}  a like or a collaborator of presentation {oid} changed.

create function podium_session_ended() returns trigger language plpgsql as $$
begin
  perform pg_notify('podium_changes', 'session:' || old.id);
  return null;
end
$$;

create trigger sessions_ended after delete on sessions
  for each row execute function podium_session_ended();

create function podium_account_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify('podium_changes', 'account:' || old.oid);
  if tg_op = 'UPDATE' and new.oid <> old.oid then
    perform pg_notify('podium_changes', 'account:' || new.oid);
  end if;
  return null;
end
$$;

create trigger users_account_changed after update or delete on users
  for each row execute function podium_account_changed();

create function podium_viewer_facts_changed() returns trigger language plpgsql as $$
begin
  if tg_op <> 'INSERT' then
    perform pg_notify('podium_changes', 'viewer-facts:' || p.oid) from presentations p where p.id = old.presentation_id;
  end if;
  if tg_op <> 'DELETE' and (tg_op = 'INSERT' or new.presentation_id <> old.presentation_id) then
    perform pg_notify('podium_changes', 'viewer-facts:' || p.oid) from presentations p where p.id = new.presentation_id;
  end if;
  return null;
end
$$;

create trigger likes_viewer_facts after insert or update or delete on likes
  for each row execute function podium_viewer_facts_changed();

create trigger collaborators_viewer_facts after insert or update or delete on collaborators
  for each row execute function podium_viewer_facts_changed();
