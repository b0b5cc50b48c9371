import { sql, type Kysely } from 'kysely';

/**
 * `chat_send` bounds the history's tokens as `chat-pricing.ts` bounds text (letters and digits
 * half a token, other visible characters one, characters beyond the BMP three), not half a token
 * a character, which punctuation and emoji exceed.
 *
 * `chat_close` locks the answer's chat before its row (the order `chat_send` and `chat_delete`
 * lock them in), and records the words the settle really kept: none when the hold was closed
 * before (released by the stale-hold job), so a message never shows a charge that did not happen;
 * it answers them as `charged`.
 *
 * `chat_delete(p)` deletes a chat of the user with its messages, first closing the holds of
 * answers still being written there by a process that is gone or elsewhere (released: the answer
 * is deleted with the chat). Answers `{deleted, file_ids}` (the images, whose blobs the caller
 * deletes).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
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
      -- Lost only with the rest of this transaction (a database crash before the next commit):
      -- then nothing of the send was kept and nothing was charged. Answers settle durably.
      perform set_config('synchronous_commit', 'off', true);
      if v_chat is not null then
        perform 1 from chats where id = v_chat and user_id = v_user for update;
        if not found then
          return jsonb_build_object('status', 'not_found');
        end if;
        if exists (select 1 from chat_messages where chat_id = v_chat and role = 'assistant' and status = 'generating') then
          return jsonb_build_object('status', 'busy');
        end if;
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
    $fn$`.execute(db);

  await sql`
    create or replace function chat_close(p jsonb) returns jsonb
    language plpgsql as $fn$
    declare
      v_message bigint := (p->>'message_id')::bigint;
      v_words bigint := (p->>'words')::bigint;
      v_chat bigint;
      v_user bigint;
      v_hold bigint;
      v_closed boolean := false;
      v_balances jsonb;
    begin
      select chat_id into v_chat from chat_messages where id = v_message;
      if found then
        perform 1 from chats where id = v_chat for update;
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
      end if;
      select coalesce(jsonb_object_agg(kind, balance), '{}'::jsonb) into v_balances
        from wallets where user_id = coalesce(v_user, (p->>'user_id')::bigint);
      return jsonb_build_object('closed', v_closed, 'charged', case when v_closed then v_words end, 'words', coalesce((v_balances->>'words')::bigint, 0), 'media', coalesce((v_balances->>'media')::bigint, 0));
    end
    $fn$`.execute(db);

  await sql`
    create or replace function chat_delete(p jsonb) returns jsonb
    language plpgsql as $fn$
    declare
      v_user bigint := (p->>'user_id')::bigint;
      v_chat bigint := (p->>'chat_id')::bigint;
      v_files jsonb;
      h record;
    begin
      perform 1 from chats where id = v_chat and user_id = v_user for update;
      if not found then
        return jsonb_build_object('deleted', false, 'file_ids', '[]'::jsonb);
      end if;
      for h in select hold_id from chat_messages where chat_id = v_chat and status = 'generating' and hold_id is not null loop
        perform wallet_apply(jsonb_build_array(jsonb_build_object('op', 'settle', 'hold_id', h.hold_id, 'spent', 0)));
      end loop;
      select coalesce(jsonb_agg(f.file_id), '[]'::jsonb) into v_files
        from chat_message_files f join chat_messages m on m.id = f.message_id where m.chat_id = v_chat;
      delete from chats where id = v_chat;
      return jsonb_build_object('deleted', true, 'file_ids', v_files);
    end
    $fn$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function if exists chat_delete(jsonb)`.execute(db);
}
