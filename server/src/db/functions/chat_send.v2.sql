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
               + 2 * length(regexp_replace(h.text, '[^\U00010000-\U0010FFFF]', '', 'g')) + 4) from (
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
$fn$;
