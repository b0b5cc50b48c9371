create or replace function chat_send(p jsonb) returns jsonb
language plpgsql as $fn$
declare
  v_user bigint := (p->>'user_id')::bigint;
  v_chat bigint := (p->>'chat_id')::bigint;
  v_rate numeric := (p->>'rate')::numeric;
  v_mode text := coalesce(p->>'mode', 'send');
  v_target bigint := (p->>'target_id')::bigint;
  v_parent bigint;
  v_before bigint;
  v_amount bigint := 0;
  v_history jsonb := '[]'::jsonb;
  v_history_tokens numeric := 0;
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
    if v_mode = 'send' then
      select max(id) into v_parent from chat_messages where chat_id = v_chat and not off_path;
    elsif v_mode = 'regenerate' then
      -- Only the chat's last message, an answer, to the question the caller priced.
      select m.parent_id into v_parent from chat_messages m
        where m.id = v_target and m.chat_id = v_chat and m.role = 'assistant' and not m.off_path
          and m.id = (select max(id) from chat_messages where chat_id = v_chat and not off_path);
      if not found or v_parent is distinct from (p->>'question_id')::bigint then
        return jsonb_build_object('status', 'not_last');
      end if;
      v_before := v_parent;
      v_user_message := v_parent;
    elsif v_mode = 'edit' then
      -- Only the user's last message on the conversation shown.
      select m.parent_id into v_parent from chat_messages m
        where m.id = v_target and m.chat_id = v_chat and m.role = 'user' and not m.off_path
          and not exists (select 1 from chat_messages l where l.chat_id = v_chat and not l.off_path and l.role = 'user' and l.id > m.id);
      if not found then
        return jsonb_build_object('status', 'not_last');
      end if;
      v_before := v_target;
    else
      raise exception 'chat_send: unknown mode %', v_mode;
    end if;
  elsif v_mode <> 'send' then
    return jsonb_build_object('status', 'not_found');
  end if;
  -- The user's answers in progress are counted with the user's sends serialised, so concurrent
  -- sends into different chats cannot pass the cap together.
  perform pg_advisory_xact_lock(hashtextextended('chat-answers:' || v_user, 0));
  if (select count(*) from chat_messages where user_id = v_user and role = 'assistant' and status = 'generating') >= (p->>'max_answers')::int then
    return jsonb_build_object('status', 'too_many');
  end if;
  -- The history, read once: answered (the conversation the model gets) and bounded for the hold
  -- as chat-pricing.ts counts text (chatHistoryBound in chat.queries.ts counts it the same way).
  if v_chat is not null then
    select coalesce(jsonb_agg(jsonb_build_object('role', h.role, 'text', h.text) order by h.id desc), '[]'::jsonb),
           coalesce(sum(ceil(length(regexp_replace(h.text, '[^[:alnum:]_]', '', 'g')) / 2.0)
               + length(regexp_replace(h.text, '[[:alnum:]_[:space:]]', '', 'g'))
               + 2 * length(regexp_replace(h.text, '[^\U00010000-\U0010FFFF]', '', 'g')) + 4), 0)
      into v_history, v_history_tokens
      from (
        select id, role, text from chat_messages
        where chat_id = v_chat and not off_path and (v_before is null or id < v_before)
          and status in ('done', 'stopped') and text <> ''
        order by id desc limit (p->>'history_limit')::int) h;
  end if;
  v_amount := ceil(((p->>'base_tokens')::bigint + v_history_tokens) * v_rate);
  if v_user_message is null then
    v_user_message := nextval('chat_messages_id_seq');
  end if;
  v_answer := nextval('chat_messages_id_seq');
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
  if v_mode = 'regenerate' then
    update chat_messages set off_path = true where id = v_target;
  else
    if v_mode = 'edit' then
      update chat_messages set off_path = true where chat_id = v_chat and not off_path and id >= v_target;
    end if;
    insert into chat_messages (id, chat_id, user_id, role, text, parent_id) overriding system value
      values (v_user_message, v_chat, v_user, 'user', p->>'message', v_parent);
    if jsonb_array_length(coalesce(p->'file_ids', '[]'::jsonb)) > 0 then
      insert into chat_message_files (message_id, file_id, position)
        select v_user_message, (f.value #>> '{}')::bigint, f.n - 1
        from jsonb_array_elements(p->'file_ids') with ordinality as f(value, n);
    end if;
  end if;
  insert into chat_messages (id, chat_id, user_id, role, status, model_id, model_name, param, hold_id, parent_id) overriding system value
    values (v_answer, v_chat, v_user, 'assistant', 'generating', (p->>'model_id')::int, p->>'model_name', p->>'param', v_hold_id, v_user_message);
  return jsonb_build_object('status', 'ok', 'chat_id', v_chat, 'user_message_id', v_user_message, 'answer_id', v_answer,
    'hold_id', v_hold_id, 'hold_amount', v_amount, 'history', v_history);
end
$fn$;
