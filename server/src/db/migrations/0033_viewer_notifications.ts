import { sql, type Kysely } from 'kysely';

/**
 * Every process keeps the viewers of the tokens it has seen (`ViewerCache`): these triggers
 * announce, on commit, each change a viewer is made of — a session revoked, expired or deleted;
 * a user's email, role, confirmation, block or temporary password changed, or the user deleted —
 * on the `ns_viewer` channel with the user's id, so every process drops that user's entries.
 * A TRUNCATE of either table announces `*` (every process drops everything). Other changes (a
 * session's "last seen", the welcome notice, Telegram) announce nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function notify_viewer_of_user() returns trigger language plpgsql as $fn$
    begin
      perform pg_notify('ns_viewer', old.id::text);
      return null;
    end
    $fn$`.execute(db);
  await sql`
    create function notify_viewer_of_session() returns trigger language plpgsql as $fn$
    begin
      perform pg_notify('ns_viewer', old.user_id::text);
      return null;
    end
    $fn$`.execute(db);
  await sql`
    create function notify_viewers_emptied() returns trigger language plpgsql as $fn$
    begin
      perform pg_notify('ns_viewer', '*');
      return null;
    end
    $fn$`.execute(db);
  await sql`
    create trigger users_viewer_changed after update on users for each row
    when (old.email is distinct from new.email or old.role is distinct from new.role
      or old.email_confirmed_at is distinct from new.email_confirmed_at or old.blocked_at is distinct from new.blocked_at
      or old.password_temporary is distinct from new.password_temporary)
    execute function notify_viewer_of_user()`.execute(db);
  await sql`create trigger users_viewer_deleted after delete on users for each row execute function notify_viewer_of_user()`.execute(db);
  await sql`
    create trigger sessions_viewer_changed after update on sessions for each row
    when (old.revoked_at is distinct from new.revoked_at or old.expires_at is distinct from new.expires_at
      or old.user_id is distinct from new.user_id)
    execute function notify_viewer_of_session()`.execute(db);
  await sql`create trigger sessions_viewer_deleted after delete on sessions for each row execute function notify_viewer_of_session()`.execute(db);
  await sql`create trigger users_viewers_emptied after truncate on users for each statement execute function notify_viewers_emptied()`.execute(db);
  await sql`create trigger sessions_viewers_emptied after truncate on sessions for each statement execute function notify_viewers_emptied()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists sessions_viewers_emptied on sessions`.execute(db);
  await sql`drop trigger if exists users_viewers_emptied on users`.execute(db);
  await sql`drop trigger if exists sessions_viewer_deleted on sessions`.execute(db);
  await sql`drop trigger if exists sessions_viewer_changed on sessions`.execute(db);
  await sql`drop trigger if exists users_viewer_deleted on users`.execute(db);
  await sql`drop trigger if exists users_viewer_changed on users`.execute(db);
  await sql`drop function if exists notify_viewer_of_session()`.execute(db);
  await sql`drop function if exists notify_viewer_of_user()`.execute(db);
  await sql`drop function if exists notify_viewers_emptied()`.execute(db);
}
