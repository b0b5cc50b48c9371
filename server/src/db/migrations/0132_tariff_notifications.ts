import { sql, type Kysely } from 'kysely';

/**
 * Every process keeps the list of plans on sale (`TariffCache`): this trigger announces, on
 * commit, any change of the `tariffs` table — a row inserted, updated or deleted, or the table
 * emptied — on the `ns_tariffs` channel, so every process drops its list, whatever wrote the
 * change (the admin panel, a seed, a migration or a hand-written statement).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function notify_tariffs_changed() returns trigger language plpgsql as $fn$
    begin
      perform pg_notify('ns_tariffs', '');
      return null;
    end
    $fn$`.execute(db);
  await sql`create trigger tariffs_changed after insert or update or delete on tariffs for each statement execute function notify_tariffs_changed()`.execute(db);
  await sql`create trigger tariffs_emptied after truncate on tariffs for each statement execute function notify_tariffs_changed()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists tariffs_emptied on tariffs`.execute(db);
  await sql`drop trigger if exists tariffs_changed on tariffs`.execute(db);
  await sql`drop function if exists notify_tariffs_changed()`.execute(db);
}
