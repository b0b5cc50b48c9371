create or replace function chat_close(p jsonb) returns jsonb
language plpgsql as $fn$
declare
  v_words bigint := (p->>'words')::bigint;
  v_chat bigint;
  v_user bigint;
  v_hold bigint;
  v_closed boolean;
  v_balances jsonb;
begin
  update chat_messages
    set text = p->>'text', status = p->>'status', words = v_words,
        input_tokens = (p->>'input_tokens')::int, output_tokens = (p->>'output_tokens')::int,
        error = p->>'error', updated_at = now()
    where id = (p->>'message_id')::bigint and status = 'generating'
    returning chat_id, user_id, hold_id into v_chat, v_user, v_hold;
  v_closed := found;
  if v_closed then
    -- The chat before the wallet, as chat_send locks them.
    update chats set updated_at = now() where id = v_chat;
    if v_hold is not null then
      perform wallet_apply(jsonb_build_array(jsonb_build_object(
        'op', 'settle', 'hold_id', v_hold, 'spent', case when p->>'status' = 'failed' then 0 else v_words end)));
    end if;
  end if;
  select coalesce(jsonb_object_agg(kind, balance), '{}'::jsonb) into v_balances
    from wallets where user_id = coalesce(v_user, (p->>'user_id')::bigint);
  return jsonb_build_object('closed', v_closed, 'words', coalesce((v_balances->>'words')::bigint, 0), 'media', coalesce((v_balances->>'media')::bigint, 0));
end
$fn$;
