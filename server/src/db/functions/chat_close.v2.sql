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
$fn$;
