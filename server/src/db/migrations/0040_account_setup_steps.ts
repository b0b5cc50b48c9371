import { sql, type Kysely } from 'kysely';

/** The user columns a viewer is made of (0033's list): a change of one announces the user on `ns_viewer`. */
const VIEWER_COLUMNS = ['email', 'role', 'email_confirmed_at', 'blocked_at', 'password_temporary'];

/** (Re)creates 0033's `users_viewer_changed` trigger, announcing a change of any of `columns`. */
async function viewerTrigger(db: Kysely<unknown>, columns: string[]): Promise<void> {
  const changed = sql.join(
    columns.map((c) => sql`old.${sql.ref(c)} is distinct from new.${sql.ref(c)}`),
    sql` or `,
  );
  await sql`drop trigger users_viewer_changed on users`.execute(db);
  await sql`create trigger users_viewer_changed after update on users for each row when (${changed}) execute function notify_viewer_of_user()`.execute(db);
}

/**
 * What an account must do before anything else (`SETUP_STEPS` in the contracts), in order:
 * `password` — set a new password, for a temporary one (`password_temporary`, which now only says
 * what the password is) and for an existing account `admin:create` made staff. A later step is
 * added to the check below. Every process forgets a viewer whose steps change.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users add column setup_steps text[] not null default '{}'
    constraint users_setup_steps_known check (setup_steps <@ array['password']::text[])`.execute(db);
  await sql`update users set setup_steps = '{password}' where password_temporary`.execute(db);
  await viewerTrigger(db, [...VIEWER_COLUMNS, 'setup_steps']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await viewerTrigger(db, VIEWER_COLUMNS);
  await sql`alter table users drop column setup_steps`.execute(db);
}
