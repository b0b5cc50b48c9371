import { sql, type Kysely } from 'kysely';

/**
 * Where tokens could still be created at the edges:
 *
 * - **A refund takes back held tokens too.** A refund takes what the balance has at once; the
 *   rest of what it wants is marked on the user's open holds of that wallet (`clawback`, with the
 *   refunded payment as `clawback_ref_*`). When such a hold closes, what it gives back goes to the
 *   refund first (a `refund` ledger line, key `clawback:<hold>`) and only the remainder to the
 *   balance. What the work really spent stays spent: a refund takes back tokens, not service.
 *   `wallet_apply`'s settle answers `returned` (to the balance) and `clawed` (to the refund).
 * - **Chats are deleted in two steps** when an answer is still being written there (possibly by
 *   another process): `chat_delete` marks the chat `deleted_at` (hidden from every read at once) and
 *   leaves the answer's hold to whoever closes the answer, so it is charged for what it wrote;
 *   `chat_close` removes the chat once its last answer is closed. Without answers in progress the
 *   chat goes at once, as before.
 * - **The send commits durably** (`chat_send` no longer turns `synchronous_commit` off): a crash
 *   after an answer started streaming cannot lose the hold it spends from.
 * - **Answers written at once per user are capped** (`max_answers` in `chat_send`'s parameters),
 *   counted under a transaction-level advisory lock of the user, so concurrent sends cannot pass
 *   the cap together: `{status: 'too_many'}`.
 * - Indexes to find the work a hold pays for (the sweeper of holds whose work is over).
 */
/** `chat_send` as this migration defines it (migration 0034 goes back to it). */
export const CHAT_SEND_0021 = sql`
    create or replace function chat_send(p jsonb) returns jsonb
    language plpgsql as $fn$
    declare
      v_user bigint := (p->>'user_id')::bigint;
      v_chat bigint := (p->>'chat_id')::bigint;
      v_rate numeric := (p->>'rate')::numeric;
      v_amount bigint := 0;
      v_user_message bigint;
      v_answer bigint;
      v_hold jsonb;
      v_hold_id bigint;
    begin
      if v_chat is not null then
        perform 1 from chats where id = v_chat and user_id = v_user and deleted_at is null for update;
        if not found then
          return jsonb_build_object('status', 'not_found');
        end if;
        if exists (select 1 from chat_messages where chat_id = v_chat and role = 'assistant' and status = 'generating') then
          return jsonb_build_object('status', 'busy');
        end if;
      end if;
      -- The user's answers in progress are counted with the user's sends serialised, so concurrent
      -- sends into different chats cannot pass the cap together.
      perform pg_advisory_xact_lock(hashtextextended('chat-answers:' || v_user, 0));
      if (select count(*) from chat_messages where user_id = v_user and role = 'assistant' and status = 'generating') >= (p->>'max_answers')::int then
        return jsonb_build_object('status', 'too_many');
      end if;
      -- The hold covers the worst case: the caller's bound of the new message, system prompt and
      -- longest answer, plus the history's bound as chat-pricing.ts counts it: half a token a
      -- letter or digit, one any other visible character, three a character beyond the BMP, 4 a message.
      v_amount := ceil(((p->>'base_tokens')::bigint + coalesce((
        select sum(ceil(length(regexp_replace(h.text, '[^[:alnum:]_]', '', 'g')) / 2.0)
                   + length(regexp_replace(h.text, '[[:alnum:]_[:space:]]', '', 'g'))
                   + 2 * length(regexp_replace(h.text, '[^\\U00010000-\\U0010FFFF]', '', 'g')) + 4) from (
          select text from chat_messages
          where chat_id = v_chat and status in ('done', 'stopped') and text <> ''
          order by id desc limit (p->>'history_limit')::int) h), 0)) * v_rate);
      -- Ids first: the hold's key and reference name the answer, and the messages keep their order.
      v_user_message := nextval(pg_get_serial_sequence('chat_messages', 'id'));
      v_answer := nextval(pg_get_serial_sequence('chat_messages', 'id'));
      if v_amount > 0 then
        v_hold := wallet_apply(jsonb_build_array(jsonb_build_object(
          'op', 'hold', 'user_id', v_user, 'kind', 'words', 'amount', v_amount,
          'key', 'chat-answer:' || v_answer, 'ref_type', 'chat_message', 'ref_id', v_answer::text))) -> 0;
        if v_hold->>'status' = 'insufficient' then
          return jsonb_build_object('status', 'insufficient');
        end if;
        v_hold_id := (v_hold->>'hold_id')::bigint;
      end if;
      if v_chat is null then
        insert into chats (user_id, title, model_id) values (v_user, p->>'title', (p->>'model_id')::int) returning id into v_chat;
      else
        update chats set updated_at = now(), model_id = (p->>'model_id')::int where id = v_chat;
      end if;
      insert into chat_messages (id, chat_id, user_id, role, text) overriding system value
        values (v_user_message, v_chat, v_user, 'user', p->>'message');
      insert into chat_message_files (message_id, file_id, position)
        select v_user_message, (f.value #>> '{}')::bigint, f.n - 1
        from jsonb_array_elements(coalesce(p->'file_ids', '[]'::jsonb)) with ordinality as f(value, n);
      insert into chat_messages (id, chat_id, user_id, role, status, model_id, model_name, param, hold_id) overriding system value
        values (v_answer, v_chat, v_user, 'assistant', 'generating', (p->>'model_id')::int, p->>'model_name', p->>'param', v_hold_id);
      return jsonb_build_object('status', 'ok', 'chat_id', v_chat, 'user_message_id', v_user_message, 'answer_id', v_answer,
        'hold_id', v_hold_id, 'hold_amount', v_amount);
    end
    $fn$`;

/** `chat_close` as this migration defines it (migration 0034 goes back to it). */
export const CHAT_CLOSE_0021 = sql`
    create or replace function chat_close(p jsonb) returns jsonb
    language plpgsql as $fn$
    declare
      v_message bigint := (p->>'message_id')::bigint;
      v_words bigint := (p->>'words')::bigint;
      v_chat bigint;
      v_user bigint;
      v_hold bigint;
      v_closed boolean := false;
      v_deleted timestamptz;
      v_balances jsonb;
    begin
      select chat_id into v_chat from chat_messages where id = v_message;
      if found then
        select deleted_at into v_deleted from chats where id = v_chat for update;
        update chat_messages
          set text = p->>'text', status = p->>'status', words = v_words,
              input_tokens = (p->>'input_tokens')::int, output_tokens = (p->>'output_tokens')::int,
              error = p->>'error', updated_at = now()
          where id = v_message and status = 'generating'
          returning user_id, hold_id into v_user, v_hold;
        v_closed := found;
      end if;
      if v_closed then
        update chats set updated_at = now() where id = v_chat;
        if v_hold is not null then
          perform wallet_apply(jsonb_build_array(jsonb_build_object(
            'op', 'settle', 'hold_id', v_hold, 'spent', case when p->>'status' = 'failed' then 0 else v_words end)));
          update chat_messages set words = coalesce((select spent from wallet_holds where id = v_hold), 0) where id = v_message
            returning words into v_words;
        end if;
        -- The user deleted the chat while this answer was written: it goes with its last answer.
        if v_deleted is not null and not exists (select 1 from chat_messages where chat_id = v_chat and status = 'generating') then
          delete from chats where id = v_chat;
        end if;
      end if;
      select coalesce(jsonb_object_agg(kind, balance), '{}'::jsonb) into v_balances
        from wallets where user_id = coalesce(v_user, (p->>'user_id')::bigint);
      return jsonb_build_object('closed', v_closed, 'charged', case when v_closed then v_words end, 'words', coalesce((v_balances->>'words')::bigint, 0), 'media', coalesce((v_balances->>'media')::bigint, 0));
    end
    $fn$`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table wallet_holds
    add column clawback bigint not null default 0,
    add column clawback_ref_type text,
    add column clawback_ref_id text,
    add constraint wallet_holds_clawback_check check (clawback >= 0 and clawback <= amount)`.execute(db);
  await sql`create index wallet_holds_open_user_idx on wallet_holds (user_id, kind, id) where status = 'held'`.execute(db);
  await sql`create index generations_hold_idx on generations (hold_id) where hold_id is not null`.execute(db);
  await sql`create index chat_messages_hold_idx on chat_messages (hold_id) where hold_id is not null`.execute(db);
  await sql`alter table chats add column deleted_at timestamptz`.execute(db);
  await sql`create index chats_deleted_idx on chats (deleted_at) where deleted_at is not null`.execute(db);

  await sql`
    create or replace function wallet_apply(ops jsonb) returns jsonb
    language plpgsql as $fn$
    declare
      op jsonb;
      results jsonb := '[]'::jsonb;
      v_id bigint;
      v_user bigint;
      v_kind text;
      v_amount bigint;
      v_spent bigint;
      v_back bigint;
      v_claw bigint;
      v_claw_type text;
      v_claw_ref text;
      h record;
    begin
      for op in select value from jsonb_array_elements(ops) loop
        if op->>'op' = 'hold' then
          v_user := (op->>'user_id')::bigint;
          v_kind := op->>'kind';
          v_amount := (op->>'amount')::bigint;
          insert into wallet_holds (user_id, kind, amount, idempotency_key)
            values (v_user, v_kind, v_amount, op->>'key')
            on conflict (idempotency_key) do nothing
            returning id into v_id;
          if v_id is null then
            select id, user_id, kind, amount, status into h from wallet_holds where idempotency_key = op->>'key';
            results := results || jsonb_build_object('status', 'existing', 'hold_id', h.id, 'user_id', h.user_id, 'kind', h.kind, 'amount', h.amount, 'hold_status', h.status);
            continue;
          end if;
          update wallets set balance = balance - v_amount, updated_at = now()
            where user_id = v_user and kind = v_kind and balance >= v_amount;
          if not found then
            delete from wallet_holds where id = v_id;
            results := results || jsonb_build_object('status', 'insufficient');
            continue;
          end if;
          insert into wallet_ledger (user_id, kind, amount, reason, ref_type, ref_id, idempotency_key, hold_id)
            values (v_user, v_kind, -v_amount, 'generation_hold', op->>'ref_type', op->>'ref_id', 'hold:' || v_id, v_id);
          results := results || jsonb_build_object('status', 'held', 'hold_id', v_id, 'user_id', v_user, 'kind', v_kind, 'amount', v_amount, 'hold_status', 'held');
        elsif op->>'op' = 'settle' then
          v_spent := (op->>'spent')::bigint;
          update wallet_holds
            set spent = least(v_spent, amount),
                status = case when least(v_spent, amount) = 0 then 'released' else 'settled' end,
                closed_at = now()
            where id = (op->>'hold_id')::bigint and status = 'held'
            returning id, user_id, kind, amount, amount - least(v_spent, amount), clawback, clawback_ref_type, clawback_ref_id
            into v_id, v_user, v_kind, v_amount, v_back, v_claw, v_claw_type, v_claw_ref;
          if v_id is null then
            results := results || jsonb_build_object('status', 'closed', 'returned', 0, 'clawed', 0);
            continue;
          end if;
          -- What comes back pays a refund's claim on this hold first; only the rest reaches the balance.
          v_claw := least(v_claw, v_back);
          if v_back > 0 then
            insert into wallet_ledger (user_id, kind, amount, reason, idempotency_key, hold_id)
              values (v_user, v_kind, v_back, 'generation_release', 'release:' || v_id, v_id);
          end if;
          if v_claw > 0 then
            insert into wallet_ledger (user_id, kind, amount, reason, ref_type, ref_id, idempotency_key, hold_id)
              values (v_user, v_kind, -v_claw, 'refund', v_claw_type, v_claw_ref, 'clawback:' || v_id, v_id);
          end if;
          if v_back - v_claw > 0 then
            update wallets set balance = balance + (v_back - v_claw), updated_at = now() where user_id = v_user and kind = v_kind;
          end if;
          results := results || jsonb_build_object('status', case when v_back = v_amount then 'released' else 'settled' end, 'returned', v_back - v_claw, 'clawed', v_claw);
        else
          raise exception 'wallet_apply: unknown operation %', op->>'op';
        end if;
      end loop;
      return results;
    end
    $fn$`.execute(db);

  await CHAT_SEND_0021.execute(db);

  await CHAT_CLOSE_0021.execute(db);

  await sql`
    create or replace function chat_delete(p jsonb) returns jsonb
    language plpgsql as $fn$
    declare
      v_user bigint := (p->>'user_id')::bigint;
      v_chat bigint := (p->>'chat_id')::bigint;
      v_files jsonb;
    begin
      perform 1 from chats where id = v_chat and user_id = v_user and deleted_at is null for update;
      if not found then
        return jsonb_build_object('deleted', false, 'pending', false, 'file_ids', '[]'::jsonb);
      end if;
      -- An answer still being written (here or in another process) keeps its hold: whoever closes
      -- it charges what it wrote, then removes the chat. Until then the chat is hidden.
      if exists (select 1 from chat_messages where chat_id = v_chat and status = 'generating') then
        update chats set deleted_at = now() where id = v_chat;
        return jsonb_build_object('deleted', true, 'pending', true, 'file_ids', '[]'::jsonb);
      end if;
      select coalesce(jsonb_agg(f.file_id), '[]'::jsonb) into v_files
        from chat_message_files f join chat_messages m on m.id = f.message_id where m.chat_id = v_chat;
      delete from chats where id = v_chat;
      return jsonb_build_object('deleted', true, 'pending', false, 'file_ids', v_files);
    end
    $fn$`.execute(db);
}

/** Restores the functions of migrations 0012 and 0014 (and 0013's `chat_send`), then drops what this one added. */
export async function down(db: Kysely<unknown>): Promise<void> {
  const { up: upHoldStatus } = await import('./0012_wallet_apply_hold_status.ts');
  const { up: upChatClose } = await import('./0014_chat_close_and_delete.ts');
  await upHoldStatus(db);
  await upChatClose(db);
  await sql`delete from chats where deleted_at is not null`.execute(db);
  await sql`drop index if exists chats_deleted_idx`.execute(db);
  await sql`alter table chats drop column if exists deleted_at`.execute(db);
  await sql`drop index if exists chat_messages_hold_idx`.execute(db);
  await sql`drop index if exists generations_hold_idx`.execute(db);
  await sql`drop index if exists wallet_holds_open_user_idx`.execute(db);
  await sql`alter table wallet_holds drop constraint if exists wallet_holds_clawback_check, drop column if exists clawback, drop column if exists clawback_ref_type, drop column if exists clawback_ref_id`.execute(db);
}
