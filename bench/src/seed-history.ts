import { sql } from 'kysely';
import type { Db } from '../../server/src/db/database.ts';

/** Chats each customer has, and question–answer pairs in each. */
const CHATS_PER_CUSTOMER = 3;
const PAIRS_PER_CHAT = 5;
/** Words each customer was given, and what each answer held and kept. */
const GRANT = 100_000;
const HOLD = 300;
const SPENT = 50;

/**
 * Adds `count` customers (`client-N@example.ru`, who cannot sign in) with the history a running
 * service's users have: chats of answered messages, each answer's hold settled (the holds' commit
 * trigger applies them to the wallets), every balance its ledger's sum. The admin panel's lists get
 * pages to turn, and PostgreSQL plans on tables that hold rows, as in a service in use. On empty
 * tables, the plans a connection caches for `chat_send`, `chat_close` and the holds stay
 * sequential scans for as long as it lives (until an analyze of the grown tables invalidates
 * them): measured here, `chat_send` on one connection slowed with every message, 2.0 → 4.5 ms over
 * 800, while a connection opened once the tables held rows planned index scans and stayed at about
 * 2.3. Set-based: a few seconds for 400 customers. Then the whole database is vacuumed and analyzed
 * (with no customers too), as autovacuum leaves a live database's tables, so nothing is timed on
 * stale statistics.
 */
export async function seedCustomers(db: Db, count: number): Promise<void> {
  if (count > 0) await addCustomers(db, count);
  await sql`vacuum analyze`.execute(db);
}

async function addCustomers(db: Db, count: number): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await sql`insert into users (email, password_hash, email_confirmed_at) select 'client-' || n || '@example.ru', 'x', now() from generate_series(1, ${count}) as n`.execute(tx);
    const customers = sql`(select id from users where email like 'client-%@example.ru')`;
    await sql`insert into wallets (user_id, kind, balance) select id, 'words', ${GRANT} from ${customers} c`.execute(tx);
    await sql`insert into wallet_ledger (user_id, kind, amount, reason, idempotency_key)
      select id, 'words', ${GRANT}, 'admin_adjustment', 'bench-history:' || id from ${customers} c`.execute(tx);
    await sql`insert into chats (user_id, title, created_at, updated_at)
      select c.id, 'Чат ' || k, now() - interval '1 day', now() - interval '1 day'
      from ${customers} c cross join generate_series(1, ${CHATS_PER_CUSTOMER}) k`.execute(tx);
    // Each pair's two ids taken first, so the answer's hold is placed before the answer refers to it.
    await sql`create temporary table bench_pairs on commit drop as
      select ch.id as chat_id, ch.user_id, j, nextval('chat_messages_id_seq') as question_id, nextval('chat_messages_id_seq') as answer_id
      from chats ch cross join generate_series(1, ${PAIRS_PER_CHAT}) j where ch.user_id in ${customers}`.execute(tx);
    // Each answer's hold: placed (its trigger takes the amount at commit), then settled for what it kept (the trigger gives the rest back).
    await sql`insert into wallet_holds (user_id, kind, amount, idempotency_key)
      select user_id, 'words', ${HOLD}, 'chat-answer:' || answer_id from bench_pairs`.execute(tx);
    await sql`insert into chat_messages (id, chat_id, user_id, role, text, status, words, hold_id, parent_id, created_at, updated_at) overriding system value
      select m.id, p.chat_id, p.user_id, m.role, m.text, 'done', m.words, m.hold_id, m.parent_id, now() - interval '1 day', now() - interval '1 day'
      from bench_pairs p
        left join wallet_holds h on h.idempotency_key = 'chat-answer:' || p.answer_id
        cross join lateral (values
          (p.question_id, 'user', 'Вопрос ' || p.j || ': расскажи что-нибудь о погоде', 0, null::bigint, null::bigint),
          (p.answer_id, 'assistant', 'Ответ ' || p.j || ': ' || repeat('слово ', 40), ${SPENT}, h.id, p.question_id)
        ) m(id, role, text, words, hold_id, parent_id)
      order by m.id`.execute(tx);
    await sql`insert into wallet_ledger (user_id, kind, amount, reason, ref_type, ref_id, idempotency_key, hold_id)
      select user_id, 'words', -amount, 'generation_hold', 'chat_message', substr(idempotency_key, 13), 'hold:' || id, id from wallet_holds where user_id in ${customers}`.execute(tx);
    await sql`update wallet_holds set spent = ${SPENT}, status = 'settled', closed_at = now() where user_id in ${customers}`.execute(tx);
    await sql`insert into wallet_ledger (user_id, kind, amount, reason, idempotency_key, hold_id)
      select user_id, 'words', amount - spent, 'generation_release', 'release:' || id, id from wallet_holds where user_id in ${customers}`.execute(tx);
  });
}
