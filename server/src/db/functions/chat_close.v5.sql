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
  -- What the settle gives back: the balance gets it at this statement's commit (wallet_hold_commit).
  v_returned bigint := 0;
begin
  select chat_id into v_chat from chat_messages where id = v_message;
  if found then
    -- The chat before the answer, as chat_send and chat_delete lock them; under this lock the
    -- answer's status cannot change (only a close changes it, and every close takes it).
    select deleted_at into v_deleted from chats where id = v_chat for update;
    select user_id, hold_id into v_user, v_hold from chat_messages where id = v_message and status = 'generating';
    v_closed := found;
  end if;
  if v_closed then
    if v_hold is not null then
      v_returned := (wallet_apply(jsonb_build_array(jsonb_build_object(
        'op', 'settle', 'hold_id', v_hold, 'spent', case when p->>'status' = 'failed' then 0 else v_words end))) -> 0 ->> 'returned')::bigint;
      -- The answer is charged what its hold kept.
      select spent into v_words from wallet_holds where id = v_hold;
      v_words := coalesce(v_words, 0);
    end if;
    update chat_messages
      set text = p->>'text', status = p->>'status', words = v_words,
          input_tokens = (p->>'input_tokens')::int, output_tokens = (p->>'output_tokens')::int,
          error = p->>'error', updated_at = now()
      where id = v_message and status = 'generating';
    if not found then
      raise exception 'chat_close: answer % stopped being written under its chat''s lock', v_message;
    end if;
    update chats set updated_at = now() where id = v_chat;
    -- The user deleted the chat while this answer was written: it goes with its last answer.
    if v_deleted is not null and not exists (select 1 from chat_messages where chat_id = v_chat and status = 'generating') then
      delete from chats where id = v_chat;
    end if;
  end if;
  select coalesce(jsonb_object_agg(kind, balance), '{}'::jsonb) into v_balances
    from wallets where user_id = coalesce(v_user, (p->>'user_id')::bigint);
  return jsonb_build_object('closed', v_closed, 'charged', case when v_closed then v_words end, 'words', coalesce((v_balances->>'words')::bigint, 0) + v_returned, 'media', coalesce((v_balances->>'media')::bigint, 0));
end
$fn$;
