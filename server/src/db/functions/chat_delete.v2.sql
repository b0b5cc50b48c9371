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
$fn$;
