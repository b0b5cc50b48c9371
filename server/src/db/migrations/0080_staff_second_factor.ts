import { sql, type Kysely } from 'kysely';

/**
 * Staff's second factor: a TOTP secret per account (`second_factors`, encrypted with a key derived
 * from `APP_SECRET`; `enrolled_at` null while the enrolment awaits its first code; `last_step` the
 * last time step accepted, so no code is taken twice) and ten single-use recovery codes, kept as
 * HMACs. Enrolment is the setup step `second_factor`, after `password`: every admin who has none
 * gets it now.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table second_factors (
    user_id integer primary key references users(id) on delete cascade,
    secret text not null,
    enrolled_at timestamptz,
    last_step bigint not null default 0,
    created_at timestamptz not null default now()
  )`.execute(db);
  await sql`create table recovery_codes (
    id serial primary key,
    user_id integer not null references users(id) on delete cascade,
    code_hash text not null,
    used_at timestamptz,
    created_at timestamptz not null default now(),
    unique (user_id, code_hash)
  )`.execute(db);
  await sql`alter table users drop constraint users_setup_steps_known`.execute(db);
  await sql`alter table users add constraint users_setup_steps_known check (setup_steps <@ array['password', 'second_factor']::text[])`.execute(db);
  await sql`update users set setup_steps = setup_steps || '{second_factor}' where role = 'admin' and not ('second_factor' = any(setup_steps))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update users set setup_steps = array_remove(setup_steps, 'second_factor')`.execute(db);
  await sql`alter table users drop constraint users_setup_steps_known`.execute(db);
  await sql`alter table users add constraint users_setup_steps_known check (setup_steps <@ array['password']::text[])`.execute(db);
  await sql`drop table recovery_codes`.execute(db);
  await sql`drop table second_factors`.execute(db);
}
