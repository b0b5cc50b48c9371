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
$fn$;
